package extglob

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// cases are patterns and strings with whether bash 5.2 matches them
// ([[ s == p ]] with extglob); TestBash checks them against bash itself.
var cases = []struct {
	pat, s string
	want   bool
}{
	{"abc", "abc", true},
	{"abc", "abd", false},
	{"a*", "abc", true},
	{"a*c", "abbbc", true},
	{"a*c", "abbbd", false},
	{"*", "", true},
	{"?", "", false},
	{"?", "é", true},
	{"a?c", "abc", true},
	{"[abc]x", "bx", true},
	{"[!abc]x", "bx", false},
	{"[^abc]x", "dx", true},
	{"[a-c]", "b", true},
	{"[a-c]", "d", false},
	{"[]a]", "]", true},
	{"[[:digit:]]*", "7up", true},
	{"[[:alpha:]]", "7", false},
	{"[[:space:]]", " ", true},
	{"[[:blank:]]*", "\tx", true},
	{"[abc", "[abc", true},
	{`\*`, "*", true},
	{`\*`, "a", false},
	{"@(a|b)", "b", true},
	{"@(a|b)", "ab", false},
	{"@(Linux|GNU/*)", "GNU/Hurd", true},
	{"?(a)b", "b", true},
	{"?(a)b", "ab", true},
	{"?(a)b", "aab", false},
	{"*(ab)", "", true},
	{"*(ab)", "abab", true},
	{"*(ab)", "aba", false},
	{"+(ab)", "", false},
	{"+(ab|c)", "abcab", true},
	{"+([:=])", "::=", true},
	{"+([:=])", "insta", false},
	{"!(foo)", "bar", true},
	{"!(foo)", "foo", false},
	{"!(foo)", "", true},
	{"-!(-*)[hvo]", "-h", true},
	{"-!(-*)[hvo]", "-xh", true},
	{"-!(-*)[hvo]", "--h", false},
	{"-!(-*)[hvo]", "--help", false},
	{"*.!(py)", "a.sh", true},
	{"*.!(py)", "a.py", false},
	{"*!(py)", "a.py", true}, // * takes "a.py", !(py) the empty rest
	{"!(*.py)", "a.py", false},
	{"!(*.py)", "a.sh", true},
	{"@(?([0-9])<|?([0-9&])>?(>)|>&)", "2>", true},
	{"@(?([0-9])<|?([0-9&])>?(>)|>&)", ">>", true},
	{"@(?([0-9])<|?([0-9&])>?(>)|>&)", "x>", false},
	{"!(a|b)c", "cc", true},
	{"!(a|b)c", "ac", false},
	{"a!(b)*", "abc", true},
	{"x!(y)!(z)", "xyz", true},
	{"*@(.tar|.gz)", "f.tar.gz", true},
	{"|", "|", true},
	{"a)", "a)", true},
}

func TestMatch(t *testing.T) {
	for _, c := range cases {
		if got := Match(c.pat, c.s); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.pat, c.s, got, c.want)
		}
	}
}

// TestBash checks the table against bash itself.
func TestBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	var script strings.Builder
	script.WriteString("shopt -s extglob\n")
	for i, c := range cases {
		fmt.Fprintf(&script, "p=%s s=%s; [[ $s == $p ]] && echo %d:1 || echo %d:0\n", shq(c.pat), shq(c.s), i, i)
	}
	out, err := exec.Command(bash, "-c", script.String()).Output()
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Fields(string(out)) {
		want := fmt.Sprintf("%d:%d", i, map[bool]int{false: 0, true: 1}[cases[i].want])
		if line != want {
			t.Errorf("bash matches %q against %q: %s, table says %s", cases[i].s, cases[i].pat, line, want)
		}
	}
}

func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func TestQuoteMeta(t *testing.T) {
	for _, s := range []string{"a*b?c[d]", "x|y(z)!@+", `back\slash`, "plain"} {
		if !Match(QuoteMeta(s), s) || Match(QuoteMeta(s), s+"x") {
			t.Errorf("QuoteMeta(%q) = %q does not match only itself", s, QuoteMeta(s))
		}
	}
}

func FuzzMatch(f *testing.F) {
	for _, c := range cases {
		f.Add(c.pat, c.s)
	}
	f.Fuzz(func(t *testing.T, pat, s string) {
		if len(pat) > 40 || len(s) > 40 {
			return
		}
		Match(pat, s) // must not panic or hang
	})
}
