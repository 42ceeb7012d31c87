package shell

import (
	"slices"
	"strings"
	"testing"
)

// Aliases whose value is more than words (a list, a pipe) run at the
// prompt as bash runs them; word aliases still work in functions.
func TestAliasesWithOperators(t *testing.T) {
	s, _, out := newTestShell(t, []string{
		"alias u='echo one && echo two'",
		"u",
		"alias p='echo piped | tr a-z A-Z'",
		"p; p",
		"alias ll='echo ll-ran'",
		"f() { ll; }",
		"f",
		"alias loop='loop2; echo loop'",
		"alias loop2='echo l2'",
		"loop",
		"alias",
	})
	s.REPL(t.Context())
	o := out.String()
	for _, want := range []string{"one\ntwo\n", "PIPED\nPIPED\n", "ll-ran\n", "l2\nloop\n",
		"alias ll='echo ll-ran'\nalias loop='loop2; echo loop'\n"} {
		if !strings.Contains(o, want) {
			t.Errorf("output lacks %q:\n%s", want, o)
		}
	}
}

func TestExpandAliases(t *testing.T) {
	s, _, _ := newTestShell(t, nil)
	s.aliases = map[string]string{"u": "a && b", "w": "echo words", "r": "r; x"}
	for _, tt := range []struct{ in, want string }{
		{"u", "a && b"},
		{"u; u", "a && b; a && b"},
		{"echo u", "echo u"},
		{"'u'", "'u'"},
		{"w", "w"}, // interp's
		{"r", "r; x"},
		{"if true; then u; fi", "if true; then a && b; fi"},
		{"X=1 u", "X=1 a && b"}, // as bash: X applies to a only
	} {
		if got := s.expandAliases(tt.in); got != tt.want {
			t.Errorf("expandAliases(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestExpandAliasesNames checks the names ExpandAliases reports, for the
// confirmation line: each alias once, in order, nested ones too.
func TestExpandAliasesNames(t *testing.T) {
	aliases := map[string]string{"ll": "ls -l", "la": "ll -a", "ls": "ls --color", "both": "ll; la"}
	lookup := func(name string) (string, bool) { v, ok := aliases[name]; return v, ok }
	for _, tt := range []struct {
		in, want string
		names    []string
	}{
		{"la x", "ls --color -l -a x", []string{"la", "ll", "ls"}},
		{"both", "ls --color -l; ls --color -l -a", []string{"both", "ll", "ls", "la"}},
		{"ls", "ls --color", []string{"ls"}},
		{`\ll`, `\ll`, nil},
		{"make", "make", nil},
	} {
		got, names := ExpandAliases(tt.in, lookup)
		if got != tt.want || !slices.Equal(names, tt.names) {
			t.Errorf("ExpandAliases(%q) = %q %q, want %q %q", tt.in, got, names, tt.want, tt.names)
		}
	}
}
