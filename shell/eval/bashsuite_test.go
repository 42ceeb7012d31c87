package eval

import "testing"

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
