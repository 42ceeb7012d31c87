package main

// End-to-end tests of the user's hooks around the assistant's tool calls
// (QSH_AI_HOOK_*), through the real binaries on a pseudo-terminal.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
)

// TestToolHookVetoes: a pre-tool hook that exits non-zero vetoes the call
// before anyone is asked; the model receives the hook's reason, the screen
// says so, nothing runs, and the turn-end hook hears how the turn ended.
func TestToolHookVetoes(t *testing.T) {
	t.Parallel()
	dir, hooks := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	pre := filepath.Join(hooks, "pre")
	end := filepath.Join(hooks, "end.json")
	writeFiles(t, hooks, map[string]string{"pre": "#!/bin/sh\ncase $(cat) in\n*'rm -r'*) echo 'deleting is off in this repository' >&2; exit 1;;\nesac\n"})
	if err := os.Chmod(pre, 0o755); err != nil {
		t.Fatal(err)
	}
	srv := aitest.NewOpenAI(t, execCall("rm -r src"), aitest.Say("The hook does not let me delete it.", 2))
	tm := startIn(t, dir, aiEnv(t, srv, "QSH_AI_HOOK_PRE_TOOL="+pre, "QSH_AI_HOOK_TURN_END=cat > "+end))
	tm.Line("? delete src")
	out := tm.WaitFor(ps1)
	if !strings.Contains(out, "vetoed by the pre-tool hook: deleting is off in this repository") || strings.Contains(out, "run? [") {
		t.Errorf("screen:\n%s", out)
	}
	if !exists(filepath.Join(dir, "src")) {
		t.Error("the vetoed command ran")
	}
	wantResults(t, srv, "vetoed this call: deleting is off in this repository")
	// The turn ends with its hook, before the prompt comes back.
	var p map[string]any
	b, err := os.ReadFile(end)
	if err == nil {
		err = json.Unmarshal(b, &p)
	}
	if err != nil || p["event"] != "turn_end" || p["question"] != "delete src" || p["reason"] != "refused" {
		t.Errorf("turn-end payload %s (%v)", b, err)
	}
}
