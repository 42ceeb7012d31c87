package main

import (
	"testing"

	"github.com/qsh-shell/qsh/shell/shelltest"
)

// TestREPLRecall walks the history with Up and Down, keeps an edit made
// on the way, and goes on from where a Ctrl-R search landed.
func TestREPLRecall(t *testing.T) {
	t.Parallel()
	tm := startShell(t, "")
	for _, l := range []string{"echo r-one", "echo r-two", "echo r-three"} {
		enter(tm, l)
	}
	tm.Type(shelltest.Up, shelltest.Up, shelltest.Enter)
	tm.WaitFor("r-two\n")
	tm.WaitFor(ps1)

	// Entries now: r-one r-two r-three r-two. Edit r-three, move away and
	// back: the edit is still there.
	tm.Type(shelltest.Up, shelltest.Up, shelltest.Backspace, "X", shelltest.Up, shelltest.Down, shelltest.Enter)
	tm.WaitFor("r-threX\n")
	tm.WaitFor(ps1)

	// Ctrl-R finds the last r-two; Up shows the entry before it.
	tm.Type(shelltest.CtrlR, "r-two")
	tm.WaitFor("echo r-two")
	tm.Type(shelltest.Up, shelltest.Enter)
	tm.WaitFor("r-three\n")
	tm.WaitFor(ps1)
	exit(t, tm)
}
