package shell

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/shell/completions"
)

// TestBindFileConditionals: $if, $else, $endif, $include and set keymap
// in an init file, as readline reads them (each case checked with bash
// 5.2's bind -f).
func TestBindFileConditionals(t *testing.T) {
	tests := []struct {
		name, rc string
		want     []string // bind -v lines
	}{
		{"program", "$if Bash\nset visible-stats on\n$endif\n", []string{"set visible-stats on"}},
		{"other program", "$if Gdb\nset visible-stats on\n$else\nset skip-completed-text on\n$endif\n",
			[]string{"set visible-stats off", "set skip-completed-text on"}},
		{"mode", "$if mode=vi\nset mark-directories off\n$endif\n$if mode=emacs\nset page-completions off\n$endif\n",
			[]string{"set mark-directories on", "set page-completions off"}},
		{"editing-mode first", "set editing-mode vi\n$if mode=vi\nset mark-directories off\n$endif\n",
			[]string{"set mark-directories off"}},
		{"term", "$if term=xterm\nset colored-stats on\n$endif\n$if term=rxvt\nset visible-stats on\n$endif\n",
			[]string{"set colored-stats on", "set visible-stats off"}},
		{"nested", "$if Bash\n$if term=rxvt\nset visible-stats on\n$else\nset colored-stats on\n$endif\n$endif\n",
			[]string{"set visible-stats off", "set colored-stats on"}},
		{"nested skipped", "$if Gdb\n$if term=xterm\nset visible-stats on\n$else\nset colored-stats on\n$endif\n$endif\n",
			[]string{"set visible-stats off", "set colored-stats off"}},
		{"version", "$if version >= 7.0\nset visible-stats on\n$endif\n$if version < 8\nset colored-stats on\n$endif\n",
			[]string{"set visible-stats on", "set colored-stats off"}},
		{"variable", "set show-all-if-ambiguous on\n$if show-all-if-ambiguous == on\nset visible-stats on\n$endif\n",
			[]string{"set visible-stats on"}},
		{"include", "$include INC\nset colored-stats on\n", []string{"set visible-stats on", "set colored-stats on"}},
		{"booleans", "set visible-stats On\nset colored-stats 1\nset page-completions yes\n",
			[]string{"set visible-stats on", "set colored-stats on", "set page-completions off"}},
		{"bell", "set bell-style none\n", []string{"set bell-style none"}},
		{"prefer-visible-bell", "set prefer-visible-bell on\n", []string{"set bell-style visible"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			inc := filepath.Join(dir, "inc")
			os.WriteFile(inc, []byte("set visible-stats on\n"), 0o644)
			rc := filepath.Join(dir, "inputrc")
			os.WriteFile(rc, []byte(strings.ReplaceAll(tt.rc, "INC", inc)), 0o644)
			s, _, out := newTestShell(t, []string{"TERM=xterm-256color bind -f " + rc, "bind -v"})
			s.REPL(context.Background())
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w+"\n") {
					t.Errorf("no %q in:\n%s", w, out)
				}
			}
		})
	}
}

// TestRlVarRefusals: a variable qsh's editor cannot follow is refused
// once, with why, for the values that ask for something; the values it
// follows anyway, and the variables it does, pass without a word.
func TestRlVarRefusals(t *testing.T) {
	quiet := []string{
		"set convert-meta off", "set input-meta on", "set output-meta on", "set meta-flag on",
		"set horizontal-scroll-mode off", "set show-mode-in-prompt off", "set enable-bracketed-paste off",
		"set bell-style visible", "set editing-mode emacs", "set keymap emacs", "set visible-stats on",
		"set colored-stats on", "set mark-symlinked-directories on", "set menu-complete-display-prefix on",
		"set completion-map-case on", "set show-all-if-unmodified on", "set emacs-mode-string E",
		"set vi-ins-mode-string I", "set enable-active-region off", "set echo-control-characters on",
	}
	refused := map[string]string{
		"set show-mode-in-prompt on":      "the prompt does not show the editing mode",
		"set horizontal-scroll-mode on":   "long lines wrap",
		"set convert-meta on":             "8-bit characters",
		"set output-meta off":             "8-bit characters",
		"set blink-matching-paren on":     "matching parenthesis",
		"set history-size 100":            "HISTSIZE",
		"set enable-keypad on":            "keypad",
		"set mark-modified-lines on":      "edited",
		"set echo-control-characters off": "stty -echoctl",
	}
	for _, line := range quiet {
		s, _, out := newTestShell(t, []string{"bind '" + line + "'; echo st=$?"})
		s.REPL(context.Background())
		if out.String() != "st=0\n" {
			t.Errorf("%s: %q", line, out)
		}
	}
	for line, why := range refused {
		s, _, out := newTestShell(t, []string{"bind '" + line + "'", "bind '" + line + "'", "bind -v | grep -c .; echo end"})
		s.REPL(context.Background())
		o := out.String()
		if n := strings.Count(o, "qsh's line editor cannot do this"); n != 1 || !strings.Contains(o, why) {
			t.Errorf("%s: said %d times, want once with %q:\n%s", line, n, why, o)
		}
	}
	s, _, out := newTestShell(t, []string{"bind 'set no-such-variable on'", "bind 'set bell-style loud'", "bind -v | grep bell-style"})
	s.REPL(context.Background())
	for _, w := range []string{"no-such-variable: unknown variable name", "bell-style: could not set value to `loud'", "set bell-style audible"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("no %q in:\n%s", w, out)
		}
	}
}

// fixedMatches is a Readline whose every Tab has ms, typed before the
// cursor.
func fixedMatches(typed string, texts ...string) completions.Readline {
	var ms []completions.Match
	for _, t := range texts {
		ms = append(ms, completions.Match{Text: t, Name: strings.TrimSuffix(t, " ")})
	}
	return completions.Readline{Programmable: func(line string, cursor int) ([]completions.Match, int, bool) {
		return ms, len(typed), true
	}}
}

// TestTabComplete: what complete does to the line with each variable, as
// readline's rl_complete does.
func TestTabComplete(t *testing.T) {
	tests := []struct {
		name  string
		vars  map[string]string
		line  string
		pos   int // -1: the end
		again bool
		typed string
		cands []string
		want  string // the line, | at the cursor
		list  bool
		bell  bool
	}{
		{name: "one", line: "ls fi", pos: -1, typed: "fi", cands: []string{"file1 "}, want: "ls file1 |"},
		{name: "none", line: "ls zz", pos: -1, typed: "zz", want: "ls zz|", bell: true},
		{name: "prefix", line: "ls rep", pos: -1, typed: "rep", cands: []string{"report-1 ", "report-2 "}, want: "ls report-|", bell: true},
		{name: "second tab after prefix", line: "ls report-", pos: -1, again: true, typed: "report-", cands: []string{"report-1 ", "report-2 "}, want: "ls report-|", list: true},
		{name: "first tab, nothing to add", line: "ls fi", pos: -1, typed: "fi", cands: []string{"fifo1 ", "file1 "}, want: "ls fi|", bell: true},
		{name: "show-all-if-ambiguous", vars: map[string]string{"show-all-if-ambiguous": "on"}, line: "ls rep", pos: -1, typed: "rep",
			cands: []string{"report-1 ", "report-2 "}, want: "ls report-|", list: true},
		{name: "show-all-if-unmodified, prefix", vars: map[string]string{"show-all-if-unmodified": "on"}, line: "ls rep", pos: -1, typed: "rep",
			cands: []string{"report-1 ", "report-2 "}, want: "ls report-|", bell: true},
		{name: "show-all-if-unmodified", vars: map[string]string{"show-all-if-unmodified": "on"}, line: "ls fi", pos: -1, typed: "fi",
			cands: []string{"fifo1 ", "file1 "}, want: "ls fi|", list: true},
		{name: "in a word", line: "ls fi1", pos: 4, typed: "f", cands: []string{"fifo1 ", "file1 "}, want: "ls fi|i1", bell: true},
		{name: "skip-completed-text", vars: map[string]string{"skip-completed-text": "on"}, line: "ls fi1", pos: 4, typed: "f",
			cands: []string{"fifo1 ", "file1 "}, want: "ls fi|1", bell: true},
		{name: "skip-completed-text, one", vars: map[string]string{"skip-completed-text": "on"}, line: "ls dA", pos: 4, typed: "d",
			cands: []string{"dirA/"}, want: "ls dirA/|A"},
		{name: "ignore-case keeps the typed case", vars: map[string]string{"completion-ignore-case": "on"}, line: "ls DOC", pos: -1, typed: "DOC",
			cands: []string{"docs/", "Documents/"}, want: "ls DOC|", bell: true},
		{name: "ignore-case", vars: map[string]string{"completion-ignore-case": "on"}, line: "ls REP", pos: -1, typed: "REP",
			cands: []string{"report-1 ", "Report-2 "}, want: "ls report-|", bell: true},
		{name: "map-case", vars: map[string]string{"completion-ignore-case": "on", "completion-map-case": "on"}, line: "ls my", pos: -1, typed: "my",
			cands: []string{"my-file ", "my_film "}, want: "ls my-fil|", bell: true},
		{name: "replaces the word", line: "cat **", pos: -1, typed: "**", cands: []string{"zebra/quokka.txt "}, want: "cat zebra/quokka.txt |"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tc := &tabCompleter{rl: fixedMatches(tt.typed, tt.cands...), rlVar: func(name string) string { return tt.vars[name] }}
			pos := tt.pos
			if pos < 0 {
				pos = len([]rune(tt.line))
			}
			r := tc.complete([]rune(tt.line), pos, tt.again)
			got := string(r.line[:r.pos]) + "|" + string(r.line[r.pos:])
			if got != tt.want || (len(r.list) > 0) != tt.list || r.bell != tt.bell {
				t.Errorf("got %q list=%v bell=%v, want %q list=%v bell=%v", got, len(r.list) > 0, r.bell, tt.want, tt.list, tt.bell)
			}
		})
	}
}

// TestMenuComplete: menu-complete and menu-complete-backward cycle
// through the matches and back to the word typed, as bash's do.
func TestMenuComplete(t *testing.T) {
	tests := []struct {
		vars map[string]string
		keys []int // 1 forward, -1 backward
		want []string
	}{
		{nil, []int{1, 1, 1, 1}, []string{"ls fifo1 ", "ls file1 ", "ls fi", "ls fifo1 "}},
		{nil, []int{-1, -1, -1}, []string{"ls file1 ", "ls fifo1 ", "ls fi"}},
		{nil, []int{1, 1, -1, -1}, []string{"ls fifo1 ", "ls file1 ", "ls fifo1 ", "ls fi"}},
		{map[string]string{"menu-complete-display-prefix": "on"}, []int{1, 1, 1}, []string{"ls fi", "ls fifo1 ", "ls file1 "}},
	}
	for _, tt := range tests {
		tc := &tabCompleter{rl: fixedMatches("fi", "fifo1 ", "file1 "), rlVar: func(name string) string { return tt.vars[name] }}
		line := []rune("ls fi")
		pos := len(line)
		var got []string
		for i, dir := range tt.keys {
			r := tc.menuComplete(line, pos, dir, i > 0)
			line, pos = r.line, r.pos
			got = append(got, string(line))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%v %v: %q, want %q", tt.vars, tt.keys, got, tt.want)
		}
	}
}

// TestSystemInitQuiet: a distribution's /etc/inputrc, which ~/.inputrc
// often includes, binds functions qsh's editor lacks (Debian's binds
// quoted-insert); they are skipped without a word at every start, while
// the same binding in the user's own file is said.
func TestSystemInitQuiet(t *testing.T) {
	const system = "/etc/inputrc"
	needs.File(t, system, "readline-common")
	data, err := os.ReadFile(system)
	if err != nil || !strings.Contains(string(data), "quoted-insert") {
		t.Skipf("%s binds no function qsh lacks", system)
	}
	own := filepath.Join(t.TempDir(), "inputrc")
	if err := os.WriteFile(own, []byte("$include "+system+"\n\"\\e[2~\": quoted-insert\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, _, out := newTestShell(t, []string{"bind -f " + own, "echo done"})
	s.REPL(context.Background())
	o := out.String()
	if strings.Contains(o, system) {
		t.Errorf("the system file's bindings were said:\n%s", o)
	}
	if !strings.Contains(o, own+": line 2: quoted-insert: qsh's line editor does not do it") {
		t.Errorf("the user's own binding was not said:\n%s", o)
	}
}
