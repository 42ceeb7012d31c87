package shell

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
)

func TestHistRules(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		control string
		unset   bool
		ignore  string
		line    string
		prev    string // "" for no previous entry
		keep    bool
		private bool
	}{
		// Unset, qsh ignores blanks and duplicates (ignoreboth).
		{unset: true, line: " secret", keep: false, private: true},
		{unset: true, line: "\tsecret", keep: false, private: true},
		{unset: true, line: "ls", prev: "ls", keep: false},
		{unset: true, line: "ls", prev: "pwd", keep: true},
		// Set, as bash: empty keeps everything.
		{control: "", line: " secret", keep: true},
		{control: "", line: "ls", prev: "ls", keep: true},
		{control: "ignorespace", line: " x", keep: false, private: true},
		{control: "ignorespace", line: "x", prev: "x", keep: true},
		{control: "ignoredups", line: " x", keep: true},
		{control: "ignoredups", line: "x", prev: "x", keep: false},
		{control: "ignoredups:ignorespace", line: " x", keep: false, private: true},
		{control: "ignoreboth", line: " x", keep: false, private: true},
		{control: "erasedups", line: "x", prev: "x", keep: true},
		{control: "bogus", line: " x", keep: true},
		// HISTIGNORE: whole-line patterns, & the previous entry.
		{control: "", ignore: "ls:cd *", line: "ls", keep: false, private: true},
		{control: "", ignore: "ls:cd *", line: "ls -l", keep: true},
		{control: "", ignore: "ls:cd *", line: "cd /tmp", keep: false, private: true},
		{control: "", ignore: "*secret*", line: "export A=secret1", keep: false, private: true},
		{control: "", ignore: "&", line: "make", prev: "make", keep: false},
		{control: "", ignore: "&", line: "make", prev: "make test", keep: true},
		{control: "", ignore: "&", line: "&", keep: false},
		{control: "", ignore: "& *", line: "make x", prev: "make", keep: false},
		{control: "", ignore: `\&`, line: "&", prev: "x", keep: false, private: true},
		{control: "", ignore: "&", line: "a*b", prev: "a*b", keep: false},
		{control: "", ignore: "&", line: "aXb", prev: "a*b", keep: true},
		{control: "", ignore: "@(ls|pwd)", line: "pwd", keep: false, private: true},
		{control: "", ignore: "[", line: "[", keep: false, private: true}, // an unclosed [ is itself
		// The first line of several decides.
		{control: "", ignore: "for *", line: "for i in 1; do\n  echo $i\ndone", keep: false, private: true},
		{control: "ignorespace", line: "echo a\n echo b", keep: true},
	} {
		r := newHistRules(tc.control, !tc.unset, tc.ignore)
		if got := r.keep(tc.line, tc.prev, tc.prev != ""); got != tc.keep {
			t.Errorf("HISTCONTROL=%q (unset %v) HISTIGNORE=%q: keep(%q, prev %q) = %v", tc.control, tc.unset, tc.ignore, tc.line, tc.prev, got)
		}
		if got := r.private(tc.line); got != tc.private {
			t.Errorf("HISTCONTROL=%q (unset %v) HISTIGNORE=%q: private(%q) = %v", tc.control, tc.unset, tc.ignore, tc.line, got)
		}
	}
}

// TestHistoryLikeBash runs the same lines in an interactive bash and in
// qsh's REPL and compares what `history` lists.
func TestHistoryLikeBash(t *testing.T) {
	bash := needs.Tool(t, "bash")
	for _, lines := range [][]string{
		{"HISTCONTROL=ignorespace", "true a", " true b", "true a", "true a", "  true c"},
		{"HISTCONTROL=ignoredups", "true a", "true a", " true b", " true b", "true a"},
		{"HISTCONTROL=ignoreboth", "true a", " true b", "true a", "true c"},
		{"HISTCONTROL=erasedups", "true a", "true b", "true a", "true c", "true b"},
		{"HISTCONTROL=ignorespace:erasedups", "true a", " true a", "true b", "true a"},
		{"HISTCONTROL=", " true a", "true a", "true a"},
		{"HISTCONTROL=", "HISTIGNORE='true x*:&: *'", "true xy", "true a", "true a", " true b", "true x", "true c"},
		{"HISTCONTROL=", `HISTIGNORE='\&:true [ab]'`, "true a", "true c", "true \\&", "true b"},
		{"HISTCONTROL=ignoredups", "HISTIGNORE='@(true|:) q'", "true q", ": q", "true r", "true r"},
		{"HISTCONTROL=", "HISTIGNORE='*'", "true a", "HISTIGNORE=", "true b"},
	} {
		script := strings.Join(append(lines, "history"), "\n") + "\n"
		cmd := exec.Command(bash, "--norc", "--noprofile", "-i")
		cmd.Stdin = strings.NewReader(script)
		cmd.Env = []string{"HOME=" + t.TempDir(), "HISTFILE=/dev/null", "PATH=" + os.Getenv("PATH"), "TERM=dumb"}
		want, err := cmd.Output()
		if err != nil {
			t.Fatalf("bash: %v", err)
		}
		s, _, out := newTestShell(t, append(lines, "history"))
		s.REPL(context.Background())
		if got := out.String(); got != string(want) {
			t.Errorf("%q:\nqsh:\n%s\nbash:\n%s", lines, got, want)
		}
	}
}

// TestPrivateLine checks that a private line is in neither the history
// nor the record a question sends, while the lines around it are.
func TestPrivateLine(t *testing.T) {
	var asked []Question
	ask := func(ctx context.Context, q Question) error {
		asked = append(asked, q)
		return nil
	}
	s, r, _ := newTestShell(t, []string{"echo one", " echo two", "HISTIGNORE='*token*'", "echo token=x", "false", "? why"}, Ask(ask))
	s.REPL(context.Background())
	if want := []string{"echo one", "HISTIGNORE='*token*'", "false", "? why"}; !slices.Equal(r.history, want) {
		t.Errorf("history %q, want %q", r.history, want)
	}
	if len(asked) != 1 {
		t.Fatalf("asked %d questions", len(asked))
	}
	var lines []string
	for _, c := range asked[0].Record {
		lines = append(lines, c.Line)
	}
	if want := []string{"echo one", "HISTIGNORE='*token*'", "false"}; !slices.Equal(lines, want) {
		t.Errorf("record %q, want %q", lines, want)
	}
	data, _ := os.ReadFile(filepath.Join(s.Var("XDG_STATE_HOME"), "qsh", "history"))
	if bytes.Contains(data, []byte("two")) || bytes.Contains(data, []byte("token=x")) {
		t.Errorf("history file has a private line:\n%s", data)
	}
}

// TestPrivateQuestion checks that a question on a private line says so
// (nothing of its turn may be saved), keeps the commands the assistant ran
// out of the history, and that a command the user takes over from it
// starts with a blank, so it stays private too; `set +o history` keeps a
// leading blank private.
func TestPrivateQuestion(t *testing.T) {
	var asked []Question
	ask := func(ctx context.Context, q Question) error {
		asked = append(asked, q)
		if q.Text == "hush one" {
			q.Edit("true hushed")
		}
		return nil
	}
	s, r, _ := newTestShell(t, []string{"? public", " ? hush one", "", "set +o history", " ? hush two",
		"set -o history", "? public again"}, Ask(ask))
	s.REPL(context.Background())
	if len(asked) != 4 {
		t.Fatalf("asked %d questions", len(asked))
	}
	for i, want := range []bool{false, true, true, false} {
		if q := asked[i]; q.Private != want || (q.Remember == nil) != want {
			t.Errorf("question %q: private %v, remember %v", q.Text, q.Private, q.Remember != nil)
		}
	}
	for _, e := range r.history {
		if strings.Contains(e, "hush") {
			t.Errorf("history %q", r.history)
		}
	}
	for _, c := range asked[3].Record {
		if strings.Contains(c.Line, "hush") {
			t.Errorf("record has %q", c.Line)
		}
	}
}

// TestContextOff checks that QSH_AI_CONTEXT=off sends no record.
func TestContextOff(t *testing.T) {
	var asked []Question
	ask := func(ctx context.Context, q Question) error {
		asked = append(asked, q)
		return nil
	}
	cfg := DefaultConfig()
	cfg.AIContext = false
	s, _, _ := newTestShell(t, []string{"echo one", "? why"}, Ask(ask), Configure(cfg))
	s.REPL(context.Background())
	if len(asked) != 1 || len(asked[0].Record) != 0 || !asked[0].NoContext {
		t.Errorf("questions %+v", asked)
	}
}

// TestEraseDupsFile checks that erasedups leaves one copy of each entry
// in the file when the session ends.
func TestEraseDupsFile(t *testing.T) {
	s, r, _ := newTestShell(t, []string{"HISTCONTROL=erasedups", "true a", "true b", "true a"})
	s.REPL(context.Background())
	want := []string{"HISTCONTROL=erasedups", "true b", "true a"}
	if !slices.Equal(r.history, want) {
		t.Errorf("recall %q, want %q", r.history, want)
	}
	d, err := (&history{}).readAll(filepath.Join(s.Var("XDG_STATE_HOME"), "qsh", "history"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.entries, want) || slices.Contains(d.times, 0) {
		t.Errorf("file %q %v, want %q with times", d.entries, d.times, want)
	}
}

// TestContextVariable checks that QSH_AI_CONTEXT and QSH_AI_HISTORY set in
// the session count, and that a bad QSH_AI_CONTEXT (a safety setting:
// mistyped, it may have meant off) refuses the question with one line.
func TestContextVariable(t *testing.T) {
	var asked []Question
	ask := func(ctx context.Context, q Question) error {
		asked = append(asked, q)
		return nil
	}
	s, _, out := newTestShell(t, []string{"echo one", "? a", "QSH_AI_CONTEXT=off", "? b", "QSH_AI_CONTEXT=maybe", "? refused",
		"QSH_AI_CONTEXT=on QSH_AI_HISTORY=off", "? c"}, Ask(ask))
	s.REPL(context.Background())
	if len(asked) != 3 {
		t.Fatalf("asked %d questions", len(asked))
	}
	if asked[0].NoContext || len(asked[0].Record) == 0 || asked[0].Remember == nil {
		t.Errorf("question a: %+v", asked[0])
	}
	if !asked[1].NoContext || len(asked[1].Record) != 0 {
		t.Errorf("question b: %+v", asked[1])
	}
	if asked[2].NoContext || asked[2].Remember != nil {
		t.Errorf("question c: %+v", asked[2])
	}
	if !strings.Contains(out.String(), `qsh: ?: QSH_AI_CONTEXT="maybe": expected on or off; the assistant will not start until it is fixed`) {
		t.Errorf("no word about the bad value:\n%s", out.String())
	}
}
