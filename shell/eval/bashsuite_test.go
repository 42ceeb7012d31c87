package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
)

// Gaps found by running bash's own test suite (bash 5.2's tests/*.tests,
// see cmd/qsh's TestBashSuiteAgainstBash), fixed from bash's manual and
// checked here against bash with cases of our own.

// A syntax error inside a compound assignment's parentheses discards the
// line it was read on, status 1, and the shell reads on; any other syntax
// error ends a script (and posix mode ends it for this one too).
func TestCompoundAssignSyntaxErrorAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"line", "echo a\nx=(first & second)\necho b $?"},
		{"same-line", "x=(1 & 2); echo same\necho next $?"},
		{"before-on-line", "echo before; x=(1 & 2)\necho next"},
		{"declare", "declare -a y=(1 & 2)\necho next $?; declare -p y"},
		{"append", "y=(0); y+=(1 ; 2)\necho next; declare -p y"},
		{"function", "f() { x=(a ; b); }\necho next; declare -F f"},
		{"multi-line", "z=(a\nb & c)\necho next $?; declare -p z"},
		{"then-ok", "a=(1 2)\nb=(3 & 4)\nc=(5)\necho ${a[1]} ${c[0]}"},
		{"other-error-ends", "a=(1 & 2)\necho one\nif then\necho not-here"},
		{"last-status", "a=(1 & 2)"},
	})
}

// An assignment to an array element reads its subscript up to the
// matching ], blanks and all, when the word starts a command.
func TestSubscriptWithBlanksAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"assoc", `declare -A h; h[hello world]=flip; declare -p h; echo "${h[hello world]}"`},
		{"append", `declare -A h; h[a b]+=x; h[a b]+=y; declare -p h`},
		{"expanded-key", `declare -A h; k=zz; h[$k v]=3; declare -p h`},
		{"indexed-arith", `a[1 + 1]=two; a[ 0 ]=zero; declare -p a`},
		{"after-keyword", "declare -A h; if true; then h[x y]=1; fi; while h[p q]=2; do break; done; declare -p h"},
		{"prefix-of-command", `declare -A h; h[a b]=1 h[c d]=2; declare -p h`},
	})
}

// A parse error after a ${…} is no error of the expansion's: read again
// with the expansion set aside it is the same error, and the shell reports
// it rather than trying again for ever (array.tests hung on b[]=x after
// ${b[@]:2:3}; bash takes b[]= and fails when it runs it).
func TestParseErrorAfterExpansionEnds(t *testing.T) {
	out, errOut, status := runInProcess(t, "echo ${b[@]:2:3}\nb[]=bcde\necho not-here", t.TempDir())
	if out != "\n" || !strings.Contains(errOut, "syntax error") || status != 2 {
		t.Errorf("got stdout %q, stderr %q, status %d; want a blank line and a syntax error, status 2", out, errOut, status)
	}
}

// exit, return, break, continue and shift given more than one number
// abandon the rest of the line, status 1: a script reads on at its next
// line, a subshell ends, and a -c string ends whole.
func TestTooManyArgumentsAgainstBash(t *testing.T) {
	script := "set -- a b c\nshift 1 2; echo same $?\necho next $? $#\n" +
		"f() { shift 1 2; echo in-f; }; f\necho after-f $?\n" +
		"(shift 1 2; echo sub $?); echo after-sub $?\n" +
		"eval 'shift 1 2; echo in-eval'; echo same-line\necho after-eval $?\n" +
		"g() { return 1 2; }; g\necho after-return $?\n" +
		"for i in 1 2; do break 1 2; echo in-loop; done; echo same-loop\necho after-break $?\n" +
		"for i in 1 2; do continue 1 2; done\necho after-continue $?\n" +
		"exit 3 4; echo same-exit\necho after-exit $?\n"
	path := filepath.Join(t.TempDir(), "many.sh")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	runScriptBoth(t, path)
	checkAgainstBash(t, []bashCase{
		{"c-string", "set -- a; shift 1 2; echo same\necho not-here"},
		{"c-function", "f() { shift 1 2; echo in-f; }; f\necho not-here"},
		{"c-subshell", "(shift 1 2; echo sub); echo after $?"},
		{"c-exit", "exit 3 4\necho not-here"},
	})
}

// The same in a sourced file abandons the line that sourced it.
func TestTooManyArgumentsSourcedAgainstBash(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.sh")
	if err := os.WriteFile(src, []byte("shift 1 2; echo in1\necho in2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(dir, "main.sh")
	code := "set -- a b\nsource " + src + "; echo same\necho next $? $# \"${BASH_SOURCE[*]}\" $LINENO\n" +
		"f() { source " + src + "; echo in-f; }; f; echo same-f\necho next-f $LINENO\n"
	if err := os.WriteFile(main, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	runScriptBoth(t, main)
}

// A background command whose redirection waits for the shell (a FIFO the
// shell opens next) does not hold the shell up: bash's fork returns at
// once and the child waits in open. From test1.sub of bash's test.tests.
func TestBackgroundRedirectWaitsAgainstBash(t *testing.T) {
	needs.Tool(t, "mkfifo")
	checkAgainstBash(t, []bashCase{
		{"fifo", `mkfifo p; cat < p & exec 6>p; echo hi >&6; exec 6>&-; wait; echo done $?`},
		{"fifo-pipeline", `mkfifo p; tr a-z A-Z < p | cat & exec 6>p; echo hi >&6; exec 6>&-; wait; echo done $?`},
	})
}

// export and readonly assign as an assignment does: a readonly
// variable's error names no builtin; declare, typeset and local name
// themselves. Neither takes an array element.
func TestDeclReadonlyMessageAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"readonly", `readonly a=1; readonly a=2; echo st=$?; readonly a; echo st=$?`},
		{"export", `readonly a=1; export a=2; echo st=$?`},
		{"declare", `readonly a=1; declare a=2; echo st=$?; typeset -i a=3; echo st=$?; declare +r a; echo $?`},
		{"local", `readonly a=1; f() { local a=2; echo st=$?; }; f`},
		{"function", `f() { readonly b=1; readonly b=2; }; f; echo st=$?`},
		{"subscript", `a=(1); readonly a[-5]=2; echo st=$?; export a[-5]=3; echo st=$?; readonly a[5]; echo st=$?; readonly "a[1]=x"; declare -p a`},
	})
}

// An unclosed ( in [ … ] names the ] as what was found instead of ).
func TestTestUnclosedParenAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"bracket", `[ \( 1 = 2 ]; echo $?; [ ! \( a ]; echo $?; [ \( a = a \) ]; echo $?`},
		{"test", `test \( 1 = 2; echo $?; test \( a = b x; echo $?`},
		{"bracket-found", `[ '(' a = b x ]; echo $?`},
	})
}
