package completions

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// kinds is a directory with a file of each kind the list shows apart.
func kinds(t *testing.T) (dir string, ms []Match) {
	dir = tree(t, "dirA/", "exe1*", "file1", "notes.txt")
	os.Symlink("dirA", filepath.Join(dir, "linkdir"))
	os.Symlink("file1", filepath.Join(dir, "linkfile"))
	os.Symlink("gone", filepath.Join(dir, "orphan"))
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo1"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"dirA", "exe1", "fifo1", "file1", "linkdir", "linkfile"} {
		ms = append(ms, Match{Text: n, Name: n, Path: filepath.Join(dir, n)})
	}
	return dir, ms
}

// TestList: the lines readline 8.2 prints for the same names (bash 5.2
// on an 80-column terminal unless said): a line not full of names ends
// in the padding of its last, as readline's does.
func TestList(t *testing.T) {
	_, ms := kinds(t)
	words := func(names ...string) []Match {
		var out []Match
		for _, n := range names {
			out = append(out, Match{Text: n + " ", Name: n})
		}
		return out
	}
	tests := []struct {
		name  string
		ms    []Match
		style ListStyle
		want  []string
	}{
		{"plain", ms, ListStyle{Width: 80},
			[]string{"dirA      exe1      fifo1     file1     linkdir   linkfile  "}},
		{"mark-directories", ms, ListStyle{Width: 80, MarkDirs: true},
			[]string{"dirA/     exe1      fifo1     file1     linkdir/  linkfile  "}},
		{"visible-stats", ms, ListStyle{Width: 80, VisibleStats: true, MarkDirs: true},
			[]string{"dirA/     exe1*     fifo1|    file1     linkdir@  linkfile@ "}},
		// 30 columns: three of 10 would fill the line, so two.
		{"columns", ms, ListStyle{Width: 30},
			[]string{"dirA      file1", "exe1      linkdir", "fifo1     linkfile"}},
		{"horizontal", ms, ListStyle{Width: 30, Horizontal: true},
			[]string{"dirA      exe1", "fifo1     file1", "linkdir   linkfile"}},
		{"one per line", ms[:2], ListStyle{Width: 0}, []string{"dirA", "exe1"}},
		{"row not full", words("ab", "cd", "ef"), ListStyle{Width: 9}, []string{"ab  ef", "cd  "}},
		{"words", words("echo", "exit"), ListStyle{Width: 80, VisibleStats: true}, []string{"echo  exit  "}},
		{"ellipsis", words("report-2024.txt", "report-2025.txt"), ListStyle{Width: 80, PrefixLen: 3},
			[]string{"...4.txt  ...5.txt  "}},
		{"prefix not longer", words("report-2024.txt", "report-2025.txt"), ListStyle{Width: 80, PrefixLen: 20},
			[]string{"report-2024.txt  report-2025.txt  "}},
		{"ellipsis before a dot", words("abcd.x", "abcdyy"), ListStyle{Width: 80, PrefixLen: 2}, []string{"___.x  ...yy  "}},
		{"coloured prefix", words("fifo1", "file1"), ListStyle{Width: 80, Prefix: "01;35"},
			[]string{"\x1b[01;35mfi\x1b[0m\x1b[Kfo1  \x1b[01;35mfi\x1b[0m\x1b[Kle1  "}},
		{"control character", words("a\x01b"), ListStyle{Width: 80}, []string{"a^Ab  "}},
	}
	for _, tt := range tests {
		if got := List(tt.ms, tt.style); !slices.Equal(got, tt.want) {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

// TestColors: colored-stats' colours, LS_COLORS over readline's own.
func TestColors(t *testing.T) {
	dir, _ := kinds(t)
	tests := []struct {
		ls, file, want string
	}{
		{"", "dirA", "\x1b[01;34m"},
		{"", "exe1", "\x1b[01;32m"},
		{"", "fifo1", "\x1b[33m"},
		{"", "file1", ""},
		{"", "linkdir", "\x1b[01;36m"},
		{"", "orphan", "\x1b[01;36m"},
		{"di=01;31", "dirA", "\x1b[01;31m"},
		{"ln=target:di=01;31", "linkdir", "\x1b[01;31m"},
		{"ln=target", "linkfile", ""},
		{"or=31", "orphan", "\x1b[31m"},
		{"*.txt=35", "notes.txt", "\x1b[35m"},
		{"*.txt=35", "file1", ""},
		{"fi=37", "file1", "\x1b[37m"},
	}
	for _, tt := range tests {
		if got := ParseColors(tt.ls).Start(filepath.Join(dir, tt.file)); got != tt.want {
			t.Errorf("LS_COLORS=%q %s: %q, want %q", tt.ls, tt.file, got, tt.want)
		}
	}
	if got := ParseColors("").PrefixColor(); got != "01;35" {
		t.Errorf("prefix colour %q, want a socket's", got)
	}
	if got := ParseColors("so=32:*.readline-colored-completion-prefix=04").PrefixColor(); got != "04" {
		t.Errorf("prefix colour %q", got)
	}
	line := List([]Match{{Text: "dirA/", Name: "dirA", Path: filepath.Join(dir, "dirA")}}, ListStyle{Width: 80, MarkDirs: true, Colors: ParseColors("")})
	if want := "\x1b[01;34mdirA\x1b[0m\x1b[K/ "; !slices.Equal(line, []string{want}) {
		t.Errorf("coloured: %q, want %q", line, want)
	}
}
