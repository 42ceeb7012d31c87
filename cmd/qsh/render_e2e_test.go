package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
)

// TestAnswerRendered checks that an answer's Markdown is rendered on a
// terminal — bold without its asterisks, even with the marks cut across
// stream chunks — and passes unchanged through a pipe.
func TestAnswerRendered(t *testing.T) {
	t.Parallel()
	bin := qshBinary(t)
	answer := "It **fails** here:\n- `make` stops\n"
	srv := aitest.NewOpenAI(t, aitest.Say(answer, 9))
	tm := startAI(t, bin, aiEnv(t, srv))
	tm.Mark()
	tm.Line("? why")
	out := tm.WaitFor(ps1)
	if !strings.Contains(out, "It fails here:") || !strings.Contains(out, "• make stops") {
		t.Errorf("screen:\n%s", out)
	}
	if raw := tm.Raw(); !strings.Contains(raw, "\x1b[1mfails") || strings.Contains(raw, "**fails**") {
		t.Errorf("no bold on the terminal: %q", raw[strings.LastIndex(raw, "? why"):])
	}

	srv = aitest.NewOpenAI(t, aitest.Say(answer, 9))
	cmd := exec.Command(bin, "-c", "? why")
	cmd.Env = append(aiEnv(t, srv), "PATH="+os.Getenv("PATH"), "TERM=xterm")
	piped, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(piped) != answer {
		t.Errorf("piped output %q, want %q", piped, answer)
	}
}
