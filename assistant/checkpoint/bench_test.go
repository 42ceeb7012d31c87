package checkpoint

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// BenchmarkCheckpoint10k is the cost of the checkpoint before a run in a
// workspace of 10,000 files, outside git and in a git work tree: "next",
// when 10 files changed since the last one (the issue asks ≤ 20 ms), and
// "first", a workspace's first checkpoint, which keeps every file; "run",
// the two scans of a run that changes 10 files, and its record.
// cpu-ms/op is the CPU time of the process and of the git it runs, which
// other loads on the machine inflate less than ns/op.
func BenchmarkCheckpoint10k(b *testing.B) {
	for _, git := range []bool{false, true} {
		dir := b.TempDir()
		name := func(i int) string {
			return filepath.Join(dir, fmt.Sprintf("d%02d/e%02d/f%04d.txt", i%50, i%7, i))
		}
		for i := range 10_000 {
			os.MkdirAll(filepath.Dir(name(i)), 0o755)
			os.WriteFile(name(i), []byte(fmt.Sprintf("file %d\n%0200d\n", i, i)), 0o644)
		}
		// Old enough not to be racy.
		later := func() time.Time { return time.Now().Add(time.Minute) }
		kind := "plain"
		if git {
			kind = "git"
			cmdSh(b, dir, "git init -q && git config gc.auto 0 && git add -A && git -c user.name=t -c user.email=t@e commit -qm one")
		}
		b.Run(kind+"/next", func(b *testing.B) {
			s, err := Open(b.TempDir(), dir, DefaultLimits)
			if err != nil {
				b.Fatal(err)
			}
			s.now = later
			if _, err := s.Begin("first"); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var cpu time.Duration
			b.ResetTimer()
			for n := 0; n < b.N; n++ {
				b.StopTimer()
				for i := range 10 {
					os.WriteFile(name(i*997), []byte(fmt.Sprintf("changed %d %d\n", n, i)), 0o644)
				}
				c := cpuTime()
				b.StartTimer()
				if _, err := s.Begin("x"); err != nil {
					b.Fatal(err)
				}
				cpu += cpuTime() - c
			}
			b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(b.N), "cpu-ms/op")
		})
		b.Run(kind+"/run", func(b *testing.B) {
			// A whole run: Begin, the run changes 10 files, Commit (which
			// writes the record and prunes the store).
			s, err := Open(b.TempDir(), dir, DefaultLimits)
			if err != nil {
				b.Fatal(err)
			}
			s.now = later
			if _, err := s.Begin("first"); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var cpu time.Duration
			b.ResetTimer()
			for n := 0; n < b.N; n++ {
				c := cpuTime()
				p, err := s.Begin("x")
				if err != nil {
					b.Fatal(err)
				}
				cpu += cpuTime() - c
				b.StopTimer()
				for i := range 10 {
					os.WriteFile(name(i*997+1), []byte(fmt.Sprintf("run %d %d\n", time.Now().UnixNano(), i)), 0o644)
				}
				b.StartTimer()
				c = cpuTime()
				if cp, err := p.Commit(); err != nil || cp == nil {
					b.Fatal(cp, err)
				}
				cpu += cpuTime() - c
			}
			b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(b.N), "cpu-ms/op")
		})
		b.Run(kind+"/first", func(b *testing.B) {
			b.ReportAllocs()
			var cpu time.Duration
			for n := 0; n < b.N; n++ {
				b.StopTimer()
				base, err := os.MkdirTemp(b.TempDir(), "store")
				if err != nil {
					b.Fatal(err)
				}
				s, err := Open(base, dir, DefaultLimits)
				if err != nil {
					b.Fatal(err)
				}
				s.now = later
				c := cpuTime()
				b.StartTimer()
				if _, err := s.Begin("first"); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				cpu += cpuTime() - c
				os.RemoveAll(base)
				b.StartTimer()
			}
			b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(b.N), "cpu-ms/op")
		})
	}
}

// cpuTime is the CPU time of the process and of its waited-for children.
func cpuTime() time.Duration {
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	return time.Duration(self.Utime.Nano() + self.Stime.Nano() + kids.Utime.Nano() + kids.Stime.Nano())
}
