package eval

import "testing"

// Differences docs/COMPATIBILITY.md once listed, each now as bash does.
func TestCompatAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"exit-in-while-condition", `while false || exit; do :; done; echo not reached`},
		{"return-in-until-condition", `f() { until false || return; do :; done; }; f; echo $?; while break; do :; done; echo $?`},
		{"nounset-declared-array-length", `set -u; declare -a a; echo ${#a[@]}; echo not reached`},
		{"nounset-declared-assoc-length", `set -u; declare -A m; echo ${#m[*]}; echo not reached`},
		{"nounset-empty-array-length", `set -u; a=(); declare -A m=(); b=(1); unset 'b[0]'; echo ${#a[@]} ${#m[@]} ${#b[@]}`},
		{"nounset-missing-array-length", `set -u; echo ${#nosuch[@]}; echo not reached`},
		{"cdpath-root", `cd /; CDPATH=/; cd tmp; pwd; CDPATH=/usr/; cd lib; pwd`},
		{"posix-sets-posixly-correct", `set -o posix; echo ${POSIXLY_CORRECT-unset}; set +o posix; echo ${POSIXLY_CORRECT-unset}`},
		{"bad-subscript-assignment", `a[-1]=x; echo not reached`},
		{"bad-subscript-in-function", `f() { a=(1); a[-5]=x; echo not reached; }; f; echo not reached`},
		{"bad-subscript-declare", `declare a[-1]=x 2>/dev/null; echo after $?; a=(1); read 'a[-3]' <<< v; echo after $?`},
	})
}
