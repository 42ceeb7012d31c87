package eval

import "testing"

// What bats-core (1.13, run with qsh as its bash) showed qsh doing
// unlike bash: cmd/qsh's TestBatsSuite runs bats itself.
func TestBatsGapsAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		// bats keeps empty arrays safe under set -u with "${a[@]+"${a[@]}"}":
		// an unset "$@"-like operand of + gives no word, not an empty one.
		{"alt-empty-array-no-word", `a=(); f(){ echo $#; }; f "${a[@]+x}"; f "${a[@]:+x}"; set --; f "${@+x}"; f "${a[@]+"${a[@]}"}"; x=("${a[@]+${a[@]}}"); declare -p x`},
		{"alt-empty-array-words", `a=(); b=(1); f(){ echo $#; }; f "${a[@]-}"; f "${a[*]+x}"; f "${b[@]+}"; f "${a[@]+x}y"; f "${a[@]:-}"; u=; f "${u+}"; y="${a[@]+x}"; echo "[$y]"`},
	})
}
