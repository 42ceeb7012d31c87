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
	var programs marks.Programs
	if s.jobs != nil {
		programs = s.programs("")
	}
	marks.File(f, programs)
	return f
}

// programsAt is what marks asks, for code that the command of hc is about
// to run (an eval string, a sourced file), to tell a program's name from
// the shell's own commands; nil without job control, which needs no more
// than $!. The rc files and profiles run before the REPL starts job
// control, and the functions they define are marked for it all the same:
// they are marked when defined, not after (interp's table of functions
// is its own: Runner.Funcs, which mvdan.cc/sh v3.14 marks for removal in
// v4).
func (s *Shell) programsAt(hc interp.HandlerContext) marks.Programs {
	if s.jobs == nil && !s.jobsAhead() {
		return nil
	}
	return s.programs(s.bgToken(hc))
}

// programs is [Shell.programsAt] for a command in background statement
// tok, or in the shell's own goroutine if tok is "".
func (s *Shell) programs(tok string) marks.Programs {
	return func(name string) bool {
		if interp.IsBuiltin(name) || ownBuiltins[name] {
			return false
		}
		if tok != "" {
			// The aliases and functions are the shell's, being
			// written meanwhile: the statement has its own list
			// of functions, and aliases are not expanded there.
			return !s.bgs.isFunc(tok, name)
		}
		_, alias := s.aliases[name]
		return !alias && !s.isFunc(name)
	}
}

// markEval marks an `eval` string (see package marks); the arguments come
// back unchanged when it needs no mark.
func (s *Shell) markEval(hc interp.HandlerContext, args []string) []string {
	src := strings.Join(args[1:], " ")
	if out, ok := rewrite.Text(src, ""); ok {
		src, args = out, []string{args[0], out}
	}
	if src, ok := marks.Eval(src, s.programsAt(hc)); ok {
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
