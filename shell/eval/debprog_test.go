package eval

import "testing"

// Differences from bash found by running Debian's bash programs with qsh
// standing in for bash (see TestDebianProgramsAgainstBash), each as the
// smallest case that shows it.
func TestDebianProgramCasesAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		// neofetch: SHELL unset in the environment is the user's login
		// shell, set but not exported.
		{"shell-unset", `echo "[$SHELL]"; declare -p SHELL; env | grep -c '^SHELL='`},
		// pass mv: && binds tighter than || in [[ ]].
		{"cond-and-or", `[[ "" && x || c ]]; echo $?; [[ -f /nonex && a == */ || ! -f /nonex ]]; echo $?
! [[ -f /nonex && -d /nonex && a == */ || ! -f /nonex ]]; echo $?
[[ a || "" && "" ]]; echo $?; [[ "" && x || "" && y || z ]]; echo $?; [[ ! "" && ( "" || x ) && ! x || y ]]; echo $?`},
		{"cond-and-or-trace", `set -x; [[ "" && x || c ]]; [[ a && "" || ! b ]]; [[ ( a || b ) && ! c ]] || echo no`},
		// git-brv: an associative array declared empty, copied for a
		// process substitution, then set.
		{"assoc-empty-copied", `declare -A a h; : < <(:); a[k]=1; b=main; IFS=/ read -r 'h[$b]' < <(echo 1/2); declare -p a h`},
		{"cond-and-or-print", `f() { [[ a && ! b || c && ( d || e ) ]]; }; declare -f f`},
	})
}
