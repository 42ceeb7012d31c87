package eval

import "testing"

// No value holds a NUL byte: bash cuts $'…' at one and drops them from a
// command substitution's output, with a warning.
func TestNulBytesAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"ansi-c", `printf '%s|' $'a\0b'c x; echo`},
		{"ansi-c-length", `s=$'\0'; echo ${#s}; test -n $'\0'; echo $?`},
		{"subst", `x=$(printf 'a\0b'); echo ${#x} "$x"`},
		{"subst-only-nul", `x=$(printf '\0'); echo "[${#x}]"`},
		{"catfile", `printf 'a\0b\n' > f; x=$(< f); echo "$x"`},
		{"printf-format", `printf $'x\0z' | od -An -c`},
	})
}

// Errors bash reports and goes on after, or ends a script with.
func TestErrorsAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"shift-extra", `set -- a b c; shift 1 extra; echo not reached`},
		{"shift-extra-func", `f(){ shift 1 2; echo in; }; f; echo after`},
		{"continue-extra", `for i in a; do continue 1 x; done; echo not reached`},
		{"break-extra", `for i in a; do break 1 x; done; echo not reached`},
		{"return-extra", `f(){ return 1 2; }; f; echo not reached`},
		{"exit-extra", `trap 'echo trap $?' EXIT; exit 3 4; echo not reached`},
		{"ps4-bad-subst", `PS4='+${x'; set -x; echo one; echo status=$?`},
		{"ps4-arith", `PS4='+$(( 1 / 0 )) '; set -x; echo one; echo status=$?`},
	})
}

// set -x repeats PS4's first character for command substitutions only.
func TestXtraceDepthAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"depth", `set -x; (echo a); x=$(echo b); f(){ echo f; }; f; (echo $(echo $(echo d)))`},
	})
}
