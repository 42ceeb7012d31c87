package histexpand

import (
	"strings"
	"testing"
)

// FuzzExpand checks that no line, history or histchars makes Expand panic
// or run away; the differential test checks the answers.
func FuzzExpand(f *testing.F) {
	f.Add("sudo !!", "echo a b c\nls -l /tmp/x.txt", "", false, byte(0))
	f.Add("!?b?:%:s/b/&&/:G&:x", "a b\nc 'd e' $(f g) 2>&1", "", true, byte(0))
	f.Add("^a^b^:p", "a a a", "!^#", false, byte('"'))
	f.Add("x !# !#:1-$:gs/x/xx/", "", "%^;", false, byte('\''))
	f.Fuzz(func(t *testing.T, line, hist, chars string, extglob bool, quote byte) {
		var h []string
		if hist != "" {
			h = strings.Split(hist, "\n")
		}
		st := &State{}
		o := Options{Chars: chars, Extglob: extglob, Quote: quote, State: st}
		out, _, err := Expand(line, h, o)
		if err == nil && len(out) > 2*maxLen+len(line) {
			t.Fatalf("%d bytes out", len(out))
		}
		if !strings.ContainsAny(line, "!^") && chars == "" && out != line {
			t.Fatalf("%q changed to %q", line, out)
		}
		// Again with what the first call remembered.
		Expand(line, h, o)
		LastArg(line)
		NthArg(line, len(line)%7-3)
	})
}
