package pattern

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCompile: any pattern compiles (or is too deep) without panicking,
// and quoting it makes a pattern that matches it and nothing else.
func FuzzCompile(f *testing.F) {
	for _, c := range matchTable {
		f.Add(c.pat, uint8(c.mode))
	}
	f.Fuzz(func(t *testing.T, pat string, mode uint8) {
		m := Mode(mode) & (ExtGlob | NoCase | Filename)
		p, err := Compile(pat, m)
		if err != nil {
			if err != ErrTooDeep {
				t.Fatalf("Compile(%q): %v", pat, err)
			}
			return
		}
		p.Match(pat)
		p.Match("")
		_ = HasMeta(pat, m)
		if q := QuoteMeta(pat); Unquote(q) != pat {
			t.Fatalf("Unquote(QuoteMeta(%q)) = %q", pat, Unquote(q))
		}
		q, err := Compile(QuoteMeta(pat), m&^Filename)
		if err != nil || !q.Match(pat) || q.Match(pat+"x") {
			t.Fatalf("QuoteMeta(%q) = %q does not match it alone", pat, QuoteMeta(pat))
		}
	})
}

// FuzzMatch checks Match, Prefix, Suffix and Find against the reference
// matcher, and Replace for not panicking, on short inputs; longer ones only
// run. A !(…) can make a run quadratic in the subject's length (see
// TestPathological), so subjects past 1 KB are left out, or the fuzzer
// would spend its time on them.
func FuzzMatch(f *testing.F) {
	for _, c := range matchTable {
		f.Add(c.pat, c.s, uint8(c.mode))
	}
	f.Add("*(*(a))b", strings.Repeat("a", 40), uint8(ExtGlob))
	f.Add("!(!(*a*)b)*", "abababab", uint8(ExtGlob))
	f.Fuzz(func(t *testing.T, pat, s string, mode uint8) {
		m := Mode(mode) & (ExtGlob | NoCase | Filename)
		if len(pat) <= 24 && utf8.RuneCountInString(s) <= 16 {
			checkReference(t, pat, s, m)
		}
		p, err := Compile(pat, m)
		if err != nil || len(s) > 1024 {
			return
		}
		got := p.Match(s)
		if longest := p.Prefix(s, true); got != (longest == len(s)) {
			t.Fatalf("Match(%q) = %v but the longest prefix is %d of %d", s, got, longest, len(s))
		}
		if start := p.Suffix(s, true); got != (start == 0) {
			t.Fatalf("Match(%q) = %v but the longest suffix starts at %d", s, got, start)
		}
		if start, end := p.Find(s, 0); start > end || (start < 0) != (end < 0) || end > len(s) {
			t.Fatalf("Find(%q, 0) = %d, %d", s, start, end)
		}
		p.Replace(s, true, func(m string) string { return "<" + m + ">" })
	})
}
