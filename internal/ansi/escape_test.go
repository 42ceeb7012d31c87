package ansi

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

var cases = []struct{ in, want string }{
	{"plain text, ünïcödé, 日本 ✓\n\tindented", "plain text, ünïcödé, 日本 ✓\n\tindented"},
	{"\x1b]52;c;ZWNobyBwd25lZA==\x07", "^[]52;c;ZWNobyBwd25lZA==^G"},
	{"\x1b]0;pwned\x1b\\", "^[]0;pwned^[\\"},
	{"\x1b[2J\x1b[H", "^[[2J^[[H"},
	{"\x1b[31mred\x1b[0m", "^[[31mred^[[0m"},
	{"\x1bP+q544e\x1b\\", "^[P+q544e^[\\"},
	{"\x1b_apc\x1b\\", "^[_apc^[\\"},
	{"\u009d52;c;x\u009c", "^[]52;c;x^[\\"},
	{"\u009b2J", "^[[2J"},
	{"safe\rrm -rf ~", "safe^Mrm -rf ~"},
	{"line\r\nnext\r\n", "line\nnext\n"},
	{"a\bb\x00c\x7f", "a^Hb^@c^?"},
	{"abc\u202edcba", "abc<U+202E>dcba"},
	{"bad \xff\xfe bytes", "bad \uFFFD\uFFFD bytes"},
	{"cut \xe6\x97", "cut \uFFFD\uFFFD"},
	{"ends in \r", "ends in ^M"},
}

func TestEscape(t *testing.T) {
	for _, tc := range cases {
		if got := Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestStreamPieces feeds each case cut at every byte: the result is the
// same as the whole text's, whatever the cut splits.
func TestStreamPieces(t *testing.T) {
	for _, tc := range cases {
		for cut := 0; cut <= len(tc.in); cut++ {
			var st Stream
			got := st.Next(tc.in[:cut]) + st.Next(tc.in[cut:]) + st.Flush()
			if got != tc.want {
				t.Errorf("%q cut at %d: %q, want %q", tc.in, cut, got, tc.want)
			}
		}
	}
}

func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	for _, piece := range []string{"ok \x1b", "]52;c;x\x07 \xe2\x9c", "\x93\r", "\n"} {
		if n, err := w.Write([]byte(piece)); n != len(piece) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", piece, n, err)
		}
	}
	w.Flush()
	if got, want := b.String(), "ok ^[]52;c;x^G ✓\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// FuzzEscape: whatever comes in, what goes out has no control character
// but newlines and tabs, is valid UTF-8, and comes out the same in pieces.
func FuzzEscape(f *testing.F) {
	for _, tc := range cases {
		f.Add(tc.in, 3)
	}
	f.Fuzz(func(t *testing.T, s string, cut int) {
		out := Escape(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Escape(%q) = %q: not UTF-8", s, out)
		}
		for _, r := range out {
			if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r < 0xa0 || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
				t.Fatalf("Escape(%q) = %q: has %U", s, out, r)
			}
		}
		if cut < 0 {
			cut = -cut
		}
		cut %= len(s) + 1
		var st Stream
		if got := st.Next(s[:cut]) + st.Next(s[cut:]) + st.Flush(); got != out {
			t.Fatalf("%q cut at %d: %q, want %q", s, cut, got, out)
		}
		if strings.Contains(out, "\x1b") {
			t.Fatalf("ESC left in %q", out)
		}
	})
}
