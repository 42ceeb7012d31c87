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

// The ERR trap is not inherited by functions, subshells and command
// substitutions unless errtrace (set -E) is on; a trap a function sets
// stays after it returns.
func TestErrTrapInheritanceAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"function-hidden", `trap 'echo err' ERR; f() { false; trap -p ERR; echo in-f; }; f; trap -p ERR`},
		{"function-status", `trap 'echo err' ERR; f() { false; }; f; echo $?`},
		{"function-own-trap", `trap 'echo outer' ERR; f() { trap 'echo inner' ERR; false; }; f; false; trap -p ERR`},
		{"errtrace-function", `set -E; trap 'echo err $LINENO' ERR; f() { false; true; }; f`},
		{"subshell", `trap 'echo err' ERR; (false; echo sub); (trap -p ERR; false)`},
		{"errtrace-subshell", `set -E; trap 'echo err' ERR; (false; echo sub); (false)`},
		{"errtrace-async", `set -E; trap 'echo err' ERR; { false; echo async; } & wait`},
		{"errtrace-cmdsubst", `set -E; trap 'echo err' ERR; x=$(false; echo y); echo "[$x]"`},
		{"functrace-subshell", `set -T; trap 'echo dbg' DEBUG; (:); trap - DEBUG; set +T; trap 'echo dbg' DEBUG; (:)`},
	})
}
