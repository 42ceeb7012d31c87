package shell

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/shell/eval"
)

// boom is a builtin with a bug: it panics, as qsh's own code might on a
// user's line. Every place the shell hands code to the evaluator must
// survive it: the line is lost, with one line and status 2, never the
// session.
var boom = &eval.Builtin{Name: "boom", Run: func(*eval.B) int { panic("boom's bug") }}

func TestPanicCostsTheLine(t *testing.T) {
	s, _, out := newTestShell(t, []string{
		"x=kept",
		"boom; echo not-reached",
		`echo "st=$?"`,
		"set -- p1",
		"f() { local y=inner; boom; }; f arg",
		`echo "[$y|$1|$x]"`,
	}, Builtins(boom))
	if st := s.REPL(context.Background()); st != 0 {
		t.Errorf("the REPL ended with %d", st)
	}
	o := out.String()
	for _, want := range []string{"internal error: boom's bug", "st=2", "[|p1|kept]"} {
		if !strings.Contains(o, want) {
			t.Errorf("no %q in:\n%s", want, o)
		}
	}
	if strings.Contains(o, "not-reached") {
		t.Errorf("the line went on after the panic:\n%s", o)
	}
}

// TestPanicInHooks runs the panicking builtin from every place the shell
// hands code to the evaluator: ~/.qshrc, PROMPT_COMMAND, PS1, a trap, a
// key's command, a completion function, the assistant's subshell.
func TestPanicInHooks(t *testing.T) {
	s, _, out := newTestShell(t, []string{
		"PROMPT_COMMAND=boom",
		"unset PROMPT_COMMAND; PS1='$(boom)P2> '",
		"PS1='P3> '; trap boom USR1; kill -USR1 $$",
		":", // the trap may run before this line instead, and cost it
		"echo after-trap",
		"_pc() { boom; }; complete -F _pc pcmd",
		"echo alive",
	}, Builtins(boom))
	ctx := context.Background()
	home := s.Var("HOME")
	os.WriteFile(filepath.Join(home, ".qshrc"), []byte("export EARLY=set\nboom\nexport LATE=set\n"), 0o644)
	s.RC(ctx)
	if s.Var("EARLY") != "set" {
		t.Errorf("the rc file did not run: %s", out)
	}
	s.REPL(ctx)
	o := out.String()
	if n := strings.Count(o, "internal error: boom's bug"); n < 4 {
		t.Errorf("%d internal errors said:\n%s", n, o)
	}
	for _, want := range []string{"after-trap", "alive"} {
		if !strings.Contains(o, want) {
			t.Errorf("no %q in:\n%s", want, o)
		}
	}
	out.Reset()
	if cands, _, _ := s.tabComplete("pcmd x", 6, false); len(cands) != 0 {
		t.Errorf("a Tab that panicked offered %q", cands)
	}
	s.keyCommand(ctx, "boom", "line", 0)
	var run bytes.Buffer
	if st, _ := s.Run(ctx, "boom; echo not-reached", &run, &run, nil, nil); st != 2 ||
		!strings.Contains(run.String(), "internal error") || strings.Contains(run.String(), "not-reached") {
		t.Errorf("the assistant's subshell: status %d, %q", st, run.String())
	}
	if n := strings.Count(out.String(), "internal error: boom's bug"); n != 2 {
		t.Errorf("Tab and the key's command said %d internal errors:\n%s", n, out)
	}
	out.Reset()
	if s.run(ctx, "echo still-alive", ""); !strings.Contains(out.String(), "still-alive") {
		t.Errorf("after all that: %q", out)
	}
}
