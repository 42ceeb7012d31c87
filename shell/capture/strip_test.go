package capture

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestStrip(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", ""},
		{"plain text\n", "plain text\n"},
		{"crlf\r\nline\r\n", "crlf\nline\n"},
		{"\x1b[31mred\x1b[0m and \x1b[1;32mbold green\x1b[m\r\n", "red and bold green\n"},
		{"\x1b[38;5;196mx\x1b[48;2;1;2;3my", "xy"},
		{"a\x1b[?25lb\x1b[?25hc", "abc"},
		// OSC with BEL and with ST, hyperlinks, titles
		{"\x1b]0;title\x07after", "after"},
		{"\x1b]8;;http://x.y/\x1b\\link\x1b]8;;\x1b\\ done", "link done"},
		{"\x1b]133;D;0;aid=1\x07rest", "rest"},
		// DCS and APC strings
		{"a\x1bP1$r0m\x1b\\b", "ab"},
		{"a\x1b_Gf=24;AAAA\x1b\\b", "ab"},
		// charset selection, keypad modes, save/restore cursor
		{"\x1b(Bx\x1b)0y\x1b=\x1b>z\x1b7\x1b8", "xyz"},
		// carriage-return overwrites: a progress bar leaves its last state
		{"10%\r20%\r100%\r\n", "100%\n"},
		{"downloading 10%\rdone\n", "doneloading 10%\n"},
		{"downloading 10%\r\x1b[Kdone\n", "done\n"},
		{"abc\x1b[2Kxyz\n", "   xyz\n"},
		{"abcdef\r\x1b[3C\x1b[1K!\n", "   !ef\n"},
		{"x\x1b[99999Cy\n", "x" + strings.Repeat(" ", maxCol-1) + "y\n"},
		{"abc\x1b[1Gz\n", "zbc\n"},
		{"abc\x1b[2Dz\n", "azc\n"},
		// backspaces
		{"abc\b\bX\n", "aXc\n"},
		{"\b\bab\n", "ab\n"},
		{"_\bx", "x"},
		// other controls vanish, tabs stay
		{"a\x07b\x0ec\x7fd\te\n", "abcd\te\n"},
		// trailing blanks trimmed
		{"a   \r\n  b  \n", "a\n  b\n"},
		// the alternate screen is dropped, the main screen kept
		{"$ vim\r\n\x1b[?1049h\x1b[H\x1b[2Jfile contents\r\n~\r\n\x1b[?1049lafter\r\n", "$ vim\nafter\n"},
		{"x\x1b[?1h\x1b[?47hhidden\x1b[?47ly", "xy"},
		// sequences cut at the end, or malformed
		{"ok\x1b", "ok"},
		{"ok\x1b[", "ok"},
		{"ok\x1b[31", "ok"},
		{"ok\x1b]0;never ends", "ok"},
		{"a\x1b[1\nb", "a\nb"},
		{"a\x1b(", "a"},
		{"a\x1b]0;cut\x1b[31mb", "ab"},         // ESC aborts an OSC
		{"a\x1b]0;cut\x18b\x1bPx\x1ac", "abc"}, // so do CAN and SUB
		// UTF-8, and invalid bytes
		{"héllo 世界\n", "héllo 世界\n"},
		{"é\rx\n", "x\n"},
		{"bad\xffbyte", "bad\uFFFDbyte"},
	}
	for _, tc := range tests {
		if got := Strip(tc.in); got != tc.want {
			t.Errorf("Strip(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzStrip(f *testing.F) {
	for _, s := range []string{
		"", "a\r\nb", "\x1b[31mred\x1b[0m", "\x1b]0;t\x07x", "\x1b]8;;u\x1b\\l", "\x1bP$q\x1b\\",
		"10%\r\x1b[K100%", "\x1b[?1049hx\x1b[?1049l", "\x1b(0q\x1b(B", "\b\b\x1b[99999999999G", "\xff\xfe",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Strip(in)
		if !utf8.ValidString(out) {
			t.Fatalf("Strip(%q) = %q: invalid UTF-8", in, out)
		}
		if i := strings.IndexFunc(out, func(r rune) bool {
			return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f
		}); i >= 0 {
			t.Fatalf("Strip(%q) = %q: control character at %d", in, out, i)
		}
		if len(out) > (len(in)+1)*(maxCol+1)*utf8.UTFMax {
			t.Fatalf("Strip(%q) grew to %d bytes", in, len(out))
		}
	})
}
