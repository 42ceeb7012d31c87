package bench

import (
	"os/exec"
	"testing"
	"time"
)

// BenchmarkStartup runs `SHELL -c true` for qsh, gosh and bash: the cost of
// starting a shell for one command, as scripts, ssh and make pay it.
func BenchmarkStartup(b *testing.B) {
	for _, name := range []string{"qsh", "gosh", "bash"} {
		b.Run(name, func(b *testing.B) {
			sh := shell(b, name)
			for b.Loop() {
				if err := exec.Command(sh, "-c", "true").Run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkStartupRatio alternates qsh and gosh so both see the same machine
// load, and reports qsh's time as a multiple of gosh's (the bar is 1.25).
func BenchmarkStartupRatio(b *testing.B) {
	qsh, gosh := shell(b, "qsh"), shell(b, "gosh")
	var tq, tg time.Duration
	run := func(sh string) time.Duration {
		t0 := time.Now()
		if err := exec.Command(sh, "-c", "true").Run(); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	for b.Loop() {
		tq += run(qsh)
		tg += run(gosh)
	}
	n := float64(b.N)
	b.ReportMetric(float64(tq.Microseconds())/n, "qsh-µs/op")
	b.ReportMetric(float64(tg.Microseconds())/n, "gosh-µs/op")
	b.ReportMetric(float64(tq)/float64(tg), "qsh/gosh")
}
