package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/shell/marks"
	"github.com/qsh-shell/qsh/shell/rewrite"
)

// sources is the stack of files being sourced, innermost last, so that an
// error in an rc file or profile says where it is, as a syntax error does:
// interp's positions carry a line but no file name.
//
// interp's source builtin runs a file between opening and closing it, so
// [Shell.call] notes a `source FILE` about to run, the open handler pushes
// FILE when the builtin opens it, and closing the file pops it. (Wrapping
// the builtin instead, through HandlerContext.Builtin, would lose the end
// of a `return` in the file.)
type sources struct {
	mu    sync.Mutex
	next  string // the file a source call is about to open
	files []string
	// dashI is set once the shell has an i in $- (see [Shell.Identify]).
	dashI bool
	// programs is the shell's [Shell.programsAt]: the functions a file
	// defines are marked for job control as it is read.
	programs func(hc interp.HandlerContext) marks.Programs
}

// expect notes that the next file opened for reading is name, sourced.
func (f *sources) expect(name string) {
	f.mu.Lock()
	f.next = name
	f.mu.Unlock()
}

func (f *sources) top() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.files) == 0 {
		return ""
	}
	return f.files[len(f.files)-1]
}

// open is the session's open handler: next's, with sourced files tracked.
func (f *sources) open(next interp.OpenHandlerFunc) interp.OpenHandlerFunc {
	return func(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
		rwc, err := next(ctx, path, flag, perm)
		f.mu.Lock()
		defer f.mu.Unlock()
		name := f.next
		if name == "" || flag != os.O_RDONLY {
			return rwc, err
		}
		f.next = ""
		if err != nil {
			return rwc, err
		}
		f.files = append(f.files, name)
		var programs marks.Programs
		if f.programs != nil {
			programs = f.programs(interp.HandlerCtx(ctx))
		}
		return &sourced{ReadWriteCloser: markSourced(rwc, name, f.dashI, programs), pop: f.pop}, nil
	}
}

// markSourced is a sourced file as interp must run it (see [markText]):
// interp reads and parses it itself. name is the file as `source` was
// given it, for messages.
func markSourced(rwc io.ReadWriteCloser, name string, dashI bool, programs marks.Programs) io.ReadWriteCloser {
	src, err := io.ReadAll(rwc)
	text := markText(string(src), name, dashI, programs)
	return &markedFile{ReadWriteCloser: rwc, r: strings.NewReader(text), err: err}
}

// syntaxMark is the builtin that a sourced file's syntax error becomes
// (see [upToError]): it prints its arguments on stderr and fails with 2.
const syntaxMark = "__qsh_syntax"

// markText is a program's text with, in place (each line keeps its
// number, so that messages still say file:line), its background
// statements and $! marked (see [marks.Source]), its $- if dashI (see
// [markDashText]) and what package rewrite changes for interp: all from
// one parse. With programs (job control), the functions it defines are
// marked for it too (see [marks.Source]). A text with a syntax error is
// cut at it, as bash runs a sourced file (see [upToError]).
func markText(src, name string, dashI bool, programs marks.Programs) string {
	marked, dash, fix := marks.MayNeed(src, programs), dashI && mayHaveDash(src), rewrite.MayNeed(src)
	f, err := syntax.NewParser().Parse(strings.NewReader(src), name)
	for try := 0; err != nil && try < 10; try++ {
		// A substitution bash finds bad only when it runs it (git's
		// completion has zsh's ${(M)…} in a branch bash never takes) fails
		// the whole file for interp's parser.
		fixed, ok := badSubstitution(src, err)
		if !ok {
			break
		}
		src = fixed
		f, err = syntax.NewParser().Parse(strings.NewReader(src), name)
	}
	if err != nil {
		src, f = upToError(src, name, err)
	}
	if !marked && !dash && !fix {
		return src
	}
	var edits []marks.Edit
	check := false
	if marked {
		edits, check = marks.Source(f, src, programs)
	}
	// A $- mark is a letter, and package rewrite's text parses, as its
	// fuzz test checks: no parse again for them (bash-completion's 2,300
	// lines would take a third).
	if dash {
		edits = append(edits, dashEdits(f)...)
	}
	if fix {
		for _, e := range rewrite.Edits(f, src) {
			edits = append(edits, marks.Edit{Off: e.Off, End: e.End, Text: e.Text})
		}
	}
	out, _ := marks.Apply(src, name, edits, check)
	return out
}

// upToError is the text of a sourced file with a syntax error as bash
// runs it, command by command: the complete commands before the error
// run, then the error is reported, as `name:line: message`, and the file
// ends with status 2. Each line keeps its number. f is the text parsed.
func upToError(src, name string, err error) (string, *syntax.File) {
	lines := strings.SplitAfter(src, "\n")
	bad := errLine(err, len(lines))
	n, _ := completePrefix(lines, bad-1, name)
	text := strings.Join(lines[:n], "") + strings.Repeat("\n", max(bad-1-n, 0)) +
		syntaxMark + " " + quote(syntaxError(err, name)) + "\n"
	f, perr := syntax.NewParser().Parse(strings.NewReader(text), name)
	if perr != nil {
		// Not expected: the head parsed, the rest is a simple command.
		text = strings.Repeat("\n", bad-1) + syntaxMark + " " + quote(syntaxError(err, name)) + "\n"
		f, _ = syntax.NewParser().Parse(strings.NewReader(text), name)
	}
	return text, f
}

// badSubstitution replaces the ${…} that err, a parse error of src, is
// about, when bash would find it bad only when it runs it, with one that
// fails when run: ${__qsh_bad?bad substitution}. ok is false for another
// error.
func badSubstitution(src string, err error) (string, bool) {
	var pos syntax.Pos
	var perr syntax.ParseError
	var lerr syntax.LangError
	switch {
	case errors.As(err, &perr):
		pos = perr.Pos
	case errors.As(err, &lerr):
		pos = lerr.Pos
	}
	if !foundWhenRun(err) || !pos.IsValid() {
		return src, false
	}
	start := strings.LastIndex(src[:min(int(pos.Offset())+2, len(src))], "${")
	if start < 0 {
		return src, false
	}
	depth, end := 0, -1
	for i := start + 1; i < len(src) && end < 0; i++ {
		switch src[i] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				end = i + 1
			}
		case '\n':
			return src, false
		}
	}
	if end < 0 {
		return src, false
	}
	return src[:start] + "${__qsh_bad?bad substitution}" + src[end:], true
}

// markedFile reads the text of a file read already, then the error that
// ended that read, if any.
type markedFile struct {
	io.ReadWriteCloser
	r   *strings.Reader
	err error
}

func (m *markedFile) Read(p []byte) (int, error) {
	n, err := m.r.Read(p)
	if err == io.EOF && m.err != nil {
		err = m.err
	}
	return n, err
}

func (f *sources) pop() {
	f.mu.Lock()
	f.files = f.files[:len(f.files)-1]
	f.mu.Unlock()
}

// sourced is a file being sourced; closing it ends that.
type sourced struct {
	io.ReadWriteCloser
	once sync.Once
	pop  func()
}

func (s *sourced) Close() error {
	s.once.Do(s.pop)
	return s.ReadWriteCloser.Close()
}

// errPrefix starts an error message about the command at hc.Pos: the file
// being sourced and the line, "qsh: " otherwise. The line is right for
// commands of the file itself, not for those of a function it calls that
// another file defined.
func (s *Shell) errPrefix(hc interp.HandlerContext) string {
	if f := s.sources.top(); f != "" && hc.Pos.IsValid() {
		return fmt.Sprintf("%s:%d: ", f, hc.Pos.Line())
	}
	return "qsh: "
}
