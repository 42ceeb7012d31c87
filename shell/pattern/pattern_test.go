package pattern

import (
	"strings"
	"testing"
)

// matchTable holds cases whose answers were taken from bash 5.2; they are
// checked here, and again against bash itself by TestMatchAgainstBash.
var matchTable = []struct {
	pat, s string
	mode   Mode
	want   bool
}{
	// plain wildcards
	{"", "", 0, true},
	{"", "a", 0, false},
	{"a*b", "axxb", 0, true},
	{"a*b", "axxc", 0, false},
	{"*", "", 0, true},
	{"?", "", 0, false},
	{"??", "é", 0, false},
	{"?", "é", 0, true},
	{"a**b", "ab", 0, true},
	{`\*`, "*", 0, true},
	{`\*`, `\*`, 0, false},
	{`\a`, "a", 0, true},
	{`\\`, `\`, 0, true},
	{`a\`, `a\`, 0, true}, // a backslash at the end is itself
	{`a\`, "a", 0, false},
	// bracket expressions
	{"[]a]", "]", 0, true},
	{"[]a]", "a", 0, true},
	{"[!]a]", "b", 0, true},
	{"[!]a]", "]", 0, false},
	{"[^a]", "b", 0, true},
	{"[^a]", "a", 0, false},
	{"[a-]", "-", 0, true},
	{"[-a]", "-", 0, true},
	{"[!-a]", "-", 0, false},
	{"[]-a]", "b", 0, false},
	{"[]-a]", "_", 0, true},
	{"[z-a]", "z", 0, false},
	{"[z-a]", "a", 0, false},
	{"[a-c-e]", "-", 0, true},
	{"[a-c-e]", "d", 0, false},
	{"[α-ω]", "β", 0, true},
	{"[A-z]", "_", 0, true},
	{"[a-z]", "é", 0, false},
	{"[[:alpha:]]", "a", 0, true},
	{"[[:alpha:]]", "é", 0, true},
	{"[[:alpha:][:digit:]]", "5", 0, true},
	{"[[:alpha:]-z]", "-", 0, true},
	{"[[:foo:]]", "a", 0, false},
	{"[[:foo:]]", "[[:foo:]]", 0, false},
	{"[[:ALPHA:]]", "a", 0, false},
	{"[[:alpha:]", "[a", 0, true}, // unclosed: a literal [, then [:alpha:] reads a, l, p, h, :
	{"[[:alpha:]", "a", 0, false},
	{"[[:alpha]]", "a]", 0, true},
	{"[[:alpha]]", "a", 0, false},
	{"[a[:b]", "a", 0, true}, // an unclosed [: leaves its [ out
	{"[a[:b]", ":", 0, true},
	{"[a[:b]", "[", 0, false},
	{"[[:]", ":", 0, true},
	{"[[:]", "[", 0, false},
	{"[a[=b]", "=", 0, true}, // an unclosed [= keeps its [
	{"[a[=b]", "[", 0, true},
	{"[[=]", "[", 0, true},
	{"[[=a=]]", "a", 0, true},
	{"[[=a=]b]", "b", 0, true},
	{"[[=e=]]", "é", 0, false},
	{"[[=é=]]", "é", 0, true},
	{"[[=xyz=]]", "x", 0, false},
	{"[b[=xyz=]]", "b", 0, true},
	{"[[=a=]-c]", "b", 0, false},
	{"[[=a=]-c]", "-", 0, true},
	{"[[.a.]]", "a", 0, true},
	{"[[.space.]]", " ", 0, true},
	{"[[.hyphen.]]", "-", 0, true},
	{"[[.backslash.]]", `\`, 0, true},
	{"[[.SP.]]", " ", 0, false},
	{"[[.xyz.]]", "x", 0, false},
	{"[[.xyz.]b]", "b", 0, true},
	{"[[.-.]-a]", "b", 0, false},
	{"[[.a.]-c]", "b", 0, true},
	{"[a-[.c.]]", "b", 0, true},
	{"[a-[.xx.]]", "a", 0, false},
	{"[[.xx.]-c]", "c", 0, false},
	{"[[.a]", "[a", 0, true}, // an unterminated [. leaves the bracket unclosed
	{"[[.a]", "a", 0, false},
	{"[a[.b]", "a", 0, false},
	{"[[.a.]", "[a", 0, true},
	{"[a", "[a", 0, true},
	{"[", "[", 0, true},
	{"[]", "[]", 0, true},
	{"[!]", "[!]", 0, true},
	{"[^]", "^", 0, false},
	{"[a-", "[a-", 0, false}, // a range without its end fails the match
	{"x[a-", "x[a-", 0, false},
	{"[a-b", "[a-b", 0, true},
	{`[\]]`, "]", 0, true},
	{`[\]]`, `\`, 0, false},
	{`[\]`, "[]", 0, true},
	{`[\`, `[\`, 0, false},
	{`[\a]`, "a", 0, true},
	{`[\\]`, `\`, 0, true},
	{"[/]", "/", 0, true},
	{"[.]", ".", 0, true},
	// classes outside ASCII, as glibc's C.UTF-8 has them
	{"[[:upper:]]", "É", 0, true},
	{"[[:lower:]]", "é", 0, true},
	{"[[:upper:]]", "ǅ", 0, true},
	{"[[:lower:]]", "ǅ", 0, true},
	{"[[:digit:]]", "٣", 0, false},
	{"[[:alnum:]]", "٣", 0, true},
	{"[[:space:]]", "\u00a0", 0, false},
	{"[[:space:]]", "\u2003", 0, true},
	{"[[:blank:]]", "\u2003", 0, true},
	{"[[:punct:]]", "€", 0, true},
	{"[[:punct:]]", "_", 0, true},
	{"[[:word:]]", "_", 0, true},
	{"[[:xdigit:]]", "g", 0, false},
	{"[[:graph:]]", " ", 0, false},
	{"[[:print:]]", " ", 0, true},
	{"[[:cntrl:]]", "\x7f", 0, true},
	// invalid UTF-8: bash reads both sides byte by byte
	{"?", "\xff", 0, true},
	{"[^a]", "\xff", 0, true},
	{"[é]", "\xc3", 0, true},
	{"??", "\xc3a", 0, true},
	{"??", "é\xff", 0, false},
	{"???", "é\xff", 0, true},
	{"??", "é", 0, false},
	{"?\xff", "é", 0, false},
	{"[[:alpha:]]*", "é\xff", 0, false},
	// nocasematch
	{"A*", "abc", NoCase, true},
	{"[A-Z]", "a", NoCase, true},
	{"[a-c]", "B", NoCase, true},
	{"[a-Z]", "_", NoCase, false},
	{"[[:upper:]]", "a", NoCase, false},
	{"É", "é", NoCase, true},
	{"ǅ", "ǆ", NoCase, true},
	{"ß", "ẞ", NoCase, true},
	{"k", "K", NoCase, true},
	{"é?", "É\xff", NoCase, false},
	// extglob
	{"@(a|b)x", "ax", ExtGlob, true},
	{"@(a|b)x", "x", ExtGlob, false},
	{"@(a|b)@(a|b)", "ab", ExtGlob, true},
	{"@()", "", ExtGlob, true},
	{"@()x", "x", ExtGlob, true},
	{"@(a|b|)", "", ExtGlob, true},
	{"*(a)b", "aaab", ExtGlob, true},
	{"+(a)b", "aaab", ExtGlob, true},
	{"+(a)b", "b", ExtGlob, false},
	{"?(a)b", "b", ExtGlob, true},
	{"?(a)b", "aab", ExtGlob, false},
	{"*(ab)", "abab", ExtGlob, true},
	{"*(a|b)", "abab", ExtGlob, true},
	{"!(*.h)", "foo.c", ExtGlob, true},
	{"!(*.h)", "foo.h", ExtGlob, false},
	{"!(*.h).h", "foo.h", ExtGlob, true},
	{"!(*.h).h", "foo.h.h", ExtGlob, false},
	{"a!(b)c", "abc", ExtGlob, false},
	{"a!(x)c", "abc", ExtGlob, true},
	{"a!(x)c", "ac", ExtGlob, true},
	{"!()", "", ExtGlob, false},
	{"!()", "a", ExtGlob, true},
	{"!(a)", "", ExtGlob, true},
	{"!(a)", "ab", ExtGlob, true},
	{"@(!(a))", "a", ExtGlob, false},
	{"!(!(a))", "a", ExtGlob, true},
	{"!(!(a))", "b", ExtGlob, false},
	{"a|b", "a|b", ExtGlob, true},
	{"a)", "a)", ExtGlob, true},
	{"a(b)", "a(b)", ExtGlob, true},
	{"(", "(", ExtGlob, true},
	{"!", "!", ExtGlob, true},
	{"@([)])", ")", ExtGlob, true},
	{"@([)]|a)", "a", ExtGlob, true},
	{"@([|]|a)", "|", ExtGlob, true},
	{"@(x|[]])", "]", ExtGlob, true},
	{"@(x|[!)]|b)", "a", ExtGlob, true},
	{"@(x|[!)]|b)", ")", ExtGlob, false},
	{"@(x|[[:alpha:])]|b)", "a", ExtGlob, true},
	{`@(a\(b)`, "a(b", ExtGlob, true},
	{`@(a\)b)`, "a)b", ExtGlob, true},
	{`@(a\|b)`, "a|b", ExtGlob, true},
	{"@(a@(b))", "ab", ExtGlob, true},
	// a group that does not close: the rest of the pattern is text
	{"@(a", "@(a", ExtGlob, true},
	{"@(a", "a", ExtGlob, false},
	{"@(a|b", "@(a|b", ExtGlob, true},
	{"*(", "*(", ExtGlob, true},
	{"*(", "x(", ExtGlob, false},
	{"*(z", "xyz", ExtGlob, false},
	{"?(x", "?(x", ExtGlob, true},
	{"!(a", "!(a", ExtGlob, true},
	{"a*(", "a*(", ExtGlob, true},
	{"a*(", "ab(", ExtGlob, false},
	{"a*(b)c*(", "abc*(", ExtGlob, true},
	{"a*(b)c*(", "abcx*(", ExtGlob, false},
	{"@(a@(b)", "@(a@(b)", ExtGlob, true},
	{"@(a@(b)", "@(ab", ExtGlob, false},
	{"@(a|[)", "@(a|[)", ExtGlob, true}, // an unclosed bracket hides the )
	{"@(a|[)", "a", ExtGlob, false},
	{"@(x|[)]", "@(x|[)]", ExtGlob, true},
	{"@([)a)", "@([)a)", ExtGlob, true},
	{"@(x|[]))", "x", ExtGlob, false},
	// without ExtGlob the groups are text
	{"@(a)", "@(a)", 0, true},
	{"@(a)", "a", 0, false},
	{"!(a)", "b", 0, false},
	{"*(a)", "x(a)", 0, true},
}

func TestMatch(t *testing.T) {
	t.Parallel()
	for _, c := range matchTable {
		p, err := Compile(c.pat, c.mode)
		if err != nil {
			t.Fatalf("Compile(%q): %v", c.pat, err)
		}
		if got := p.Match(c.s); got != c.want {
			t.Errorf("Compile(%q, %v).Match(%q) = %v, want %v", c.pat, c.mode, c.s, got, c.want)
		}
	}
}

// TestOperators checks ${s#p} ${s##p} ${s%p} ${s%%p} ${s/p/r} ${s//p/r}
// as bash 5.2 computes them.
func TestOperators(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pat, s string
		mode   Mode
		// ${s#p} ${s##p} ${s%p} ${s%%p} ${s/p/-} ${s//p/-}
		want [6]string
	}{
		{"*b", "abcabc", 0, [6]string{"cabc", "c", "abcabc", "abcabc", "-c", "-c"}},
		{"b*", "abcabc", 0, [6]string{"abcabc", "abcabc", "abca", "a", "a-", "a-"}},
		{"b?", "abcabc", 0, [6]string{"abcabc", "abcabc", "abca", "abca", "a-abc", "a-a-"}},
		{".*", "a.b.c", 0, [6]string{"a.b.c", "a.b.c", "a.b", "a", "a-", "a-"}},
		{"*.", "a.b.c", 0, [6]string{"b.c", "c", "a.b.c", "a.b.c", "-c", "-c"}},
		{"*(z)", "abc", ExtGlob, [6]string{"abc", "abc", "abc", "abc", "-abc", "-a-b-c"}},
		{"?(a)", "abc", ExtGlob, [6]string{"abc", "bc", "abc", "abc", "-bc", "--b-c"}},
		{"?(b)", "abc", ExtGlob, [6]string{"abc", "abc", "abc", "abc", "-abc", "-a--c"}},
		{"*(z)", "", ExtGlob, [6]string{"", "", "", "", "-", "-"}},
		{"?(z)", "", ExtGlob, [6]string{"", "", "", "", "", ""}},
		{"", "abc", 0, [6]string{"abc", "abc", "abc", "abc", "abc", "abc"}},
		{"?", "aaa", 0, [6]string{"aa", "aa", "aa", "aa", "-aa", "---"}},
		{"*", "aaa", 0, [6]string{"aaa", "", "aaa", "", "-", "-"}},
		{"?", "éé", 0, [6]string{"é", "é", "é", "é", "-é", "--"}},
		{"!(a)*", "ab", ExtGlob, [6]string{"ab", "", "ab", "", "-", "-"}},
		{"a*(b)", "abbab", ExtGlob, [6]string{"bbab", "ab", "abb", "abb", "-ab", "--"}},
		{"!(-)", "x-y-z", ExtGlob, [6]string{"x-y-z", "", "x-y-z", "", "-", "-"}},
		{"x", "aXbX", NoCase, [6]string{"aXbX", "aXbX", "aXbX", "aXbX", "a-bX", "a-b-"}},
		{"[x]", "aXbX", NoCase, [6]string{"aXbX", "aXbX", "aXbX", "aXbX", "a-bX", "a-b-"}},
	} {
		p, err := Compile(c.pat, c.mode)
		if err != nil {
			t.Fatal(err)
		}
		pc, _ := Compile(c.pat, c.mode&^NoCase) // # and % ignore nocasematch
		cut := func(i int, prefix bool) string {
			switch {
			case i < 0:
				return c.s
			case prefix:
				return c.s[i:]
			}
			return c.s[:i]
		}
		dash := func(string) string { return "-" }
		got := [6]string{
			cut(pc.Prefix(c.s, false), true), cut(pc.Prefix(c.s, true), true),
			cut(pc.Suffix(c.s, false), false), cut(pc.Suffix(c.s, true), false),
			p.Replace(c.s, false, dash), p.Replace(c.s, true, dash),
		}
		if got != c.want {
			t.Errorf("%q with %q (%v):\n got %q\nwant %q", c.s, c.pat, c.mode, got, c.want)
		}
	}
}

func TestFind(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pat, s     string
		from       int
		start, end int
	}{
		{"b*c", "abcbc", 0, 1, 5},
		{"b*c", "abcbc", 2, 3, 5},
		{"x", "abc", 0, -1, -1},
		{"*(x)", "abc", 3, 3, 3},
		{"*(x)", "abc", 4, -1, -1},
		{"?", "éa", 1, 2, 3}, // from inside a character starts at the next
		{"a", "a", -5, 0, 1},
	} {
		p, err := Compile(c.pat, ExtGlob)
		if err != nil {
			t.Fatal(err)
		}
		if start, end := p.Find(c.s, c.from); start != c.start || end != c.end {
			t.Errorf("Find(%q, %d) with %q = %d, %d; want %d, %d", c.s, c.from, c.pat, start, end, c.start, c.end)
		}
	}
}

func TestHasMeta(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pat  string
		mode Mode
		want bool
	}{
		{"abc", ExtGlob, false},
		{"a*", 0, true},
		{"a?", 0, true},
		{`a\*`, 0, false},
		{"a[b", 0, false},
		{"a[", 0, false},
		{"a]b", 0, false},
		{"a[]b", 0, true},
		{"a[]]", 0, true},
		{"a[[:alpha:]", 0, true},
		{"a/[/]", 0, false},
		{"a[/]b", 0, false},
		{`a\[b]`, 0, false},
		{`a[\]]`, 0, true},
		{`a[b\]`, 0, false},
		{"[!]", 0, true},
		{"@(a)", ExtGlob, true},
		{"@(a)", 0, false},
		{"+(a", ExtGlob, true},
		{"!(a", ExtGlob, true},
		{`\!(a)`, ExtGlob, false},
		{"a(b)", ExtGlob, false},
		{"*(", 0, true},
	} {
		if got := HasMeta(c.pat, c.mode); got != c.want {
			t.Errorf("HasMeta(%q, %v) = %v, want %v", c.pat, c.mode, got, c.want)
		}
	}
}

func TestQuoteMeta(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "abc", `*?[]\`, "@(a|b)", "!(x)", "+(", "a-b^c", "[[:alpha:]]", "é*", "a/b", `x\`} {
		q := QuoteMeta(s)
		if HasMeta(q, ExtGlob) {
			t.Errorf("HasMeta(QuoteMeta(%q) = %q)", s, q)
		}
		if Unquote(q) != s {
			t.Errorf("Unquote(QuoteMeta(%q)) = %q", s, Unquote(q))
		}
		for _, mode := range []Mode{0, ExtGlob, ExtGlob | NoCase, Filename} {
			p, err := Compile(q, mode)
			if err != nil {
				t.Fatal(err)
			}
			if !p.Match(s) {
				t.Errorf("Compile(QuoteMeta(%q) = %q, %v) does not match it", s, q, mode)
			}
			if other := s + "x"; p.Match(other) {
				t.Errorf("Compile(QuoteMeta(%q)) matches %q", s, other)
			}
		}
		// Embedded in a group and a bracket, the quoted text stays text.
		if p, _ := Compile("@(z|"+q+")", ExtGlob); !p.Match(s) {
			t.Errorf("@(z|%s) does not match %q", q, s)
		}
	}
	if p, _ := Compile("["+QuoteMeta("a-c")+"]", 0); p.Match("b") || !p.Match("-") {
		t.Errorf("a quoted - in a bracket expression is a range")
	}
}

func TestUnquote(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"": "", "abc": "abc", `a\*b`: "a*b", `\\`: `\`, `a\`: `a\`, `\a\b`: "ab"} {
		if got := Unquote(in); got != want {
			t.Errorf("Unquote(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFilename(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pat, s string
		want   bool
	}{
		{"*", "a/b", false},
		{"*/*", "a/b", true},
		{"?", "/", false},
		{"[/]", "/", false},
		{"[!a]", "/", false},
		{"a/b", "a/b", true},
		{"!(x)", "a/b", false},
		{"!(x)/b", "a/b", true},
		{"*(a|/)", "a/a", true}, // a '/' in the pattern matches '/'
		{"*(a|?)", "a/a", false},
		{"@(a/b)", "a/b", true},
	} {
		p, err := Compile(c.pat, Filename|ExtGlob)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Match(c.s); got != c.want {
			t.Errorf("Compile(%q, Filename).Match(%q) = %v, want %v", c.pat, c.s, got, c.want)
		}
	}
}

func TestTooDeep(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("@(", maxDepth+1) + "a" + strings.Repeat(")", maxDepth+1)
	if _, err := Compile(deep, ExtGlob); err != ErrTooDeep {
		t.Errorf("Compile of %d nested groups: %v, want ErrTooDeep", maxDepth+1, err)
	}
	ok := strings.Repeat("@(", 100) + "a" + strings.Repeat(")", 100)
	p, err := Compile(ok, ExtGlob)
	if err != nil || !p.Match("a") {
		t.Errorf("100 nested groups: %v", err)
	}
}

// TestBashBugs pins down where the package deliberately differs from bash
// 5.2, which matches these wrongly by accidents of its backtracking; the
// answers here follow bash's manual.
func TestBashBugs(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pat, s string
		want   bool // bash says the opposite
	}{
		// A group after a *: bash never tries the group at the end of the
		// string, and inverts a !(…) tried there.
		{"a*@(x|)", "a", true},
		{"a*+(x)", "ax", true},
		{"a*!(x)", "ax", true},
		{"*!(a)b", "", false},
		{"*?*()!()", "b", false},
		// A group that does not close after a *: bash matches anything, or
		// (for !) the empty rest; here the rest is text, as everywhere else.
		{"*?(a", "x", false},
		{"**(a", "x", false},
		{"*!(a", "", false},
	} {
		p, err := Compile(c.pat, ExtGlob)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Match(c.s); got != c.want {
			t.Errorf("Compile(%q).Match(%q) = %v, want %v", c.pat, c.s, got, c.want)
		}
	}
	// ${s/p/r} first matches *p* against s and gives up when that fails;
	// with extglob "(" becomes "*(*", a group that does not close.
	p, _ := Compile("(", ExtGlob)
	if got := p.Replace("a(b", false, func(string) string { return "X" }); got != "aXb" {
		t.Errorf("${s/(/X} = %q, want aXb", got)
	}
	// bash measures [!]a] as 3 characters long and so finds no match in "b".
	p, _ = Compile("[!]a]", 0)
	if got := p.Replace("b", false, func(string) string { return "X" }); got != "X" {
		t.Errorf("${s/[!]a]/X} = %q, want X", got)
	}
}

// TestConcurrent uses one pattern from many goroutines, in both charsets,
// forwards and backwards (go test -race checks it).
func TestConcurrent(t *testing.T) {
	t.Parallel()
	p, err := Compile("*!(x)@(é|b)", ExtGlob)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan bool)
	for i := range 8 {
		go func() {
			s := strings.Repeat("aé", i) + "b"
			if i%2 == 1 {
				s += "\xff" // read as bytes
			}
			ok := p.Match(s) == (i%2 == 0) && p.Suffix(s, true) >= 0 == (i%2 == 0)
			p.Replace(s, true, strings.ToUpper)
			done <- ok
		}()
	}
	for range 8 {
		if !<-done {
			t.Error("a concurrent match went wrong")
		}
	}
}
