package shell

import (
	"context"
	"slices"
	"strings"
	"testing"
)

func TestPromptHooks(t *testing.T) {
	s, r, out := newTestShell(t, []string{
		`PROMPT_COMMAND='echo "pc:$?"; false'`,
		`(exit 3)`,
		`PS1='[$?|$(echo sub)|\w] '; PS2='more$? '`,
		`if true`,
		`then echo in; fi`,
		`PROMPT_COMMAND=('echo "a:$?"' 'echo b'); PS0='ps0:$?\n'`,
		`shopt -u promptvars`,
		`shopt -s promptvars; PS1='$(exit 1)'`,
	})
	s.REPL(context.Background())
	got := out.String()
	for _, want := range []string{"pc:0\n", "pc:3\n", "in\n", "a:0\nb\n", "ps0:0\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	// Without promptvars, the escapes only (bash's too).
	wantPrompts := []string{"$ ", "$ ", "$ ", "[0|sub|~] ", "more0 ", "[0|sub|~] ", "[0|sub|~] ", "[$?|$(echo sub)|~] ", ""}
	if strings.Join(r.prompts, "|") != strings.Join(wantPrompts, "|") {
		t.Errorf("prompts:\n%q\nwant\n%q", r.prompts, wantPrompts)
	}
}

func TestFc(t *testing.T) {
	s, _, out := newTestShell(t, []string{
		"echo a",
		"echo b",
		"fc -lnr -2147483648",
		"fc -l",
		"fc -l -2",
		"fc -l 1 2",
		"fc -l 2 1",
		"fc -l echo",
		"fc -s",
	})
	s.REPL(context.Background())
	// As bash prints them.
	want := "a\nb\n" +
		"\t echo b\n\t echo a\n" +
		"1\t echo a\n2\t echo b\n3\t fc -lnr -2147483648\n" +
		"3\t fc -lnr -2147483648\n4\t fc -l\n" +
		"1\t echo a\n2\t echo b\n" +
		"2\t echo b\n1\t echo a\n" +
		"2\t echo b\n3\t fc -lnr -2147483648\n4\t fc -l\n5\t fc -l -2\n6\t fc -l 1 2\n7\t fc -l 2 1\n" +
		"qsh: fc: -s: not supported; use history, Up and Ctrl-R\n"
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}

func TestBindBuiltin(t *testing.T) {
	s, _, out := newTestShell(t, []string{
		`bind -x '"\C-t": fzf-file-widget'`,
		`bind -m emacs-standard -x '"\C-r": "__fzf_history__"'`,
		`bind '"\C-x\C-e": kill-line' '"\eu": "echo hi\C-m"' 'Control-o: history-search-backward' 'Space: magic-space'`,
		`bind -m vi-insert '"\C-z": emacs-editing-mode'; bind 'set show-mode-in-prompt on'; echo quiet:$?`,
		`bind -X; bind -s`,
		`bind -q kill-line; bind -P | grep history-search-backward`,
		`bind '"\C-y": nosuch'; echo st:$?`,
		`bind -m nosuch '"\C-y": yank'; echo st:$?`,
		`bind '"\C-y": vi-subst'; echo st:$?; bind -q vi-subst; echo st:$?`,
		`bind -r '\C-x\C-e'; bind -q kill-line`,
		`bind -m vi-insert -p | grep -v 'not bound'; bind -v | grep show-mode-in-prompt`,
		`bind -V | grep blink-matching-paren`,
	})
	s.REPL(context.Background())
	want := "qsh: bind: show-mode-in-prompt on: qsh's line editor cannot do this: the prompt does not show the editing mode (kept for bind -v)\nquiet:0\n" +
		`"\C-r": "__fzf_history__"` + "\n" + `"\C-t": "fzf-file-widget"` + "\n" +
		`"\eu": "echo hi\C-m"` + "\n" +
		`kill-line can be invoked via "\C-k", "\C-x\C-e".` + "\n" +
		`history-search-backward can be found on "\C-o".` + "\n" +
		"qsh: bind: nosuch: unknown function name (bind -l lists them)\nst:1\n" +
		"qsh: bind: `nosuch': invalid keymap name\nst:1\n" +
		`qsh: bind: vi-subst: qsh's line editor does not do it; "\C-y" is left as it was` + "\nst:0\n" +
		"vi-subst is not bound to any keys.\nst:1\n" +
		`kill-line can be invoked via "\C-k".` + "\n" +
		`"\C-z": emacs-editing-mode` + "\n" +
		"set show-mode-in-prompt on\n" +
		"blink-matching-paren is set to `off'\n"
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}

// TestFuncNames: the functions qsh does are bash's, under bash's names.
func TestFuncNames(t *testing.T) {
	t.Parallel()
	if !slices.IsSorted(bashFuncs) {
		t.Error("bashFuncs is not sorted")
	}
	if !slices.IsSortedFunc(rlFuncs, func(a, b rlFunc) int { return strings.Compare(a.name, b.name) }) {
		t.Error("rlFuncs is not sorted")
	}
	for _, f := range rlFuncs {
		if !isBashFunc(f.name) {
			t.Errorf("%s is no bash readline function", f.name)
		}
	}
	for _, k := range emacsKeys {
		if _, ok := findFunc(k.fn); !ok {
			t.Errorf("the editor's key %q runs %s, which qsh does not know", k.seq, k.fn)
		}
	}
}

// TestDebugTrap checks the DEBUG trap against what bash 5.2 prints for
// the same script, but for BASH_COMMAND (qsh's is the command expanded)
// and an assignment alone (x=$(…)), which runs no trap in qsh.
func TestDebugTrap(t *testing.T) {
	s, _, out := newTestShell(t, nil)
	s.RunString(context.Background(), `f() { echo "in f $?"; echo f2; }
trap 'echo "T[$BASH_COMMAND] st=$?"; true' DEBUG
false
f
echo "after $?"
x=$(echo cs)
echo "x=$x"
trap -p DEBUG
g() { return 3; }
g; echo "g=$?"
set -e
false || echo or
trap - DEBUG
echo done
trap -p DEBUG
`)
	want := `T[false] st=0
T[f] st=1
in f 1
f2
T[echo "after $?"] st=0
after 0
T[x=$(echo cs)] st=0
T[echo "x=$x"] st=0
x=cs
T[trap -p DEBUG] st=0
trap -- 'echo "T[$BASH_COMMAND] st=$?"; true' DEBUG
T[g] st=0
T[echo "g=$?"] st=3
g=3
T[set -e] st=0
T[false] st=0
T[echo or] st=1
or
T[trap - DEBUG] st=0
done
`
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
}
