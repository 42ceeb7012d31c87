package main

import (
	"strings"
	"testing"
)

// TestREPLBracketedPaste: a terminal that marks pastes gets them as one
// insertion, so a pasted line may be far longer than a typed one; several
// pasted lines run one by one, as typed.
func TestREPLBracketedPaste(t *testing.T) {
	t.Parallel()
	tm := startShell(t, "")
	if !strings.Contains(tm.Raw(), "\x1b[?2004h") {
		t.Fatalf("the shell did not ask the terminal to mark pastes: %q", tm.Raw())
	}
	long := "echo " + strings.Repeat("x", 20000) + " | wc -c"
	tm.Type("\x1b[200~" + long + "\x1b[201~")
	tm.Type("\r")
	tm.WaitFor("20001")
	tm.WaitFor(ps1)

	tm.Type("\x1b[200~echo pasted-$((1+1))\recho pasted-$((2+1))\r\x1b[201~")
	tm.WaitFor("pasted-2")
	tm.WaitFor("pasted-3")
	tm.WaitFor(ps1)
	if st := exit(t, tm); st != 0 {
		t.Fatalf("exit status %d", st)
	}
}
