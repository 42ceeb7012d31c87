package pattern

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pathological are patterns that take a backtracking matcher exponential
// time (bash's included) on the subjects made by their functions.
var pathological = []struct {
	name, pat string
	subject   func(n int) string
}{
	{"nested stars", "*(*(a))b", func(n int) string { return strings.Repeat("a", n) }},
	{"many stars", strings.Repeat("*a", 12) + "b", func(n int) string { return strings.Repeat("a", n) }},
	{"plus of plus", "+(+(a|aa))c", func(n int) string { return strings.Repeat("a", n) }},
	{"negation", "*!(*a)b", func(n int) string { return strings.Repeat("ab", n/2) + "x" }},
	{"nested negation", "!(!(*a*)b)*", func(n int) string { return strings.Repeat("ab", n/2) }},
	{"alternatives", "*(a|b|ab|ba)c", func(n int) string { return strings.Repeat("ab", n/2) }},
}

// TestPathological checks that the work grows no faster than the
// algorithm promises: doubling the subject doubles the work for patterns
// without !(…) and at most quadruples it with them. Work is counted in
// instructions visited, not time, so the machine's load does not matter.
func TestPathological(t *testing.T) {
	t.Parallel()
	for _, c := range pathological {
		p, err := Compile(c.pat, ExtGlob)
		if err != nil {
			t.Fatal(err)
		}
		work := func(n int) int {
			s := c.subject(n)
			total := 0
			for _, g := range []goal{goalFull, goalFirst, goalLast, goalFind} {
				for _, rev := range []bool{false, true} { // prefixes, suffixes
					m := p.machineFlags(s, false, rev)
					m.run(0, m.prog.start, 0, m.t.n, g)
					total += m.steps
				}
			}
			return total
		}
		small, large := work(500), work(1000)
		limit := 2.5
		if strings.Contains(c.pat, "!(") {
			limit = 4.5
		}
		if ratio := float64(large) / float64(small); ratio > limit {
			t.Errorf("%s (%s): work grows %.1f× when the subject doubles (%d → %d), more than %.1f×",
				c.name, c.pat, ratio, small, large, limit)
		}
	}
}

func BenchmarkMatch(b *testing.B) {
	for _, c := range []struct {
		name, pat, s string
		mode         Mode
	}{
		{"literal", "main.go", "main.go", ExtGlob},
		{"suffix", "*.go", "internal_test.go", ExtGlob},
		{"bracket", "[[:alpha:]]*[0-9]", "file1234567890", ExtGlob},
		{"extglob", "!(*.o|*.a)", "library.so.1", ExtGlob},
		{"nocase", "*.JPG", "holiday.jpg", NoCase},
		{"utf8", "*é?", "déjà vu été", 0},
	} {
		b.Run(c.name, func(b *testing.B) {
			p, err := Compile(c.pat, c.mode)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				p.Match(c.s)
			}
		})
	}
	for _, c := range pathological {
		b.Run("pathological/"+c.name, func(b *testing.B) {
			p, err := Compile(c.pat, ExtGlob)
			if err != nil {
				b.Fatal(err)
			}
			s := c.subject(1000)
			for b.Loop() {
				p.Match(s)
			}
		})
	}
}

func BenchmarkReplace(b *testing.B) {
	s := strings.Repeat("the quick brown fox jumps over the lazy dog\n", 2500) // 110 KB
	for _, pat := range []string{"o", "[aeiou]", "?(\n)", "@(fox|dog)"} {
		b.Run(pat, func(b *testing.B) {
			p, err := Compile(pat, ExtGlob)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				p.Replace(s, true, func(string) string { return "_" })
			}
		})
	}
}

func BenchmarkGlob(b *testing.B) {
	dir := b.TempDir()
	for i := range 20 {
		sub := filepath.Join(dir, fmt.Sprintf("pkg%02d", i), "internal")
		if err := os.MkdirAll(sub, 0o755); err != nil {
			b.Fatal(err)
		}
		for j := range 50 {
			for _, d := range []string{filepath.Dir(sub), sub} {
				if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("file%02d.go", j)), nil, 0o644); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	for _, c := range []struct {
		pat string
		opt GlobOptions
	}{
		{"*/*.go", GlobOptions{}},
		{"pkg1?/internal/file[0-4]*.go", GlobOptions{}},
		{"**/*.go", GlobOptions{GlobStar: true}},
		{"*/!(*_test).go", GlobOptions{ExtGlob: true}},
	} {
		b.Run(c.pat, func(b *testing.B) {
			for b.Loop() {
				if _, err := Glob(context.Background(), dir, c.pat, c.opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
