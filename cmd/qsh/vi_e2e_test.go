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

// viCases are lines typed in vi mode (set -o vi): each starts in insert
// mode, Esc is \x1b, and Enter runs what is left, an echo whose output
// TestViModeAgainstBash compares with bash's. No Esc is followed by [ or
// O, which would start an arrow key's sequence in both.
var viCases = []struct{ name, keys string }{
	{"esc then append", "echo abc\x1bax"},
	{"x and X", "echo abcdef\x1bxhX"},
	{"counts", "echo abcdef\x1b3h2x"},
	{"0 w cw", "echo foo bar baz\x1b0wcwXYZ\x1b"},
	{"cw on a word's last letter", "echo foo bar\x1bbecwQ\x1b"},
	{"dw and b", "echo foo bar baz\x1bbbdw"},
	{"d2w", "echo one two three four\x1b0wd2w"},
	{"2dw", "echo one two three four\x1b0w2dw"},
	{"de", "echo one two three\x1b0wde"},
	{"W B E", "echo a.b c-d e_f\x1b0WdWBE~"},
	{"w stops at punctuation", "echo a.b c\x1b0wwx"},
	{"b from the end", "echo one two\x1bbx"},
	{"dollar and caret", "echo   x y\x1b0$x^x"},
	{"d$ and D", "echo one two three\x1b0wwd$bD"},
	{"d0", "echo one two\x1bd0"},
	{"C", "echo one two\x1bbCnew\x1b"},
	{"cc then text", "echo one\x1bccecho two\x1b"},
	{"S", "echo one\x1bSecho three\x1b"},
	{"s", "echo abc\x1bhsX\x1b"},
	{"r", "echo abc\x1bhrZ"},
	{"3r", "echo abcdef\x1b0w3rx"},
	{"tilde with count", "echo abc\x1b0w5~"},
	{"f and F", "echo a-b-c-d\x1b0fbx$Fbx"},
	{"t and T", "echo a-b-c-d\x1b0tcx$Tax"},
	{"semicolon and comma", "echo a-b-c-d-e\x1b0f-;x,x"},
	{"dt and df", "echo one,two;three\x1b0wdt,f;df."},
	{"percent", "echo (a [b] c) d\x1b0f(d%"},
	{"dd then p", "echo one\x1bddpAx\x1b"},
	{"yw and P", "echo one two\x1b0wywP"},
	{"yy and p", "echo hi\x1byy$p"},
	{"p after x", "echo abc\x1b0wxp"},
	{"Y", "echo one two\x1b0wwY$p"},
	{"u undoes the last change", "echo abc\x1bxxu"},
	{"u twice", "echo abc\x1bxxuu"},
	{"U", "echo abc\x1bxhxU"},
	{"dot repeats x", "echo abcdef\x1b0wx.."},
	{"dot repeats dw", "echo a b c d\x1b0wdw."},
	{"dot repeats cw", "echo a b c\x1b0wcwX\x1bw."},
	{"dot with a count", "echo abcdef\x1b0wx3."},
	{"I and A", "echo mid\x1bI:\x1bAend\x1b"},
	{"a at the end", "echo ab\x1bac"},
	{"i before", "echo ab\x1bic"},
	{"bar column", "echo abcdef\x1b7|x"},
	{"space and C-h move, DEL does not", "echo abcd\x1b0   x\x08x\x7fx"},
	{"d with an invalid motion does nothing", "echo abc\x1bdzx"},
	{"u after the first Esc does nothing", "echo abc\x1bu"},
	{"the first insert is U's start", "echo abc\x1bAde\x1bxU"},
	{"u undoes an insert", "echo abc\x1bAde\x1bu"},
	{"2d3w", "echo a b c d e f g h\x1b0w2d3w"},
	{"Esc in command mode", "echo abc\x1b\x1bx"},
	{"an arrow key in command mode", "echo abc\x1b\x1b[Dx"},
	{"k recalls the line before", "\x1bk$x"},
	{"k then j comes back", "echo new\x1bkjx"},
	{"dot repeats an insert with a backspace", "echo ab\x1bAxy\x7fz\x1b.."},
	{"p with a count", "echo ab\x1b0wyl3p"},
	{"cb", "echo one two\x1bcbX\x1b"},
	{"d^", "echo   one two\x1b$d^"},
	{"dh and dl", "echo abcd\x1bhdhdl"},
	{"yb then P", "echo one two\x1bybP"},
	{"e to the end", "echo ab cd\x1b0eeeex"},
	{"F not found", "echo abc\x1bFzx"},
	{"an unknown key", "echo abc\x1bzx"},
	{"a count then 0", "echo abcdefghijklmnop\x1b010lx"},
	{"c with a count", "echo a b c d\x1b0wc2wX\x1b"},
	{"dot repeats d with f", "echo a-b-c-d\x1b0wdf-."},
}

// TestViModeAgainstBash types each of viCases in qsh and in bash, both in
// vi mode on a terminal, and compares what the line they run prints.
func TestViModeAgainstBash(t *testing.T) {
	t.Parallel()
	bash := needs.Tool(t, "bash")
	// The prompt counts lines, so that waiting for the next one never
	// finds the prompt of a line being redrawn.
	const rc = "set -o vi\nPROMPT_COMMAND='N=$((N+1))'\nPS1='@$N> '\n"
	home := t.TempDir()
	q := startRC(t, home, home, rc)
	b := shelltest.Start(t, bash, shelltest.Args("--norc", "--noprofile", "-i"),
		shelltest.Env("HOME="+home, "PS1=", "INPUTRC=/dev/null"), shelltest.Dir(home))
	b.Line(strings.ReplaceAll(rc, "\n", "; "))
	for _, tm := range []*shelltest.Term{q, b} {
		tm.WaitFor("@1> ")
	}
	n := map[*shelltest.Term]int{q: 1, b: 1}
	result := func(tm *shelltest.Term, keys string) string {
		n[tm]++
		out := tm.WaitFor(fmt.Sprintf("@%d> ", n[tm]))
		// qsh's move to column 1 before a program's output; the name
		// in error messages.
		out = strings.NewReplacer("\r", "", " \b", "", "qsh: ", "", "bash: ", "").Replace(out)
		lines := strings.Split(strings.TrimSuffix(out, fmt.Sprintf("@%d> ", n[tm])), "\n")
		if len(lines) < 2 {
			return "(no output)"
		}
		return lines[len(lines)-2]
	}
	for _, c := range viCases {
		q.Type(c.keys, "\r")
		b.Type(c.keys, "\r")
		if got, want := result(q, c.keys), result(b, c.keys); got != want {
			t.Errorf("%s: %q printed %q in qsh, %q in bash", c.name, c.keys, got, want)
		}
	}
}

// TestViModeInputrc: `set editing-mode vi` in ~/.inputrc, as bash's
// readline reads it, puts the editor in vi mode; v and the emacs keys'
// C-x C-e edit the line in $EDITOR and run what it saved.
func TestViModeInputrc(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	editor := filepath.Join(home, "editor")
	for name, text := range map[string]string{
		".inputrc": "# vi, please\nset editing-mode vi\n",
		"editor":   "#!/bin/sh\nsed -i 's/draft/edited/' \"$1\"\n",
	} {
		if err := os.WriteFile(filepath.Join(home, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tm := startShell(t, home, "EDITOR="+editor)
	// What each line prints, $((6*7)) worked out, is not the line
	// drawn again while it is edited.
	tm.Type("echo draft-$((6*7))\x1b0wx\r")
	tm.WaitFor("raft-42")
	tm.WaitFor(ps1)
	tm.Type("echo draft-$((6*7))\x1bv")
	tm.WaitFor("edited-42")
	tm.WaitFor(ps1)
	tm.Line("set -o emacs; set -o | grep -w vi")
	tm.WaitFor("off")
	tm.WaitFor(ps1)
	tm.Type("echo draft-$((6*7))\x18\x05")
	tm.WaitFor("edited-42")
	tm.WaitFor(ps1)
	exit(t, tm)
}
