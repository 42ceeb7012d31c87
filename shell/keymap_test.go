package shell

import (
	"testing"
)

func TestParseKeyseq(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`\C-t`, "\x14"},
		{`\C-T`, "\x14"},
		{`\ec`, "\x1bc"},
		{`\M-c`, "\x1bc"},
		{`\C-x\C-e`, "\x18\x05"},
		{`\e\C-e`, "\x1b\x05"},
		{`\M-\C-e`, "\x1b\x05"},
		{`\C-?`, "\x7f"},
		{`\C-@`, "\x00"},
		{`\e[A`, "\x1b[A"},
		{`\x41\101`, "AA"},
		{`\\\"\'`, `\"'`},
		{`\d\t\n\r`, "\x7f\t\n\r"},
		{`ab`, "ab"},
	}
	for _, tt := range tests {
		got, err := parseKeyseq(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("parseKeyseq(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{``, `\`, `\C-`, `\xZZ`} {
		if got, err := parseKeyseq(bad); err == nil {
			t.Errorf("parseKeyseq(%q) = %q, want an error", bad, got)
		}
	}
}

func TestParseKeyname(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"Control-r", "\x12"},
		{"C-r", "\x12"},
		{"Meta-x", "\x1bx"},
		{"M-C-e", "\x1b\x05"},
		{"TAB", "\t"},
		{"Escape", "\x1b"},
		{"Rubout", "\x7f"},
		{"a", "a"},
	}
	for _, tt := range tests {
		got, err := parseKeyname(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("parseKeyname(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if _, err := parseKeyname("Hyper-x"); err == nil {
		t.Error("parseKeyname(Hyper-x): no error")
	}
}

func TestKeyseqString(t *testing.T) {
	t.Parallel()
	for _, s := range []string{`\C-t`, `\ec`, `\C-x\C-e`, `\e[A`, `\C-?`, `\C-@`, `\C-_`, `a\"b`, `\\`} {
		seq, err := parseKeyseq(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := keyseqString(seq); got != s {
			t.Errorf("keyseqString(parseKeyseq(%q)) = %q", s, got)
		}
	}
}

func TestKeymapMatch(t *testing.T) {
	t.Parallel()
	var m keymap
	m.set(binding{seq: "\x14", cmd: "widget"})
	m.set(binding{seq: "\x1bc", macro: "x"})
	m.set(binding{seq: "\x18\x05", fn: "kill-line"})
	m.set(binding{seq: "\x18", fn: "abort"})
	tests := []struct {
		buf      string
		r        rune
		n        int
		ok, more bool
		comment  string
	}{
		{"\x14rest", keyRune, 1, true, false, "a bound key"},
		{"\x1bc", keyRune + 1, 2, true, false, "Alt-C"},
		{"\x1b", 0, 0, false, true, "ESC alone waits for the next key"},
		{"\x1b[A", 0, 0, false, false, "an arrow key is not bound"},
		{"\x18", 0, 0, false, true, "C-x starts C-x C-e"},
		{"\x18\x05", keyRune + 2, 2, true, false, "the longer one"},
		{"\x18x", keyRune + 3, 1, true, false, "C-x alone"},
		{"q", 0, 0, false, false, "not a first byte"},
	}
	for _, tt := range tests {
		r, n, ok, more := m.match([]byte(tt.buf), true)
		if r != tt.r || n != tt.n || ok != tt.ok || more != tt.more {
			t.Errorf("%s: match(%q) = %x, %d, %v, %v; want %x, %d, %v, %v", tt.comment, tt.buf, r, n, ok, more, tt.r, tt.n, tt.ok, tt.more)
		}
	}
	m.set(binding{seq: "\x14"}) // bind -r
	if _, _, ok, _ := m.match([]byte("\x14"), true); ok {
		t.Error("an unbound key still matches")
	}
	if b, ok := m.lookup("\x14"); !ok || b.fn != "transpose-chars" {
		t.Errorf("lookup of an unbound key = %+v, %v; want the editor's own", b, ok)
	}
}
