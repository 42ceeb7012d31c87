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
		// bash -x of Debian's programs (zramswap, yadm, pass): a for,
		// select or case head is traced as written, not as expanded.
		{"trace-for-case", `set -x; for i in 'a b' "c d" e\ f $(echo g) {1,2}; do :; done
set -- a; for i; do :; done; for i in; do :; done
case $(echo hi) in x) ;; esac; case "a b" in x) ;; esac
f() { for x in "$@"; do :; done; }; f 1 2`},
		{"trace-select", `set -x; select s in a "b c"; do echo "$s"; done <<<$'1\n2'; select s in; do :; done; echo $?`},
		// neofetch's shopt -s eval_unsafe_arith &>/dev/null: the trace is
		// written before the redirections are made.
		{"trace-before-redirect", `set -x; echo hi 2>/dev/null; shopt -s extglob &>/dev/null; f() { :; }; f 2>/dev/null
echo hi >/nonexistent/x; x=$(echo 1) y=2 true; exec 3>&-; exec; command echo 2>/dev/null`},
		{"select-empty", `false; select s in; do echo no; done <<<1; echo $?`},
	})
}
