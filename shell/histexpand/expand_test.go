package histexpand

import (
	"strings"
	"testing"
)

var hist = []string{
	"echo a b c",
	"ls -l /tmp/foo.txt",
	"git commit -m 'fix the bug' && git push",
}

// Each expectation was checked with bash 5.2 (history -p, or the line
// typed to an interactive bash for errors, :p and continuation lines).
func TestExpand(t *testing.T) {
	tests := []struct {
		line string
		o    Options
		want string
		p    bool   // :p
		err  string // the message after "bash: "
	}{
		{line: "no expansion here", want: "no expansion here"},
		{line: "sudo !!", want: "sudo git commit -m 'fix the bug' && git push"},
		{line: "!-2", want: "ls -l /tmp/foo.txt"},
		{line: "!1", want: "echo a b c"},
		{line: "!2", o: Options{Base: 2}, want: "echo a b c"},
		{line: "!ec", want: "echo a b c"},
		{line: "!?foo?:t", want: "foo.txt"},
		{line: "!?tmp?:% x", want: "/tmp/foo.txt x"},
		{line: "vi !$", want: "vi push"},
		{line: "!ls:$:h", want: "/tmp"},
		{line: "!ls:$:t:r", want: "foo"},
		{line: "!ls:$:e", want: ".txt"},
		{line: "!ls:^", want: "-l"},
		{line: "!ls:*", want: "-l /tmp/foo.txt"},
		{line: "!!:1-3", want: "commit -m 'fix the bug'"},
		{line: "!!:3*", want: "'fix the bug' && git push"},
		{line: "!!:2-", want: "-m 'fix the bug' && git"},
		{line: "!!:36", want: "push"}, // 36 is '$' to bash
		{line: "!!:q", want: `'git commit -m '\''fix the bug'\'' && git push'`},
		{line: "!ls:x", want: "'ls' '-l' '/tmp/foo.txt'"},
		{line: "!ls:p", want: "ls -l /tmp/foo.txt", p: true},
		{line: "!ls:s/foo/bar/", want: "ls -l /tmp/bar.txt"},
		{line: "!ls:s/o/[&]/", want: "ls -l /tmp/f[o]o.txt"},
		{line: "!ls:s/o/\\&/", want: "ls -l /tmp/f&o.txt"},
		{line: "!ls:gs/o/0/", want: "ls -l /tmp/f00.txt"},
		{line: "!ls:s|/|:|", want: "ls -l :tmp/foo.txt"},
		{line: "^bug^bar^", want: "git commit -m 'fix the bar' && git push"},
		{line: "^bug^feature", want: "git commit -m 'fix the feature' && git push"},
		{line: "cp a.txt !#:1:r.bak", want: "cp a.txt a.bak"},
		{line: "x !#", want: "x x "},
		{line: "echo 'no !! here' \\!! \"but !! here\"", want: "echo 'no !! here' \\!! \"but git commit -m 'fix the bug' && git push here\""},
		{line: `echo "wow!"`, want: `echo "wow!"`},
		{line: "echo ! != !=x", want: "echo ! != !=x"},
		{line: "ls [!a]* ${!v} $!", want: "ls [!a]* ${!v} $!"},
		{line: "ls !(x)", o: Options{Extglob: true}, want: "ls !(x)"},
		{line: "ls !(x)", err: "!: event not found"},
		{line: `echo "$(echo '!!')"`, want: `echo "$(echo '!!')"`},
		{line: "echo x #!!", want: "echo x #!!"},
		{line: "echo x#!!", want: "echo x#git commit -m 'fix the bug' && git push"},
		{line: "%-1:0 %$ !!", o: Options{Chars: "%^#"}, want: "git push !!"},
		{line: "@bug@x@", o: Options{Chars: "!@#"}, want: "git commit -m 'fix the x' && git push"},
		{line: "x ;!!", o: Options{Chars: "!^;"}, want: "x ;!!"},
		// A command's second line, inside quotes its first line opened.
		{line: `y" '!!' !!`, o: Options{Quote: '"'}, want: `y" '!!' !!`},
		{line: `!! y" !!`, o: Options{Quote: '"'}, want: `echo a b c y" echo a b c`},
		{line: `!! y' "!!" '!!'`, o: Options{Quote: '\''}, want: `!! y' "echo a b c" '!!'`},

		{line: "!nope", err: "!nope: event not found"},
		{line: "!9", err: "!9: event not found"},
		{line: "!!:9", err: ":9: bad word specifier"},
		{line: "!!:Q", err: "Q: unrecognized history modifier"},
		{line: "!!:", err: ": unrecognized history modifier"},
		{line: "!!:s/zzz/y/", err: ":s/zzz/y/: substitution failed"},
		{line: "^zzz^y^", err: ":s^zzz^y^: substitution failed"},
		{line: "!!:&", err: ":&: no previous substitution"},
	}
	for _, tt := range tests {
		h := hist
		if tt.o.Quote != 0 {
			h = hist[:1]
		}
		out, p, err := Expand(tt.line, h, tt.o)
		var msg string
		if err != nil {
			msg = err.Error()
		}
		if msg != tt.err || (err == nil && (out != tt.want || p != tt.p)) {
			t.Errorf("Expand(%q) = %q, %v, %q; want %q, %v, %q", tt.line, out, p, msg, tt.want, tt.p, tt.err)
		}
	}
}

// TestState checks what carries from line to line: searches and
// substitutions, as in bash.
func TestState(t *testing.T) {
	st := &State{}
	steps := []struct{ line, want, err string }{
		{line: "!!:&", err: ":&: no previous substitution"},
		{line: "!?foo?", want: "ls -l /tmp/foo.txt"},
		{line: "!??:%", want: "/tmp/foo.txt"},             // the last search again, and its word
		{line: "!ls:s//bar/", want: "ls -l /tmp/bar.txt"}, // an empty pattern is the search
		{line: "!ls:s/o/0/", want: "ls -l /tmp/f0o.txt"},
		{line: "!ls:&", want: "ls -l /tmp/f0o.txt"},
		{line: "!ls:g&", want: "ls -l /tmp/f00.txt"},
		{line: "^^X^", want: "git cXmmit -m 'fix the bug' && git push"}, // ^^ is the last pattern
	}
	for _, s := range steps {
		out, _, err := Expand(s.line, hist, Options{State: st})
		var msg string
		if err != nil {
			msg = err.Error()
		}
		if out != s.want || msg != s.err {
			t.Errorf("Expand(%q) = %q, %q; want %q, %q", s.line, out, msg, s.want, s.err)
		}
	}
}

func TestArgs(t *testing.T) {
	line := `git commit -m "a b" 2>&1 | tee log # note`
	tests := []struct {
		n    int
		want string
	}{
		{0, "git"}, {1, "commit"}, {3, `"a b"`}, {4, "2>&1"}, {5, "|"}, {6, "tee"}, {7, "log"}, {8, ""},
		{-1, "tee"}, {-7, "git"}, {-8, ""}, {lastWord, "log"},
	}
	for _, tt := range tests {
		if got := NthArg(line, tt.n); got != tt.want {
			t.Errorf("NthArg(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
	if got := LastArg(line); got != "log" {
		t.Errorf("LastArg = %q, want log", got)
	}
	for _, l := range []string{"", "   ", "# only a comment"} {
		if got := LastArg(l); got != "" {
			t.Errorf("LastArg(%q) = %q, want nothing", l, got)
		}
	}
	// The words are !!'s words.
	for n := range 8 {
		out, _, _ := Expand("!!:"+string(rune('0'+n)), []string{line}, Options{})
		if want := NthArg(line, n); want != "" && out != want {
			t.Errorf("!!:%d = %q, NthArg = %q", n, out, want)
		}
	}
}

// TestLong checks that a line that doubles itself stops at the limit
// rather than taking all memory.
func TestLong(t *testing.T) {
	line := "x" + strings.Repeat(" !#", 40)
	if _, _, err := Expand(line, nil, Options{}); err == nil {
		t.Fatal("no error for a line of 2^40 bytes")
	}
}
