package shell

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// viType types keys on line (the point at its end, in insert mode) as
// the editor would, Esc being \x1b, and returns the line, the point (as
// |), the mode and the last outcome.
func viType(line, keys string) (string, bool, viOutcome) {
	ed := &editLine{line: []rune(line), point: utf8.RuneCountInString(line)}
	var v viState
	v.reset(true)
	out := viNone
	for _, r := range keys {
		switch {
		case r == '\x1b':
			if !v.command {
				v.toCommand(ed)
			}
		case !v.command:
			v.typedKey(r)
			if r == 0x7f {
				ed.run("backward-delete-char", 0)
			} else {
				ed.insert(string(r))
			}
		default:
			if c, ok := v.key(r); ok {
				out = v.exec(c, ed)
			}
		}
	}
	s := string(ed.line[:ed.point]) + "|" + string(ed.line[ed.point:])
	return s, v.command, out
}

// TestViKeys covers what TestViModeAgainstBash (cmd/qsh) cannot compare
// through a command's output: the point, the mode, edges, outcomes.
func TestViKeys(t *testing.T) {
	for _, tt := range []struct {
		line, keys, want string
		command          bool
		out              viOutcome
	}{
		{"", "\x1b", "|", true, viNone},
		{"", "\x1bxXdwD~rzp.uU", "|", true, viNone},
		{"abc", "\x1b", "ab|c", true, viNone},
		{"abc", "\x1b0", "|abc", true, viNone},
		{"abc", "\x1b99999999l", "ab|c", true, viNone},
		{"abc", "\x1b99999999x", "a|b", true, viNone},
		{"abc", "\x1bhi", "a|bc", false, viNone},
		{"abc", "\x1ba", "abc|", false, viNone},
		{"a b", "\x1b0cw", "| b", false, viNone},
		{"a b", "\x1b0lcw", "a|b", false, viNone},   // on a blank: the blanks
		{"ab(c)", "\x1b0%", "ab(c|)", true, viNone}, // from before the bracket
		{"ab(c", "\x1b0%", "|ab(c", true, viNone},   // no match: no move
		{"abc", "\x1bdd", "|", true, viNone},
		{"abc", "\x1bccx", "x|", false, viNone},
		{"abc", "\x1b#", "#|abc", true, viAccept},
		{"abc", "\x1bv", "ab|c", true, viEdit},
		{"abc", "\x1bk", "ab|c", true, viPrev},
		{"abc", "\x1bj", "ab|c", true, viNext},
		{"abc", "\x1b/", "ab|c", false, viSearch},
		{"abc", "\x1b3", "ab|c", true, viNone}, // a count waits for its command
		{"abc", "\x1bd", "ab|c", true, viNone},
		{"abc", "\x1bf", "ab|c", true, viNone},
		{"a1 a2 a3", "\x1b0fa;;,", "a1 |a2 a3", true, viNone},
		{"a1 a2 a3", "\x1b0ta;", "a1 a2| a3", true, viNone}, // ; after t skips the stop
		{"xyz", "\x1b0ylP", "|xxyz", true, viNone},
		{"héllo wörld", "\x1b0wx", "héllo |örld", true, viNone},
		{"ab", "\x1bAcd\x1b..", "abcdcdc|d", true, viNone},
	} {
		got, command, out := viType(tt.line, tt.keys)
		if got != tt.want || command != tt.command || out != tt.out {
			t.Errorf("%q then %q: %q, command mode %v, outcome %d; want %q, %v, %d",
				tt.line, tt.keys, got, command, out, tt.want, tt.command, tt.out)
		}
	}
}

func TestParseVi(t *testing.T) {
	for _, tt := range []struct {
		keys     string
		want     viCmd
		done, ok bool
	}{
		{"x", viCmd{key: 'x'}, true, true},
		{"0", viCmd{key: '0'}, true, true},
		{"10x", viCmd{count: 10, key: 'x'}, true, true},
		{"2d3w", viCmd{count: 6, op: 'd', key: 'w'}, true, true},
		{"d3w", viCmd{count: 3, op: 'd', key: 'w'}, true, true},
		{"dd", viCmd{op: 'd', key: 'd'}, true, true},
		{"dy", viCmd{op: 'd', key: 'y'}, true, false},
		{"dfx", viCmd{op: 'd', key: 'f', arg: 'x'}, true, true},
		{"df", viCmd{op: 'd', key: 'f'}, false, true},
		{"r", viCmd{key: 'r'}, false, true},
		{"z", viCmd{key: 'z'}, true, false},
		{"12", viCmd{count: 12}, false, true},
	} {
		c, done, ok := parseVi([]rune(tt.keys))
		if done != tt.done || ok != tt.ok || ok && done && c != tt.want {
			t.Errorf("parseVi(%q) = %+v, %v, %v; want %+v, %v, %v", tt.keys, c, done, ok, tt.want, tt.done, tt.ok)
		}
	}
}

// oneByte hands out a pipe's bytes one read at a time, as a slow line
// does, and can be polled.
type oneByte struct{ *os.File }

func (o oneByte) Read(p []byte) (int, error) { return o.File.Read(p[:1]) }

// TestLineInputViEsc: in vi mode an Esc on its own is viEscRune, whether
// nothing follows it or a key that starts no sequence; Esc [ and Esc O
// are keys' sequences still, even when they come in pieces.
func TestLineInputViEsc(t *testing.T) {
	esc := string(viEscRune)
	for _, tt := range []struct{ in, want string }{
		{"\x1b", esc},
		{"\x1bk", esc + "k"},
		{"\x1b\x1b", esc + esc},
		{"\x1b[A", "\x1b[A"},
		{"\x1bOA", "\x1bOA"},
		{"a\x1b0", "a" + esc + "0"},
	} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		w.WriteString(tt.in)
		w.Close()
		in := &lineInput{f: oneByte{r}, vi: true}
		if got := drain(t, in); got != tt.want {
			t.Errorf("%q read as %q, want %q", tt.in, got, tt.want)
		}
		r.Close()
	}
	// Without vi mode an Esc is left to readline.
	c := chunks{"\x1bk"}
	if got := drain(t, &lineInput{f: &c}); got != "\x1bk" {
		t.Errorf("emacs mode: %q", got)
	}
}

// FuzzViKeys: any keys on any line leave the point on the line, in
// command mode on a character of it, and never panic.
func FuzzViKeys(f *testing.F) {
	f.Add("echo foo bar", "\x1b0wcwX\x1b.u2d3wp")
	f.Add("(a [b] c)", "\x1b%d%Fbx;,.U")
	f.Fuzz(func(t *testing.T, line, keys string) {
		got, command, _ := viType(line, keys)
		i := strings.Index(got, "|")
		n := utf8.RuneCountInString(got) - 1
		if p := utf8.RuneCountInString(got[:i]); command && n > 0 && p >= n {
			t.Fatalf("%q then %q: the point is past the last character: %q", line, keys, got)
		}
	})
}
