package shell

import (
	"context"
	"io"
	"strings"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/shell/marks"
	"github.com/qsh-shell/qsh/shell/rewrite"
)

// markJobs marks a command line about to run (see package marks): its
// background statements, its $!, and with job control its jobs.
func (s *Shell) markJobs(f *syntax.File) *syntax.File {
	if s.jobs != nil {
		s.jobs.ran()
	}
	return s.markCode(f)
}

// markCode is [Shell.markJobs] for code the shell runs between command
// lines (PROMPT_COMMAND, a prompt's expansions, a key's command), which
// counts as no line for the warning about stopped jobs at exit.
func (s *Shell) markCode(f *syntax.File) *syntax.File {
	s.markBackgrounds(f)
	s.markCommandText(f)
	s.markSubshells(f)
	marks.File(f, s.programs())
	if s.jobs == nil {
		return f
	}
	// Functions defined elsewhere (the rc file, a sourced file): their
	// substitutions and $! too, once, before the line can call them.
	for _, body := range s.runner.Funcs {
		if !s.jobs.marked[body] {
			s.jobs.marked[body] = true
			marks.FuncBody(body, s.programs())
		}
	}
	return f
}

// programs is what marks asks to tell a program's name from the shell's
// own commands; nil without job control, which needs no more than $!.
func (s *Shell) programs() marks.Programs {
	if s.jobs == nil {
		return nil
	}
	return func(name string) bool {
		_, alias := s.aliases[name]
		return !alias && !interp.IsBuiltin(name) && !ownBuiltins[name] && !s.isFunc(name)
	}
}

// markEval marks an `eval` string (see package marks); the arguments come
// back unchanged when it needs no mark.
func (s *Shell) markEval(args []string) []string {
	src := strings.Join(args[1:], " ")
	if out, ok := rewrite.Text(src, ""); ok {
		src, args = out, []string{args[0], out}
	}
	if src, ok := marks.Eval(src, s.programs()); ok {
		args = []string{args[0], src}
	}
	if s.identified {
		if src, ok := markDashEval(strings.Join(args[1:], " ")); ok {
			args = []string{args[0], src}
		}
	}
	return args
}

// jobMarkBuiltin runs the job marks' builtin. With the statement's text it
// reserves a job and prints its token ([jobs.reserve]). Without, it comes
// right after a background statement started: for a simple command or a
// pipeline, it waits (as $! would, but only as long as [bgTable.settle]
// does) for the program to start, as bash forks it before the next
// command: so the `[n] pid` notice comes before what the next commands
// print, and they find the job. A compound statement is not waited for:
// builtins may run long before its first program, and a loop starting
// many would be slowed; job specs still wait for it (see
// [bgTable.settle]).
func (s *Shell) jobMarkBuiltin(ctx context.Context, hc interp.HandlerContext, args []string) error {
	if s.jobs == nil {
		return nil
	}
	if len(args) > 0 {
		_, err := io.WriteString(hc.Stdout, s.jobs.reserve(args[0]))
		return err
	}
	if tok := hc.Env.Get(marks.LastBgVar).String(); tok != "" {
		s.bgs.settleProgram(ctx, tok)
	}
	return nil
}
