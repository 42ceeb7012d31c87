package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// keyCases are lines typed in emacs mode with keys readline binds to
// something qsh's editor lacked, or to nothing: none may put an unseen
// byte in the command (Ctrl-O made `echo` a command not found). Enter
// runs what is left, an echo whose output TestKeysAgainstBash compares
// with bash's.
var keyCases = []struct{ name, keys string }{
	{"Ctrl-^ does nothing", "echo a\x1eb"},
	{"Ctrl-Q and the next key", "echo a\x11b"},
	{"Ctrl-V and the next key", "echo a\x16b"},
	{"Ctrl-] moves to a character", "echo xyzxyz\x01\x1dz\x1dzQ"},
	{"Ctrl-] finds nothing", "echo abc\x1dqZ"},
}

// TestKeysAgainstBash types each of keyCases in qsh and in bash, both on
// a terminal, and compares what the line they run prints.
func TestKeysAgainstBash(t *testing.T) {
	t.Parallel()
	bash := needs.Tool(t, "bash")
	const rc = "PROMPT_COMMAND='N=$((N+1))'\nPS1='@$N> '\n"
	home := t.TempDir()
	q := startRC(t, home, home, rc, "LANG=C.UTF-8")
	b := shelltest.Start(t, bash, shelltest.Args("--norc", "--noprofile", "-i"),
		shelltest.Env("HOME="+home, "PS1=", "INPUTRC=/dev/null", "LANG=C.UTF-8"), shelltest.Dir(home))
	b.Line(strings.ReplaceAll(rc, "\n", "; "))
	for _, tm := range []*shelltest.Term{q, b} {
		tm.WaitFor("@1> ")
	}
	n := map[*shelltest.Term]int{q: 1, b: 1}
	result := func(tm *shelltest.Term) string {
		n[tm]++
		out := tm.WaitFor(fmt.Sprintf("@%d> ", n[tm]))
		out = strings.NewReplacer("\r", "", " \b", "", "qsh: ", "", "bash: ", "").Replace(out)
		lines := strings.Split(strings.TrimSuffix(out, fmt.Sprintf("@%d> ", n[tm])), "\n")
		if len(lines) < 2 {
			return "(no output)"
		}
		return lines[len(lines)-2]
	}
	for _, c := range keyCases {
		q.Type(c.keys, "\r")
		b.Type(c.keys, "\r")
		if got, want := result(q), result(b); got != want {
			t.Errorf("%s: %q printed %q in qsh, %q in bash", c.name, c.keys, got, want)
		}
	}
}

// TestKeysDoNothing: keys that bash's readline binds to what qsh does
// not do, or that only a terminal's own handling gives meaning in bash
// (Ctrl-\ quits there, and the terminal drops what was typed), put
// nothing on the line; the raw bytes of a Latin-1 key stay the bytes
// they are, in the command that runs and in the history, as in bash.
func TestKeysDoNothing(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	tm := startShell(t, home)
	tm.Type("echo a\x1cb\x1e\x00c$((6*7))", shelltest.Enter)
	tm.WaitFor("abc42")
	tm.WaitFor(ps1)
	tm.Mark()
	tm.Type("echo \xe9t\xe9\x02\x02X\x05; echo o\"\"k", shelltest.Enter)
	// Run with the bytes as they are, as bash does.
	tm.WaitFor("ok")
	tm.WaitFor(ps1)
	if !strings.Contains(tm.Raw(), "\xe9Xt\xe9\r\nok") {
		t.Errorf("the line's bytes did not reach echo as they are: %q", tail(tm.Raw(), 200))
	}
	exit(t, tm)
	data, _ := os.ReadFile(filepath.Join(home, "state", "qsh", "history"))
	if want := "echo abc$((6*7))\n" + `echo \xe9Xt\xe9; echo o""k` + "\n"; unstamped(data) != want {
		t.Errorf("history file %q, want %q", data, want)
	}
}

// TestOperateAndGetNext: Ctrl-O runs the line recalled from the history
// and puts the entry after it on the next line, as bash does: a sequence
// of commands is run again with Up, then Ctrl-O, Ctrl-O…
func TestOperateAndGetNext(t *testing.T) {
	t.Parallel()
	tm := startShell(t, "")
	for _, w := range []string{"one", "two", "three"} {
		enter(tm, "echo step-"+w+"-$((1+1))")
	}
	tm.Mark()
	tm.Type(shelltest.Up, shelltest.Up, shelltest.Up, "\x0f")
	tm.WaitFor("step-one-2")
	tm.WaitFor(ps1 + "echo step-two-$((1+1))")
	tm.Type("\x0f")
	tm.WaitFor("step-two-2")
	tm.WaitFor(ps1 + "echo step-three-$((1+1))")
	tm.Type(shelltest.Enter)
	tm.WaitFor("step-three-2")
	tm.WaitFor(ps1)
	// On a new line it only runs it.
	tm.Type(`echo fresh-$((2+2))`, "\x0f")
	tm.WaitFor("fresh-4")
	tm.WaitFor(ps1)
	if out := enter(tm, "echo after"); !strings.Contains(out, "after\n") {
		t.Errorf("the line after Ctrl-O on a new line:\n%s", shelltest.Tail(out))
	}
	exit(t, tm)
}

// TestLongLinesRoundTrip: a line as long as a terminal's input buffer
// sends at once (typed by a program, or pasted where the terminal does
// not mark pastes) and a 200 KB pasted one run, go into the history file
// and come back from it whole in the next session.
func TestLongLinesRoundTrip(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	tm := startShell(t, home)
	typed := "echo " + strings.Repeat("t", 10000) + " >/dev/null; echo typed-''ran"
	pasted := "echo " + strings.Repeat("p", 200<<10) + " | wc -c; echo pasted-''ran"
	tm.Type(typed, shelltest.Enter)
	tm.WaitFor("typed-ran")
	tm.WaitFor(ps1)
	tm.Type(pasteStart+pasted+pasteEnd, shelltest.Enter)
	tm.WaitFor(fmt.Sprint(len(pasted) - len("echo  | wc -c; echo pasted-''ran") + 1))
	tm.WaitFor("pasted-ran")
	tm.WaitFor(ps1)
	exit(t, tm)
	data, err := os.ReadFile(filepath.Join(home, "state", "qsh", "history"))
	if err != nil || unstamped(data) != typed+"\n"+pasted+"\n" {
		t.Fatalf("history file of %d bytes, want %d (%v)", len(data), len(typed)+len(pasted)+2, err)
	}
	tm = startShell(t, home)
	tm.Type(shelltest.Up, shelltest.Enter)
	tm.WaitFor("pasted-ran")
	tm.WaitFor(ps1)
	tm.Type(shelltest.Up, shelltest.Up, shelltest.Up, shelltest.Enter)
	tm.WaitFor("typed-ran")
	tm.WaitFor(ps1)
	if out := tm.Output(); strings.Contains(out, "unreadable") || strings.Contains(out, "too long") {
		t.Errorf("the second session:\n%s", shelltest.Tail(out))
	}
	exit(t, tm)
}

// TestYankLastArg: M-. and M-_ insert the last word of the previous line,
// M-. again the last word of the one before, M-C-y the first argument, as
// readline does in bash. (Each group of keys once the last has shown: a
// bound key's change of the line and keys typed after it race in the
// editor.)
func TestYankLastArg(t *testing.T) {
	t.Parallel()
	tm := startShell(t, "")
	enter(tm, "echo first last-a")
	enter(tm, "echo one two last-b")
	yank := func(keys, shown, want string) {
		t.Helper()
		tm.Mark()
		tm.Type(`printf '<%s>\n' `, keys)
		tm.WaitFor(shown)
		tm.Type(shelltest.Enter)
		tm.WaitFor(want)
		tm.WaitFor(ps1)
	}
	yank("\x1b.", "' last-b", "<last-b>")
	yank("\x1b_\x1b.\x1b.", "' last-a", "<last-a>")
	yank("\x1b\x19", "' '<%s>", `<<%s>\n>`) // the word as typed, quotes and all
	exit(t, tm)
}
