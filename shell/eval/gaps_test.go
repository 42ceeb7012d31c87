package eval

import "testing"

// Gaps found by running material nobody wrote for qsh (the spec corpus,
// Debian's bash programs), fixed from bash's manual and checked here
// against bash with cases of our own.

// (( and $(( are arithmetic only when their parentheses close together;
// otherwise bash reads two nested ( — zdiff's `((gzip …) …)` is one.
func TestNestedSubshellParensAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"cmd", `((echo a) ); echo $?`},
		{"cmd-redir", `((echo a; echo b >&2) 2>&1) | tr a-z A-Z`},
		{"cmdsub", `x=$((echo 1) ); echo "$x"; y="$((echo 2 || echo 3)2>/dev/null)"; echo "$y"`},
		{"or-list", `if ! ((test a = b) || (test c = d)); then echo neither; fi`},
		{"multi-line", "((echo 1\necho 2\n) )\necho 3"},
		{"backquote", "v=`((echo in) ; (echo two) ) | head -n 1`; echo $v"},
		{"function", `f() { ((echo a) ); }; declare -f f; f`},
		{"still-arith", `(( (1+2)*3 == 9 )); echo $?; echo $(( (2) ))`},
		{"arith-error", `(( 1 + )); echo $?`},
	})
}
