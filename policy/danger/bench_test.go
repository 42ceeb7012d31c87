package danger

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
)

// typical are one-line commands of the kind the assistant runs.
var typical = []string{
	"go test ./...",
	"git status --short",
	"ls -la src/",
	"grep -rn 'TODO' --include='*.go' .",
	"rm -rf node_modules && npm ci",
	"git log --oneline -20 | head",
	"docker compose up -d",
	"curl -s http://localhost:8080/health | jq .",
	"find . -name '*.go' -exec gofmt -l {} +",
	"sed -i 's/old/new/g' main.go",
}

// BenchmarkClassify reports the time to classify one typical command.
// cpu-ns/op is the process's CPU time per command, which other loads on
// the machine do not inflate as they do ns/op.
func BenchmarkClassify(b *testing.B) {
	b.ReportAllocs()
	start := cpuTime()
	for i := 0; b.Loop(); i++ {
		Classify(typical[i%len(typical)], testWS)
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the CPU time the process has used, in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkClassifyTable classifies the whole labelled table, one command
// per iteration, tricks included.
func BenchmarkClassifyTable(b *testing.B) {
	table := readTable(b)
	b.ReportAllocs()
	start := cpuTime()
	for i := 0; b.Loop(); i++ {
		Classify(table[i%len(table)].cmd, testWS)
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// nestings are shapes of deep nesting, n levels each.
var nestings = []struct {
	name string
	make func(n int) string
}{
	{"cmdsubst", func(n int) string { return "echo " + strings.Repeat("$(", n) + "ls" + strings.Repeat(")", n) }},
	{"quoted", func(n int) string { return "echo " + strings.Repeat(`"$(`, n) + "ls" + strings.Repeat(`)"`, n) }},
	{"backquote-subshell", func(n int) string { return strings.Repeat("(", n) + "ls" + strings.Repeat(")", n) }},
	{"group", func(n int) string { return strings.Repeat("{ ", n) + "ls" + strings.Repeat("; }", n) }},
	{"param", func(n int) string { return "echo " + strings.Repeat("${x:-", n) + "y" + strings.Repeat("}", n) }},
	{"arith", func(n int) string { return "echo $((" + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + "))" }},
	{"if", func(n int) string { return strings.Repeat("if true; then ", n) + "ls" + strings.Repeat("; fi", n) }},
	{"procsubst", func(n int) string { return "cat " + strings.Repeat("<(cat ", n) + "x" + strings.Repeat(")", n) }},
	{"pipeline", func(n int) string { return "ls" + strings.Repeat(" | cat", n) }},
	{"list", func(n int) string { return "ls" + strings.Repeat(" && ls", n) }},
}

// BenchmarkNested shows that judging is linear in nesting depth: the time
// per level stays flat up to the bounds (maxNesting statements inside one
// another, maxBrackets brackets), and beyond them the answer is "too
// deep", found by a scan that stops at the bound.
func BenchmarkNested(b *testing.B) {
	for _, s := range nestings {
		for _, n := range []int{100, 200, 400, 4000} {
			src := s.make(n)
			b.Run(fmt.Sprintf("%s/%d", s.name, n), func(b *testing.B) {
				start := cpuTime()
				for b.Loop() {
					Classify(src, testWS)
				}
				b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/float64(n), "cpu-ns/level")
			})
		}
	}
}
