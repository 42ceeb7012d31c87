package main

// End-to-end tests of suggest mode (`??`): the model's command lands on the
// prompt line with the classifier's verdict and runs only on Enter.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// TestSuggestPutsCommandOnLine: `?? …` makes one request without tools;
// the dangerous command it proposes is shown with its verdict and waits on
// the prompt line, untouched until Enter, then runs as the user's own
// (history).
func TestSuggestPutsCommandOnLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	srv := aitest.NewOpenAI(t, aitest.Say("```sh\nrm -r src && echo re\"moved\"\n```\n", 3))
	tm := startIn(t, dir, aiEnv(t, srv))
	tm.Line("?? delete the src directory")
	tm.WaitFor("⚠ dangerous: `rm -r` on `src`")
	tm.WaitFor(ps1 + `rm -r src && echo re"moved"`)
	if !exists(filepath.Join(dir, "src")) {
		t.Fatal("the suggested command ran before Enter")
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	if _, ok := reqs[0].Body["tools"]; ok {
		t.Error("the request offered tools")
	}
	if s := string(reqs[0].Raw); !strings.Contains(s, "delete the src directory") || !strings.Contains(s, "cwd: "+dir) {
		t.Errorf("request: %s", shelltest.Tail(s))
	}
	tm.Line("")
	tm.WaitFor("removed\n")
	tm.WaitFor(ps1)
	if exists(filepath.Join(dir, "src")) {
		t.Error("Enter did not run the command")
	}
	tm.Type(shelltest.Up)
	tm.WaitFor(ps1 + `rm -r src && echo re"moved"`)
	tm.Type(shelltest.CtrlU)
}

// TestSuggestPrintsUnderC: with no prompt to come, `qsh -c '?? …'` prints
// the verdict and the command, and runs nothing.
func TestSuggestPrintsUnderC(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := aitest.NewOpenAI(t, aitest.Say("```sh\ntouch made.txt\n```", 1))
	cmd := exec.Command(qshBinary(t), "-c", "?? make a file")
	cmd.Dir = dir
	cmd.Env = append(aiEnv(t, srv), "PATH="+os.Getenv("PATH"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !strings.HasSuffix(string(out), "\ntouch made.txt\n") || exists(filepath.Join(dir, "made.txt")) {
		t.Errorf("output %q", out)
	}
}
