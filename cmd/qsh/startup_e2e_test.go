package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/shell/shelltest"
)

// TestRCUpToSyntaxError: a syntax error in ~/.qshrc costs what comes
// after it, as in bash, never the lines before (the PATH and the keys
// people export there): they run, then the error is said as file:line
// with the token.
func TestRCUpToSyntaxError(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	bin := filepath.Join(home, "bin")
	os.Mkdir(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "mytool"), []byte("#!/bin/sh\necho tool-ran\n"), 0o755)
	tm := startRC(t, home, home, `export PATH="$HOME/bin:$PATH" PS1='R> '
if true; then
  export EARLY=set
fi
case x in x) echo rc-ran ;; esac; foo )
export LATE=set
`)
	want := filepath.Join(home, ".qshrc") + ":5: syntax error near unexpected token `)'"
	out := tm.WaitFor("R> ")
	if !strings.Contains(out, want) || strings.Contains(out, "rc-ran") {
		t.Errorf("start-up:\n%s\nwant %q", shelltest.Tail(out), want)
	}
	tm.Line(`mytool; echo "[$EARLY|$LATE]"`)
	tm.WaitFor("tool-ran")
	tm.WaitFor("[set|]")
	tm.WaitFor("R> ")
	tm.Type(shelltest.CtrlD)
	tm.WaitExit()
}
