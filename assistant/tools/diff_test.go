package tools

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	for _, tc := range []struct{ old, new, want string }{
		{"a\n", "a\n", ""},
		{"", "x\ny\n", "--- a/f\n+++ b/f\n@@ -0,0 +1,2 @@\n+x\n+y\n"},
		{"x\n", "", "--- a/f\n+++ b/f\n@@ -1 +0,0 @@\n-x\n"},
		{"a\nb\nc\n", "a\nB\nc\n", "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"a\nb", "a\nb\n", "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		// Two changes far apart make two hunks.
		{
			"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n",
			"one\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\ntwelve\n",
			"--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+twelve\n",
		},
	} {
		if got := unifiedDiff("f", tc.old, tc.new); got != tc.want {
			t.Errorf("diff %q → %q:\n%s\nwant\n%s", tc.old, tc.new, got, tc.want)
		}
	}
}

// TestDiffApplies: applying the diff to the old text gives the new one.
func TestDiffApplies(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	gen := func() string {
		var b strings.Builder
		for i := rng.Intn(30); i > 0; i-- {
			b.WriteString(strconv.Itoa(rng.Intn(6)) + "\n")
		}
		return b.String()
	}
	for i := 0; i < 300; i++ {
		old, new := gen(), gen()
		d := unifiedDiff("f", old, new)
		if got := applyDiff(t, old, d); got != new {
			t.Fatalf("old %q new %q diff\n%s\napplied: %q", old, new, d, got)
		}
	}
}

// applyDiff applies a unified diff of whole lines (no "\ No newline").
func applyDiff(t *testing.T, old, d string) string {
	if d == "" {
		return old
	}
	a := splitLines(old)
	var out []string
	ai := 0
	for _, line := range splitLines(d)[2:] {
		switch line[0] {
		case '@':
			var as, al, bs, bl int
			hdr := strings.Fields(line)
			parse := func(s string, start, n *int) {
				p := strings.SplitN(s[1:], ",", 2)
				*start, _ = strconv.Atoi(p[0])
				*n = 1
				if len(p) == 2 {
					*n, _ = strconv.Atoi(p[1])
				}
			}
			parse(hdr[1], &as, &al)
			parse(hdr[2], &bs, &bl)
			if al == 0 {
				as++
			}
			for ai < as-1 {
				out = append(out, a[ai])
				ai++
			}
		case ' ':
			if a[ai] != line[1:] {
				t.Fatalf("context %q != %q", line[1:], a[ai])
			}
			out = append(out, a[ai])
			ai++
		case '-':
			if a[ai] != line[1:] {
				t.Fatalf("removed %q != %q", line[1:], a[ai])
			}
			ai++
		case '+':
			out = append(out, line[1:])
		}
	}
	out = append(out, a[ai:]...)
	return strings.Join(out, "")
}

func TestGitignore(t *testing.T) {
	dir := workspace(t, map[string]string{
		".gitignore":     "# comment\n*.log\n!keep.log\nbuild/\n/root-only.txt\ndocs/*.tmp\n**/gen/**\n",
		"sub/.gitignore": "local.txt\n",
	})
	var g gitignore
	g.load(dir, "")
	g.load(dir, "sub")
	for _, tc := range []struct {
		path string
		dir  bool
		want bool
	}{
		{"a.log", false, true},
		{"x/y/a.log", false, true},
		{"keep.log", false, false},
		{"build", true, true},
		{"x/build", true, true},
		{"build", false, false}, // a file called build is not the dir
		{"root-only.txt", false, true},
		{"x/root-only.txt", false, false},
		{"docs/a.tmp", false, true},
		{"docs/x/a.tmp", false, false},
		{"a/gen/b.go", false, true},
		{"sub/local.txt", false, true},
		{"local.txt", false, false},
		{"main.go", false, false},
	} {
		if got := g.ignored(tc.path, tc.dir); got != tc.want {
			t.Errorf("ignored(%q, dir=%v) = %v, want %v", tc.path, tc.dir, got, tc.want)
		}
	}
}

func TestMatchGlob(t *testing.T) {
	for _, tc := range []struct {
		pat, path string
		want      bool
	}{
		{"*.go", "a/b/c.go", true},
		{"*.go", "c.md", false},
		{"cmd/**/*.go", "cmd/a/b/c.go", true},
		{"cmd/**/*.go", "cmd/c.go", true},
		{"cmd/*.go", "cmd/a/c.go", false},
		{"./cmd/*.go", "cmd/c.go", true},
	} {
		if got := matchGlob(tc.pat, tc.path); got != tc.want {
			t.Errorf("matchGlob(%q, %q) = %v", tc.pat, tc.path, got)
		}
	}
}
