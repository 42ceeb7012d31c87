package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// A `complete -F` function of the user's answers Tab.
func TestCompleteUserFunction(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	rc := `mycmd() { echo "got:$*"; }
_mycmd() { COMPREPLY=($(compgen -W "install remove --help" -- "$2")); }
complete -F _mycmd mycmd
`
	os.WriteFile(filepath.Join(home, ".qshrc"), []byte(rc), 0o644)
	tm := startShell(t, home)
	tm.Type("mycmd ins", shelltest.Tab, "x", shelltest.Enter)
	tm.WaitFor("got:install x")
	tm.WaitFor(ps1)
	// Two candidates: the first Tab inserts nothing more, the second
	// lists them.
	tm.Type("mycmd ", shelltest.Tab, shelltest.Tab)
	tm.WaitFor("remove")
	tm.Type(shelltest.CtrlU)
	exit(t, tm)
}

// bash-completion, sourced from .qshrc, completes apt-get's subcommands:
// its loader (complete -D) reads apt-get's file on the first Tab.
func TestCompleteBashCompletion(t *testing.T) {
	t.Parallel()
	const lib = "/usr/share/bash-completion/bash_completion"
	needs.File(t, lib, "bash-completion")
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, ".qshrc"), []byte("source "+lib+"\n"), 0o644)
	tm := startShell(t, home)
	tm.Type("apt-get insta", shelltest.Tab)
	tm.WaitFor("apt-get install ")
	tm.Type(shelltest.CtrlU)
	exit(t, tm)
}

// Ctrl-C stops a completion that does not end, and the line stays.
func TestCompleteCtrlC(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	rc := `slowcmd() { echo "kept $*"; }
slow() { echo completion-started >&2; sleep 60; }
complete -F slow slowcmd
`
	os.WriteFile(filepath.Join(home, ".qshrc"), []byte(rc), 0o644)
	tm := startShell(t, home)
	tm.Type("slowcmd a", shelltest.Tab)
	tm.WaitFor("completion-started")
	tm.Type(shelltest.CtrlC, " b", shelltest.Enter)
	tm.WaitFor("kept a b")
	tm.WaitFor(ps1)
	exit(t, tm)
}
