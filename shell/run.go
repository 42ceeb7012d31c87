package shell

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/shell/marks"
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
		return s.runSource(ctx, fixed(src), "qsh: -c")
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
		f, pst := s.parse(fixed(buf.String()), "qsh: -c")
		buf.Reset()
		if pst != 0 {
			return pst
		}
		marks.File(f, nil) // $! only: no job control here
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
	return s.runSource(ctx, fixed(string(src)), name)
}

// runSource runs a script or -c string. Parsed whole, it runs as one
// program; with a syntax error in it, it runs as bash reads it, line by
// line: the lines before the error run, then the error is reported and
// the program ends, with status 2. An error bash only finds when it runs
// the line (a bad substitution or name, an arithmetic error) fails that
// line with status 1 instead, and the program goes on after it if the
// rest is whole: when it is not, the line may have begun a compound
// command, whose body must not run on its own.
func (s *Shell) runSource(ctx context.Context, src, name string) int {
	f, err := syntax.NewParser().Parse(strings.NewReader(src), name)
	if err == nil {
		marks.File(f, nil) // $! only: no job control here
		if oneshot(f) {
			ctx = context.WithValue(ctx, lastKey{}, true)
		}
		return s.runFile(ctx, f)
	}
	lines := strings.SplitAfter(src, "\n")
	bad := errLine(err, 1)
	if f := s.completeLines(lines, bad-1, name); f != nil {
		marks.File(f, nil) // $! only: no job control here
		st := s.runFile(ctx, f)
		if s.exited() || ctx.Err() != nil {
			return st
		}
	}
	_, st := s.parse(src, name)
	if st == 1 && !lineOnly(err, lines[bad-1]) && strings.Contains(err.Error(), "invalid func name") {
		return 2
	}
	if st != 1 || !lineOnly(err, lines[bad-1]) || bad >= len(lines) {
		return st
	}
	s.setStatus(ctx, 1)
	// Blank lines keep the positions.
	rest := strings.Repeat("\n", bad) + strings.Join(lines[bad:], "")
	f, err = syntax.NewParser().Parse(strings.NewReader(rest), name)
	if err != nil {
		// Not whole: it may be the body of what line bad began.
		_, st = s.parse(rest, name)
		return st
	}
	if len(f.Stmts) == 0 {
		return 1
	}
	marks.File(f, nil) // $! only: no job control here
	return s.runFile(ctx, f)
}

// lineOnly reports whether err, found on line, may fail the line alone:
// not when an arithmetic expression goes on after the line ("(( a" may be
// two subshells for bash), nor when a bad function name comes without a
// body (foo$x('z') is a syntax error for bash too).
func lineOnly(err error, line string) bool {
	if strings.Contains(err.Error(), "invalid func name") {
		_, after, _ := strings.Cut(line, "(")
		after = strings.TrimLeft(after, " \t")
		return strings.HasPrefix(after, ")")
	}
	if !foundWhenRun(err) {
		return strings.Count(line, "((") <= strings.Count(line, "))")
	}
	return true
}

// completeLines parses the first lines of a program, or as many of them
// as make complete commands; nil if none do.
func (s *Shell) completeLines(lines []string, n int, name string) *syntax.File {
	_, f := completePrefix(lines, n, name)
	return f
}

// completePrefix is how many of the first n lines make complete commands,
// and those lines parsed; 0 and nil if none do. A line that ends in a
// backslash goes on in the next, which is not among them: it is left out.
func completePrefix(lines []string, n int, name string) (int, *syntax.File) {
	for n > 0 {
		if strings.HasSuffix(strings.TrimRight(lines[n-1], "\r\n"), "\\") {
			n--
			continue
		}
		f, err := syntax.NewParser().Parse(strings.NewReader(strings.Join(lines[:n], "")), name)
		if err == nil {
			return n, f
		}
		n = min(n-1, errLine(err, n)-1)
	}
	return 0, nil
}

// errLine is the line a parse error is on; def if it has none.
func errLine(err error, def int) int {
	var perr syntax.ParseError
	var lerr syntax.LangError
	switch {
	case errors.As(err, &perr):
		return int(perr.Pos.Line())
	case errors.As(err, &lerr):
		return int(lerr.Pos.Line())
	}
	return def
}
