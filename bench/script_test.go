package bench

import (
	"os/exec"
	"testing"
)

// The evaluator's speed on work scripts do, each program run by qsh, gosh
// and bash in the same benchmark, so that their times read as ratios: an
// arithmetic loop, string and array work, and function calls.
var scripts = []struct{ name, code string }{
	{"arith-loop", `for ((i = 0; i < 20000; i++)); do ((s += i % 7)); done; echo $s`},
	{"strings", `s=; for i in {1..3000}; do s+="${i}x"; done; a=(${s//x/ }); echo ${#a[@]} ${s:10:5}`},
	{"functions", `f() { local x=$1; echo $((x + 1)); }; for i in {1..2000}; do y=$(f $i) || break; done; g() { return $(( $1 % 3 )); }; for i in {1..5000}; do g $i; done; echo $y`},
}

func BenchmarkScript(b *testing.B) {
	for _, sc := range scripts {
		b.Run(sc.name, func(b *testing.B) {
			for _, name := range []string{"qsh", "gosh", "bash"} {
				b.Run(name, func(b *testing.B) {
					sh := shell(b, name)
					for b.Loop() {
						if out, err := exec.Command(sh, "-c", sc.code).CombinedOutput(); err != nil {
							b.Fatalf("%v\n%s", err, out)
						}
					}
				})
			}
		})
	}
}
