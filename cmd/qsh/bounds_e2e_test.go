package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// TestAnswerBoundedByClient: a server that ignores the output limit (it
// streamed 50 MB) is stopped by qsh at QSH_AI_MAX_OUTPUT_TOKENS, with one
// line; the saved conversation and the follow-up stay small.
func TestAnswerBoundedByClient(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Reply{Text: "Counting: ", Forever: true, IgnoreLimit: true}, aitest.Say("Fine.", 1))
	env := aiEnv(t, srv, "QSH_AI_MAX_OUTPUT_TOKENS=100")
	tm := startIn(t, t.TempDir(), env)
	tm.Line("? count for ever")
	out := tm.WaitFor(ps1)
	if !strings.Contains(out, "went past its limit of 100 tokens, QSH_AI_MAX_OUTPUT_TOKENS") {
		t.Errorf("screen:\n%s", shelltest.Tail(out))
	}
	tm.Line("? and?")
	tm.WaitFor("Fine.")
	tm.WaitFor(ps1)
	if n := len(srv.Requests()[1].Raw); n > 16<<10 {
		t.Errorf("the follow-up sent %d bytes", n)
	}
	dir := filepath.Join(lookupEnv(env, "XDG_STATE_HOME"), "qsh", "conversations")
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil && fi.Size() > 16<<10 {
			t.Errorf("%s: %d bytes saved", f, fi.Size())
		}
	}
	if len(files) == 0 {
		t.Errorf("no conversation saved in %s", dir)
	}
	exit(t, tm)
}

// TestInvalidCallsStopTheTurn: a model that keeps calling a tool that does
// not exist, or with arguments that are not JSON, has its turn stopped at
// the third such call, not at the tenth round trip.
func TestInvalidCallsStopTheTurn(t *testing.T) {
	t.Parallel()
	bad := aitest.Use("execute_command", `{"command": "ls"`, 1)
	srv := aitest.NewOpenAI(t, aitest.Use("run_shell", `{"cmd":"ls"}`, 1), bad, bad, bad, bad, bad, bad, bad, bad, bad)
	tm := startIn(t, t.TempDir(), aiEnv(t, srv))
	tm.Line("? list")
	out := tm.WaitFor(ps1)
	if !strings.Contains(out, "keeps making calls that cannot be made (3 in a row") {
		t.Errorf("screen:\n%s", shelltest.Tail(out))
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
	exit(t, tm)
}

// TestResumeDamaged: a saved conversation with a damaged line in the
// middle is resumed with what is readable, and the user is told which
// lines were skipped.
func TestResumeDamaged(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Say("First answer.", 1), aitest.Say("Second answer.", 1), aitest.Say("Third answer.", 1))
	env := aiEnv(t, srv)
	dir := t.TempDir()
	tm := startIn(t, dir, env)
	tm.Line("? first question")
	tm.WaitFor("First answer.")
	tm.WaitFor(ps1)
	tm.Line("? second question")
	tm.WaitFor("Second answer.")
	tm.WaitFor(ps1)
	exit(t, tm)

	files, _ := filepath.Glob(filepath.Join(lookupEnv(env, "XDG_STATE_HOME"), "qsh", "conversations", "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("conversation files: %q", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) < 5 || !strings.Contains(lines[2], "First answer.") {
		t.Fatalf("the file is not as expected:\n%s", data)
	}
	lines[2] = "{\"role\":\"assistant\",\"te\x00\xff garbage\n"
	os.WriteFile(files[0], []byte(strings.Join(lines, "")), 0o600)

	tm = startIn(t, dir, env)
	tm.Line("? /resume")
	tm.WaitFor("first question")
	tm.WaitFor(ps1)
	tm.Line("? /resume 1")
	out := tm.WaitFor(ps1)
	if !strings.Contains(out, "continuing the conversation") || !strings.Contains(out, "skipped 1 line of ") ||
		!strings.Contains(out, "that could not be read: line 3 (") {
		t.Errorf("resume:\n%s", shelltest.Tail(out))
	}
	tm.Line("? and then")
	tm.WaitFor("Third answer.")
	tm.WaitFor(ps1)
	sent := string(srv.Requests()[2].Raw)
	if !strings.Contains(sent, "first question") || !strings.Contains(sent, "Second answer.") || strings.Contains(sent, "garbage") {
		t.Errorf("the resumed conversation sent:\n%s", shelltest.Tail(sent))
	}
	exit(t, tm)
}
