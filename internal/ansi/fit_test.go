package ansi

import (
	"strings"
	"testing"
)

func TestWidth(t *testing.T) {
	for s, want := range map[string]int{"abc": 3, "\x1b[1;31mab\x1b[0m": 2, "日本": 4, "é✓": 2, "^[]52": 5} {
		if got := Width(s); got != want {
			t.Errorf("Width(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestLayout(t *testing.T) {
	head := []Span{{Style: "33", Text: "⚠ dev"}, {Text: "  make -s hello && rm -f a.txt"},
		{Text: "   "}, {Style: "2", Text: "(`rm` on `a.txt`: deletes a file in the workspace)"},
		{Text: "  "}, {Style: "1", Text: "run?", Keep: true}, {Text: " [y/n]", Keep: true}, {Text: " "}}
	for _, tc := range []struct {
		cols int
		want string
	}{
		{0, "⚠ dev  make -s hello && rm -f a.txt   (`rm` on `a.txt`: deletes a file in the workspace)  run? [y/n] "},
		{200, "⚠ dev  make -s hello && rm -f a.txt   (`rm` on `a.txt`: deletes a file in the workspace)  run? [y/n] "},
		{40, "⚠ dev  make -s hello && rm -f a.txt\n  (`rm` on `a.txt`: deletes a file in\n  the workspace)  run? [y/n] "},
		{24, "⚠ dev  make -s hello &&\n  rm -f a.txt   (`rm` on\n  `a.txt`: deletes a\n  file in the workspace)\n  run? [y/n] "},
		{12, "⚠ dev  make\n  -s hello\n  && rm -f\n  a.txt\n  (`rm` on\n  `a.txt`:\n  deletes a\n  file in\n  the\n  workspace)\n  run? [y/n] "},
	} {
		got := Layout(head, tc.cols, 2, false)
		if got != tc.want {
			t.Errorf("%d columns:\n%s\nwant\n%s", tc.cols, got, tc.want)
		}
		for _, line := range strings.Split(got, "\n") {
			if tc.cols > 0 && Width(strings.TrimRight(line, " ")) > tc.cols {
				t.Errorf("%d columns: %q is wider", tc.cols, line)
			}
		}
	}
	// A word wider than a line is cut where the line ends; colours are
	// set per span and reset at each line's end.
	got := Layout([]Span{{Style: "1", Text: "abcdefghij"}}, 4, 0, true)
	if want := "\x1b[1mabcd\x1b[0m\n\x1b[1mefgh\x1b[0m\n\x1b[1mij\x1b[0m"; got != want {
		t.Errorf("a long word:\n%q\nwant\n%q", got, want)
	}
}

func TestClip(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"deletes the home directory", 26, "deletes the home directory"},
		{"deletes the home directory", 20, "deletes the home…"},
		{"deletes the home directory", 12, "deletes the…"},
		{"supercalifragilistic", 6, "super…"},
	} {
		if got := Clip(tc.s, tc.n); got != tc.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
