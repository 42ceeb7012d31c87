package main

import (
	"strings"
	"testing"
)

// TestREPLPromptInColumn1: output left without a newline is marked with a
// % and the prompt starts on a line of its own; qsh does not ask the
// terminal where the cursor is (a round trip before every prompt).
func TestREPLPromptInColumn1(t *testing.T) {
	t.Parallel()
	tm := startShell(t, "")
	tm.Mark()
	tm.Line("printf no-newline-$((6*7))")
	tm.WaitFor("no-newline-42%")
	tm.WaitFor(ps1)
	if out := enter(tm, "echo next"); !strings.Contains(out, "next") {
		t.Fatalf("after a partial line: %q", out)
	}
	if strings.Contains(tm.Raw(), "\x1b[6n") {
		t.Errorf("qsh asked the terminal for the cursor position: %q", tm.Raw())
	}
	exit(t, tm)
}
