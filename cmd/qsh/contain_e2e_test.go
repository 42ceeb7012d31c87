package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// Lines that made mvdan.cc/sh's interpreter panic and logged the user out
// (issue 21's crash hunt): at an interactive qsh each now does what it
// does in bash, and the session goes on. (A panic in qsh's own code costs
// the line, never the session: shell's TestPanicCostsTheLine and
// TestPanicInHooks.)
var crashLines = []struct{ line, probe string }{
	{"a=(1 2 3); ((a[1]++))", `echo "a=${a[*]}"`},
	{"set -- a b; shift -1", `echo "st=$? n=$#"`},
	{"declare -A m=(k v k2 v2)", `echo "m=${m[k]},${m[k2]}"`},
	{"a=(1 2 3); let a[1]++", `echo "a=${a[*]}"`},
	{"declare -A c; for w in a b a; do ((c[$w]++)); done", `echo "c=${c[a]},${c[b]}"`},
}

func TestCrashLinesAsBash(t *testing.T) {
	t.Parallel()
	needs.Tool(t, "bash")
	tm := startShell(t, "")
	for _, c := range crashLines {
		want, _ := exec.Command("bash", "--norc", "-c", c.line+"; "+c.probe).Output()
		w := strings.TrimSpace(string(want))
		if w == "" {
			t.Fatalf("bash printed nothing for %s", c.line)
		}
		if out := enter(tm, c.line+"; "+c.probe); !strings.Contains(out, w) {
			t.Errorf("%s: bash says %q, qsh:\n%s", c.line, w, shelltest.Tail(out))
		}
	}
	if st := exit(t, tm); st != 0 {
		t.Errorf("exit status %d", st)
	}
}
