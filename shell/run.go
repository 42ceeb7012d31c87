package shell

import (
	"bytes"
	"context"
	"io"
	"strings"
)

// RunString runs a `-c` string and returns the shell's exit status. Lines
// whose first non-blank character is `?` go to the assistant; without such
// lines the string runs as one program, as in bash.
func (s *Shell) RunString(ctx context.Context, src string) int {
	return s.program(ctx, func(ctx context.Context) int { return s.runString(ctx, src) })
}

// program runs a non-interactive program and then the EXIT trap. Ctrl-C
// is handled as bash does: while a program runs in the foreground, it is
// that program's to handle (a python REPL run by `ssh -t host python3`
// keeps going); if the program dies of it, or no program was running,
// the shell stops with status 130.
func (s *Shell) program(ctx context.Context, run func(context.Context) int) int {
	defer s.catchSignalsSoon(catchDelay)()
	fctx, done := s.foreground(ctx)
	st := run(fctx)
	if fctx.Err() != nil {
		st = 130
	}
	done()
	return s.finish(ctx, st)
}

func (s *Shell) runString(ctx context.Context, src string) int {
	if !hasQuestion(src) {
		f, st := s.parse(src, "qsh: -c")
		if st != 0 {
			return st
		}
		s.markPids(f)
		if oneshot(f) {
			ctx = context.WithValue(ctx, lastKey{}, true)
		}
		return s.runFile(ctx, f)
	}
	st := 0
	var buf strings.Builder
	lines := strings.SplitAfter(src, "\n")
	for i, line := range lines {
		if buf.Len() == 0 {
			if text, ok := question(line); ok {
				st = s.askLine(ctx, text)
				s.setStatus(ctx, st)
				continue
			}
		}
		buf.WriteString(line)
		if incomplete(buf.String()) && i < len(lines)-1 {
			continue
		}
		f, pst := s.parse(buf.String(), "qsh: -c")
		buf.Reset()
		if pst != 0 {
			return pst
		}
		s.markPids(f)
		st = s.runFile(ctx, f)
		if s.exited() || ctx.Err() != nil {
			break
		}
	}
	return st
}

// RunScript runs the program read from r, named name in messages: a script
// file or commands on stdin. Script files are plain shell: `?` has no
// special meaning.
func (s *Shell) RunScript(ctx context.Context, r io.Reader, name string) int {
	return s.program(ctx, func(ctx context.Context) int { return s.runScript(ctx, r, name) })
}

func (s *Shell) runScript(ctx context.Context, r io.Reader, name string) int {
	src, err := io.ReadAll(r)
	if err != nil {
		s.errorf("%s: %v", name, err)
		return 126
	}
	// Like bash, refuse a file with a NUL byte in its first line: it is a
	// program, not a script.
	if line, _, _ := bytes.Cut(src, []byte("\n")); bytes.IndexByte(line, 0) >= 0 {
		s.errorf("%s: cannot execute binary file", name)
		return 126
	}
	f, st := s.parse(string(src), name)
	if st != 0 {
		return st
	}
	s.markPids(f)
	return s.runFile(ctx, f)
}
