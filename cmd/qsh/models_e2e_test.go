package main

// End-to-end tests of what a local model server showed (issue 18): bad
// settings, tools refused, answers without end, the session record, the
// context window, a model that repeats itself, the spinner on Ctrl-C. The
// servers are the fakes of ai/aitest, playing Ollama's shapes.

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/ai/aitest"
)

// TestModelsBadSettings checks that a bad QSH_AI_* value is one warning and
// its default, never an assistant that is off, and that --config shows it.
func TestModelsBadSettings(t *testing.T) {
	t.Parallel()
	bin := qshBinary(t)
	srv := aitest.NewOpenAI(t, aitest.Say("Still here.", 2))
	env := aiEnv(t, srv, "QSH_AI_TOOL_PROTOCOL=bogus", "QSH_AI_MAX_OUTPUT_TOKENS=lots")
	tm := startAI(t, bin, env)
	tm.Mark()
	tm.Line("? /status")
	out := tm.WaitFor(ps1)
	for _, want := range []string{
		`QSH_AI_TOOL_PROTOCOL="bogus": expected auto, native or fenced; using the default (auto)`,
		`QSH_AI_MAX_OUTPUT_TOKENS="lots": expected an integer; using the default (4096)`,
		"protocol  native (auto",
		"provider  openai",
	} {
		if strings.Count(out, want) != 1 {
			t.Errorf("/status with bad settings lacks %q once:\n%s", want, out)
		}
	}
	tm.Line("? hello")
	out = tm.WaitFor(ps1)
	if !strings.Contains(out, "Still here.") || strings.Contains(out, "QSH_AI_") {
		t.Errorf("the next question:\n%s", out)
	}
	if body := string(srv.Requests()[0].Raw); strings.Contains(body, "```tool") || !strings.Contains(body, `"tools"`) {
		t.Errorf("the default protocol is not native tools: %s", body)
	}
	cmd := exec.Command(bin, "--config")
	cmd.Env = env
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := "QSH_AI_TOOL_PROTOCOL=auto\t(default: auto)\tignored \"bogus\": expected auto, native or fenced\n"; !strings.Contains(string(stdout), want) {
		t.Errorf("--config does not show the problem:\n%s", stdout)
	}
}
