package eval

import (
	"os"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// walk must visit what syntax.Walk visits, comments aside, in its order.
func TestWalkLikeSyntaxWalk(t *testing.T) {
	srcs := []string{
		`a=1 b[2]=x c=(1 [3]=y); d=1 cmd "$x" ${y:-z} ${#a[@]} ${v/p/r} ${s:1:2} $((1+2*x)) <<EOF >f 2>&1
body $(inner)
EOF`,
		`if a; then b; elif c; then d; else e; fi; while x; do y; done; until z; do :; done`,
		`for i in a b; do echo $i; done; for ((i=0; i<3; i++)); do :; done; select s in 1 2; do break; done`,
		`f() { local x=$(g "$(h)" <(p) >(q)); declare -a y=(1); let a=1 b++; } && complete -F f g`,
		`case $x in a|b) [[ ! -f x && $y =~ ^z ]];; @(c|d)) (sub; shell) | { grp; } ;; esac # comment`,
		`time { a; } ; coproc C { b; }; ! c || d & ((x = y ? 1 : 2)); echo ${!p} ${x@Q} "$'a'"`,
		"function g { echo 'q' \"d$v${w}\" `bq`; } # trailing",
	}
	if b, err := os.ReadFile("/usr/share/bash-completion/bash_completion"); err == nil {
		srcs = append(srcs, string(b))
	}
	for _, src := range srcs {
		f, err := syntax.NewParser(syntax.KeepComments(true)).Parse(strings.NewReader(src), "")
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		// Whole, and stopping where the evaluator's walks stop: at
		// nodes that hold no statement.
		for _, deeper := range []func(syntax.Node) bool{
			func(syntax.Node) bool { return true },
			func(n syntax.Node) bool { return !holdsNoStmt(n) },
		} {
			var want, got []syntax.Node
			syntax.Walk(f, func(n syntax.Node) bool {
				if _, ok := n.(*syntax.Comment); ok || n == nil {
					return true
				}
				want = append(want, n)
				return deeper(n)
			})
			walk(f, func(n syntax.Node) bool {
				got = append(got, n)
				return deeper(n)
			})
			if !slices.Equal(got, want) {
				t.Errorf("%.60q: walk visited %d nodes, syntax.Walk %d", src, len(got), len(want))
			}
		}
	}
}
