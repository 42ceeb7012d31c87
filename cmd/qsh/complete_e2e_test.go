package main

import (
	"os"
	"path/filepath"
	"strings"
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

// A completion that replaces the typed word rather than adding to it: a
// COMPREPLY that does not start with it, as bash puts it in its place.
func TestCompleteReplacesWord(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	rc := `mycmd() { echo "got:$*"; }
_mycmd() { COMPREPLY=(zzz-replaced); }
complete -F _mycmd mycmd
`
	os.WriteFile(filepath.Join(home, ".qshrc"), []byte(rc), 0o644)
	tm := startShell(t, home)
	tm.Type("mycmd abc", shelltest.Tab, "x", shelltest.Enter)
	tm.WaitFor("got:zzz-replaced x")
	tm.WaitFor(ps1)
	exit(t, tm)
}

// completion-ignore-case, set in ~/.inputrc: a name typed in another case
// is completed, and the line takes the name's own case.
func TestCompleteIgnoreCase(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, "Documents", "Reports"), 0o755)
	os.WriteFile(filepath.Join(home, ".inputrc"), []byte("set completion-ignore-case on\n"), 0o644)
	tm := startShell(t, home)
	tm.Type("cd docu", shelltest.Tab, "rep", shelltest.Tab)
	tm.WaitFor("cd Documents/Reports/")
	tm.Type(shelltest.Enter)
	tm.WaitFor(ps1)
	if out := enter(tm, "pwd"); !strings.Contains(out, "/Documents/Reports\n") {
		t.Errorf("pwd after cd docu<Tab>rep<Tab>:\n%s", shelltest.Tail(out))
	}
	exit(t, tm)
}

// fzf's bash completion (Debian installs it with bash-completion's):
// `**` then Tab opens fzf, and the file chosen takes the trigger's place.
// The query is typed before the trigger, so fzf filters from its first
// frame: whatever its file walk has reached, the one line it lists is
// the match, and Enter cannot pick an entry shown before the filter.
func TestCompleteFzfTrigger(t *testing.T) {
	t.Parallel()
	needs.Tool(t, "fzf")
	const script = "/usr/share/bash-completion/completions/fzf"
	needs.File(t, script, "fzf")
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, "zebra-dir"), 0o755)
	os.WriteFile(filepath.Join(home, "zebra-dir", "quokka.txt"), []byte("marsupial\n"), 0o644)
	os.WriteFile(filepath.Join(home, "alpha.txt"), nil, 0o644)
	os.WriteFile(filepath.Join(home, ".qshrc"), []byte(". "+script+"\n"), 0o644)
	tm := startShell(t, home, "PATH="+os.Getenv("PATH"))
	tm.Type("cat quo**", shelltest.Tab)
	tm.WaitFor("zebra-dir/quokka.txt")
	tm.Type(shelltest.Enter)
	tm.WaitFor("cat zebra-dir/quokka.txt")
	tm.Type(shelltest.Enter)
	tm.WaitFor("marsupial")
	tm.WaitFor(ps1)
	exit(t, tm)
}

// show-all-if-ambiguous: one Tab lists the candidates below the line and
// puts their common prefix in, as readline does with it on.
func TestCompleteShowAllIfAmbiguous(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "report-2024.txt"), nil, 0o644)
	os.WriteFile(filepath.Join(home, "report-2025.txt"), nil, 0o644)
	os.WriteFile(filepath.Join(home, ".inputrc"), []byte("set show-all-if-ambiguous on\n"), 0o644)
	tm := startShell(t, home)
	tm.Type("ls rep", shelltest.Tab)
	tm.WaitFor("report-2024.txt  report-2025.txt")
	tm.WaitFor(ps1 + "ls report-202")
	tm.Type(shelltest.CtrlU)
	exit(t, tm)
}
