package shell

import (
	"context"
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
