package aitest

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSplit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s string
		n int
	}{{"hello world", 3}, {"héllo ✓ wörld", 13}, {"a", 5}, {"abc", 0}, {"", 4}} {
		parts := split(tc.s, tc.n)
		if strings.Join(parts, "") != tc.s {
			t.Errorf("split(%q, %d) = %q loses text", tc.s, tc.n, parts)
		}
		for _, p := range parts {
			if p == "" || !utf8.ValidString(p) {
				t.Errorf("split(%q, %d) gives piece %q", tc.s, tc.n, p)
			}
		}
		if tc.n > 0 && len(parts) > tc.n {
			t.Errorf("split(%q, %d) gives %d pieces", tc.s, tc.n, len(parts))
		}
	}
}
