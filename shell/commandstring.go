package shell

import (
	"context"
	"io"
	"strings"
)

// RunString runs a -c string and returns the shell's exit status. Lines
// whose first non-blank character is `?` go to the assistant; the rest
// runs as bash runs a -c string. (A -c string without `?` lines runs as a
// [Program].)
func (s *Shell) RunString(ctx context.Context, src string) int {
	return s.program(ctx, func(ctx context.Context) int { return s.runString(ctx, src) })
}

// RunScript runs the program read from r, named name in messages: a script
// file or commands on stdin, for an interactive shell started with one
// (qsh -i file). Script files are plain shell: `?` has no special meaning.
func (s *Shell) RunScript(ctx context.Context, r io.Reader, name string) int {
	return s.program(ctx, func(ctx context.Context) int {
		src, err := io.ReadAll(r)
		if err != nil {
			s.errorf("%s: %v", name, err)
			return 126
		}
		return s.run(ctx, string(src), name)
	})
}

// program runs a non-interactive program, catching Ctrl-C meanwhile, and
// then the EXIT trap.
func (s *Shell) program(ctx context.Context, run func(context.Context) int) int {
	s.sigs.start()
	defer s.sigs.stop()
	stop := s.foreground()
	st := run(ctx)
	stop()
	return s.finish(st)
}

// runString runs src's shell lines with the evaluator, a run of them at a
// time, and hands each `?` line between them to the assistant.
func (s *Shell) runString(ctx context.Context, src string) int {
	if !hasQuestion(src) {
		return s.run(ctx, src, s.name)
	}
	st := 0
	var buf strings.Builder
	flush := func() {
		if buf.Len() > 0 {
			st = s.run(ctx, buf.String(), s.name)
			buf.Reset()
		}
	}
	for _, line := range strings.SplitAfter(src, "\n") {
		if buf.Len() == 0 || !incomplete(buf.String()) {
			if text, ok := question(line); ok {
				flush()
				if s.exited() || ctx.Err() != nil {
					return st
				}
				qctx, qstop := s.cancellable(ctx)
				st = s.askLine(qctx, text)
				qstop()
				s.r.SetStatus(st)
				continue
			}
		}
		buf.WriteString(line)
	}
	flush()
	return st
}
