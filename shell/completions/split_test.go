package completions

import (
	"slices"
	"testing"
)

// The expectations are bash 5.2's, read from a completion function
// (COMP_WORDS, COMP_CWORD, COMP_LINE, COMP_POINT and its $2) on a pty.
func TestSplit(t *testing.T) {
	tests := []struct {
		line  string
		words []string
		cword int
		cline string
		text  string // $2: what Tab replaces
	}{
		{`cmd x`, []string{"cmd", "x"}, 1, `cmd x`, "x"},
		{`echo hi && cmd "a b" c`, []string{"cmd", `"a b"`, "c"}, 2, `cmd "a b" c`, "c"},
		{`cmd a  `, []string{"cmd", "a", ""}, 2, `cmd a  `, ""},
		{`cmd  `, []string{"cmd", ""}, 1, `cmd  `, ""},
		{`x | cmd $(foo) >out `, []string{"cmd", "$(foo)", ">", "out", ""}, 4, `cmd $(foo) >out `, ""},
		{`cmd 'a b'\ c`, []string{"cmd", `'a b'\ c`}, 1, `cmd 'a b'\ c`, `'a b'\ c`},
		{`cmd a=b`, []string{"cmd", "a", "=", "b"}, 3, `cmd a=b`, "b"},
		{`cmd a:=b`, []string{"cmd", "a", ":=", "b"}, 3, `cmd a:=b`, "b"},
		{`cmd a==b`, []string{"cmd", "a", "==", "b"}, 3, `cmd a==b`, "b"},
		{`cmd --x=`, []string{"cmd", "--x", "="}, 2, `cmd --x=`, ""},
		{`FOO=1 cmd y`, []string{"cmd", "y"}, 1, `cmd y`, "y"},
		{`cmd "a=b" c=d`, []string{"cmd", `"a=b"`, "c", "=", "d"}, 4, `cmd "a=b" c=d`, "d"},
		{`cmd $(foo bar) x`, []string{"cmd", "$(foo bar)", "x"}, 2, `cmd $(foo bar) x`, "x"},
		{`cmd a\=b`, []string{"cmd", `a\=b`}, 1, `cmd a\=b`, `a\=b`},
		{`cmd ${a:-b} x`, []string{"cmd", "${a:-b}", "x"}, 2, `cmd ${a:-b} x`, "x"},
		{`cmd 'x:y' z`, []string{"cmd", "'x:y'", "z"}, 2, `cmd 'x:y' z`, "z"},
		{`cmd a&&cmd b`, []string{"cmd", "b"}, 1, `cmd b`, "b"},
		{`cmd a | cmd b`, []string{"cmd", "b"}, 1, `cmd b`, "b"},
		{`cmd x>`, []string{"cmd", "x", ">"}, 2, `cmd x>`, ""},
		{`cmd x>>y`, []string{"cmd", "x", ">>", "y"}, 3, `cmd x>>y`, "y"},
		{`cmd @x`, []string{"cmd", "@", "x"}, 2, `cmd @x`, "x"},
		{`cmd "abc`, []string{"cmd", `"abc`}, 1, `cmd "abc`, "abc"},
		{`cmd "a" b"c`, []string{"cmd", `"a"`, `b"c`}, 2, `cmd "a" b"c`, "c"},
		{`  cmd x`, []string{"cmd", "x"}, 1, `cmd x`, "x"},
		{`cmd x # y`, []string{"cmd", "x", "#", "y"}, 3, `cmd x # y`, "y"},
		{`cmd {a,b}`, []string{"cmd", "{a,b}"}, 1, `cmd {a,b}`, "{a,b}"},
		{`cmd a<b`, []string{"cmd", "a", "<", "b"}, 3, `cmd a<b`, "b"},
		{`cmd x=$(a b)`, []string{"cmd", "x", "=", "$(a b)"}, 3, `cmd x=$(a b)`, "b)"},
		{`cmd $((1 + 2))`, []string{"cmd", "$((1 + 2))"}, 1, `cmd $((1 + 2))`, "2))"},
		{`cmd "a b`, []string{"cmd", `"a b`}, 1, `cmd "a b`, "a b"},
		{`cmd 'a b`, []string{"cmd", `'a b`}, 1, `cmd 'a b`, "a b"},
		{`cmd a\ b`, []string{"cmd", `a\ b`}, 1, `cmd a\ b`, `a\ b`},
		{`cmd x ~/`, []string{"cmd", "x", "~/"}, 2, `cmd x ~/`, "~/"},
		{``, []string{""}, 0, ``, ""},
	}
	for _, tt := range tests {
		w := Split(tt.line, len(tt.line), DefaultWordBreaks)
		if !slices.Equal(w.Words, tt.words) || w.CWord != tt.cword || w.Line != tt.cline || w.Point != len(tt.cline) {
			t.Errorf("Split(%q) = %q %d %q %d, want %q %d %q %d", tt.line, w.Words, w.CWord, w.Line, w.Point, tt.words, tt.cword, tt.cline, len(tt.cline))
		}
		if text := w.Line[w.Start:w.Point]; text != tt.text {
			t.Errorf("Split(%q): text %q, want %q", tt.line, text, tt.text)
		}
	}
}

func TestSplitCursorInside(t *testing.T) {
	line := "cmd abc def; ls"
	w := Split(line, 6, DefaultWordBreaks) // cmd ab|c
	if w.Line != "cmd abc def" || w.CWord != 1 || w.Point != 6 || !slices.Equal(w.Words, []string{"cmd", "abc", "def"}) {
		t.Errorf("got %+v", w)
	}
	w = Split("cmd a  b", 6, DefaultWordBreaks) // cmd a |b
	if w.CWord != 2 || !slices.Equal(w.Words, []string{"cmd", "a", "", "b"}) {
		t.Errorf("got %+v", w)
	}
}

func TestSplitQuotedText(t *testing.T) {
	for line, text := range map[string]string{
		`cmd 'a b'c`: `'a b'c`, `cmd "a"b`: `"a"b`, `cmd x"a"`: `x"a"`, `cmd 'ab'`: `'ab'`,
		`cmd 'a'\ c`: `'a'\ c`, `cmd "a b"\\ c`: `c`,
	} {
		w := Split(line, len(line), DefaultWordBreaks)
		if got := w.Line[w.Start:w.Point]; got != text {
			t.Errorf("Split(%q): text %q, want %q", line, got, text)
		}
	}
}
