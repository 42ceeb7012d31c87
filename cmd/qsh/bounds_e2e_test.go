package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/ai/aitest"
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
