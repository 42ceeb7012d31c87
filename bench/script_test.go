package bench

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/internal/needs"
)

// The evaluator's speed on work scripts do, each program run by qsh, gosh
// and bash in the same benchmark, so that their times read as ratios: an
// arithmetic loop, string and array work, and function calls; and the
// two figures issue 21 holds qsh to beside bash: a 50,000-iteration
// arithmetic loop and sourcing bash-completion (which gosh cannot run).
var scripts = []struct {
	name, code string
	needs      string // a file the script reads; skipped without it
	noGosh     bool
}{
	{"arith-loop", `for ((i = 0; i < 20000; i++)); do ((s += i % 7)); done; echo $s`, "", false},
	{"arith-50k", `for ((i = 0; i < 50000; i++)); do ((s += i % 7)); done; echo $s`, "", false},
	{"bash-completion", `. /usr/share/bash-completion/bash_completion && echo ok`,
		"/usr/share/bash-completion/bash_completion", true},
	{"strings", `s=; for i in {1..3000}; do s+="${i}x"; done; a=(${s//x/ }); echo ${#a[@]} ${s:10:5}`, "", false},
	{"functions", `f() { local x=$1; echo $((x + 1)); }; for i in {1..2000}; do y=$(f $i) || break; done; g() { return $(( $1 % 3 )); }; for i in {1..5000}; do g $i; done; echo $y`, "", false},
}

func BenchmarkScript(b *testing.B) {
	for _, sc := range scripts {
		b.Run(sc.name, func(b *testing.B) {
			if sc.needs != "" {
				if _, err := os.Stat(sc.needs); err != nil {
					needs.Missing(b, "no %s", sc.needs)
				}
			}
			for _, name := range []string{"qsh", "gosh", "bash"} {
				if name == "gosh" && sc.noGosh {
					continue
				}
				b.Run(name, func(b *testing.B) {
					sh := shell(b, name)
					// CPU time too: on a shared machine the wall clock
					// measures the neighbours as much as the shell.
					var cpu time.Duration
					for b.Loop() {
						cmd := exec.Command(sh, "-c", sc.code)
						if out, err := cmd.CombinedOutput(); err != nil {
							b.Fatalf("%v\n%s", err, out)
						}
						cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
					}
					b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
				})
			}
		})
	}
}

// BenchmarkScriptRatio runs each script with qsh and bash in turn, so that
// both see the same machine load, and reports qsh's CPU time as a multiple
// of bash's: the figure issue 21's bars are written in (`-c true` is the
// start-up both pay on every script).
func BenchmarkScriptRatio(b *testing.B) {
	all := append([]struct {
		name, code string
		needs      string
		noGosh     bool
	}{{name: "true", code: "true"}}, scripts...)
	for _, sc := range all {
		b.Run(sc.name, func(b *testing.B) {
			if sc.needs != "" {
				if _, err := os.Stat(sc.needs); err != nil {
					b.Skipf("no %s", sc.needs)
				}
			}
			qsh, bash := shell(b, "qsh"), shell(b, "bash")
			run := func(sh string) time.Duration {
				cmd := exec.Command(sh, "-c", sc.code)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%s: %v\n%s", sh, err, out)
				}
				return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			var tq, tb time.Duration
			for b.Loop() {
				tq += run(qsh)
				tb += run(bash)
			}
			n := float64(b.N)
			b.ReportMetric(float64(tq.Microseconds())/n, "qsh-cpu-µs/op")
			b.ReportMetric(float64(tb.Microseconds())/n, "bash-cpu-µs/op")
			b.ReportMetric(float64(tq)/float64(tb), "qsh/bash")
		})
	}
}
