package shell

import (
	"testing"
)

// fzfAltC is the macro fzf's key-bindings.bash binds to Alt-C.
const fzfAltC = `" \C-b\C-k \C-u` + "`__fzf_cd__`" + `\e\C-e\er\C-m\C-y\C-h\e \C-y\ey\C-x\C-x\C-d"`

// TestMacroFzfAltC runs fzf's Alt-C macro on a line: the line is killed,
// the command substitution typed and expanded, the line accepted, and on
// the next line the old text comes back with the point where it was.
func TestMacroFzfAltC(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		line  string
		point int
	}{
		{"echo keep", 7},
		{"echo keep", 9},
		{"", 0},
		{"héllo wörld", 3},
	} {
		var keys keymap
		keys.set(binding{seq: "\x1br", fn: "redraw-current-line"})
		var expanded string
		e := &lineEditor{in: &lineInput{}, hooks: editorHooks{keys: &keys, expand: func(line string) (string, bool) {
			expanded = line
			return "builtin cd -- sub", true
		}}}
		macro, err := parseKeyseq(fzfAltC[1 : len(fzfAltC)-1])
		if err != nil {
			t.Fatal(err)
		}
		line, _, ok := e.act(binding{seq: "\x1bc", macro: macro}, []rune(tt.line), tt.point)
		if !ok || string(line) != "builtin cd -- sub" || expanded != "`__fzf_cd__`" {
			t.Errorf("%q: the macro's line = %q, %v (expanded %q)", tt.line, string(line), ok, expanded)
		}
		if string(e.in.out) != "\r" {
			t.Errorf("%q: the macro did not accept the line: input %q", tt.line, e.in.out)
		}
		if e.macroRest == "" {
			t.Fatalf("%q: no rest for the next line", tt.line)
		}
		line, point, ok := e.act(binding{macro: e.macroRest}, nil, 0)
		if !ok || string(line) != tt.line || point != tt.point {
			t.Errorf("next line after %q at %d: %q at %d, %v", tt.line, tt.point, string(line), point, ok)
		}
	}
}

func TestEditLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line  string
		point int
		fns   []string
		want  string
		at    int
	}{
		{"echo one two", 12, []string{"backward-kill-word", "backward-kill-word", "yank"}, "echo one two", 12},
		{"echo one two", 5, []string{"kill-line", "end-of-line", "yank"}, "echo one two", 12},
		{"abc", 1, []string{"transpose-chars"}, "bac", 2},
		{"abc def", 0, []string{"forward-word", "set-mark", "end-of-line", "exchange-point-and-mark"}, "abc def", 3},
		{"abc", 3, []string{"unix-line-discard", "yank", "yank"}, "abcabc", 6},
		{"a b", 3, []string{"unix-word-rubout", "backward-delete-char", "delete-char"}, "a", 1},
	}
	for _, tt := range tests {
		e := editLine{line: []rune(tt.line), point: tt.point}
		for _, fn := range tt.fns {
			if !e.run(fn, 0) {
				t.Fatalf("run(%s) = false", fn)
			}
		}
		if string(e.line) != tt.want || e.point != tt.at {
			t.Errorf("%q at %d, %v: %q at %d; want %q at %d", tt.line, tt.point, tt.fns, string(e.line), e.point, tt.want, tt.at)
		}
	}
	var e editLine
	if e.run("previous-history", 0) {
		t.Error("a function only readline does ran on the model")
	}
}

func TestHistorySearch(t *testing.T) {
	t.Parallel()
	entries := []string{"git status", "ls", "git log", "echo git"}
	tests := []struct {
		at        int
		prefix    string
		dir       int
		substring bool
		want      int
		ok        bool
	}{
		{4, "git", -1, false, 2, true},
		{2, "git", -1, false, 0, true},
		{0, "git", -1, false, 0, false},
		{0, "git", 1, false, 2, true},
		{4, "git", -1, true, 3, true},
		{4, "", -1, false, 3, true},
		{4, "nope", -1, false, 4, false},
	}
	for _, tt := range tests {
		got, ok := historySearch(entries, tt.at, tt.prefix, tt.dir, tt.substring)
		if got != tt.want || ok != tt.ok {
			t.Errorf("historySearch(at %d, %q, %d, %v) = %d, %v; want %d, %v", tt.at, tt.prefix, tt.dir, tt.substring, got, ok, tt.want, tt.ok)
		}
	}
}

// TestForwardWordIsOurs: forward-word (M-f, and Ctrl-Right as inputrc
// files bind it) is the editor's own, which ends at the word's end as
// bash's readline does; readline v0.1.3's stops at the next word's start.
func TestForwardWordIsOurs(t *testing.T) {
	if f, ok := findFunc("forward-word"); !ok || f.key != 0 {
		t.Fatalf("forward-word goes to readline: %+v %v", f, ok)
	}
	e := &editLine{line: []rune("echo abc def")}
	for _, want := range []int{4, 8, 12, 12} {
		if !e.run("forward-word", 0) || e.point != want {
			t.Fatalf("forward-word to %d, want %d", e.point, want)
		}
	}
}
