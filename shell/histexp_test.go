package shell

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHistoryExpansion: lines read at the prompt are history-expanded as
// bash's are, shown when they change, kept expanded in the history; an
// error drops the line; :p shows without running; `?` lines are the
// assistant's, never expanded.
func TestHistoryExpansion(t *testing.T) {
	ask := func(ctx context.Context, q Question) error { return nil }
	s, r, out := newTestShell(t, []string{
		"echo one two",
		"!!",
		"echo !$",
		"^two^three",
		"echo a !nope",
		"echo !!:p",
		"? what about !!",
		"set +H",
		"echo !!",
	}, Ask(ask))
	s.REPL(context.Background())
	want := []string{"echo one two", "echo two", "echo three", "echo echo three",
		"? what about !!", "set +H", "echo !!"}
	if !slices.Equal(r.history, want) {
		t.Errorf("history %q, want %q", r.history, want)
	}
	o := out.String()
	for _, w := range []string{"one two\necho one two\none two\n", "echo two\ntwo\n", "echo three\nthree\n",
		"qsh: !nope: event not found\n", "echo echo three\n", "!!\n"} {
		if !strings.Contains(o, w) {
			t.Errorf("no %q in:\n%s", w, o)
		}
	}
	if strings.Contains(o, "\na !nope") {
		t.Errorf("a line whose expansion failed ran:\n%s", o)
	}
}

// TestIgnoreEOF: with ignoreeof (or IGNOREEOF=N) a Ctrl-D on an empty line
// says how to leave, up to N in a row; then the shell ends, as bash's.
func TestIgnoreEOF(t *testing.T) {
	s, _, out := newTestShell(t, []string{"IGNOREEOF=2", "echo one"})
	s.REPL(context.Background())
	if n := strings.Count(out.String(), `Use "exit" to leave the shell.`); n != 2 {
		t.Errorf("said %d times:\n%s", n, out)
	}
}

// TestPS1BeforeRC: the rc files see bash's default PS1 (Debian's
// /etc/bash.bashrc returns when it is empty); at the prompt, qsh's own.
func TestPS1BeforeRC(t *testing.T) {
	s, err := New(Stdio(nil, &bytes.Buffer{}, &bytes.Buffer{}), Environ([]string{"HOME=" + t.TempDir()}), Interactive(true),
		Reader(&scripted{lines: []string{`v=$PS1`}}))
	if err != nil {
		t.Fatal(err)
	}
	if v := s.Var("PS1"); v != bashPS1 {
		t.Errorf("PS1 for the rc files: %q", v)
	}
	s.REPL(context.Background())
	if v := s.Var("v"); v != "" {
		t.Errorf("PS1 at the prompt: %q", v)
	}
}

// TestRefusedOptions: what qsh does not do is said, never accepted and
// ignored silently: shopt -s cdspell fails with a line; a readline
// variable its editor does not follow, turned on, is kept for bind -v and
// said once.
func TestRefusedOptions(t *testing.T) {
	s, _, out := newTestShell(t, []string{
		"shopt -s cdspell; echo st=$?",
		"bind 'set show-mode-in-prompt on'; bind 'set show-mode-in-prompt on'",
		"bind -v | grep show-mode-in-prompt",
	})
	s.REPL(context.Background())
	o := out.String()
	for _, w := range []string{"shopt: cdspell: qsh does not correct spelling", "st=1", "set show-mode-in-prompt on"} {
		if !strings.Contains(o, w) {
			t.Errorf("no %q in:\n%s", w, o)
		}
	}
	if n := strings.Count(o, "show-mode-in-prompt on: qsh's line editor cannot do this"); n != 1 {
		t.Errorf("said %d times:\n%s", n, o)
	}
}

// TestAutocd: shopt -s autocd runs cd for a directory's name, saying so,
// as bash does.
func TestAutocd(t *testing.T) {
	s, _, out := newTestShell(t, []string{"mkdir sub; shopt -s autocd", "sub", "pwd"})
	s.REPL(context.Background())
	if o := out.String(); !strings.Contains(o, "cd -- sub\n") || !strings.Contains(o, "/sub\n") {
		t.Errorf("output:\n%s", o)
	}
}

// TestHistoryShared: history -n takes the lines other sessions wrote to
// the shared file since, not the session's own, which it already has
// (bash's PROMPT_COMMAND='history -a; history -n' idiom).
func TestHistoryShared(t *testing.T) {
	file := filepath.Join(t.TempDir(), "history")
	cfg := DefaultConfig()
	cfg.HistFile = file
	a, _, _ := newTestShell(t, []string{"echo from-a"}, Configure(cfg))
	rb := &scripted{lines: []string{"echo from-b", "history -n", "history"}}
	b, _, outB := newTestShell(t, nil, Configure(cfg), Reader(&meanwhile{scripted: rb, at: 2, f: func() {
		a.REPL(context.Background()) // another terminal, while b waits for its second line
	}}))
	b.REPL(context.Background())
	want := "    1  echo from-b\n    2  history -n\n    3  echo from-a\n    4  history\n"
	if got := outB.String(); !strings.Contains(got, want) {
		t.Errorf("b's history:\n%s\nwant:\n%s", got, want)
	}
}

// meanwhile is a scripted reader that runs f before its at-th line.
type meanwhile struct {
	*scripted
	at, n int
	f     func()
}

func (m *meanwhile) ReadLine(prompt string) (string, error) {
	if m.n++; m.n == m.at {
		m.f()
	}
	return m.scripted.ReadLine(prompt)
}
