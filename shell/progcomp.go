package shell

import (
	"context"
	"os"

	"golang.org/x/sys/unix"

	"github.com/qsh-shell/qsh/shell/completions"
	"github.com/qsh-shell/qsh/shell/eval"
)

// Tab with programmable completion. The line editor asks on its own
// goroutine while the shell waits for the line, so the evaluator is idle:
// the compspec's function runs in it, as in bash, and what it defines
// (bash-completion loads a command's completions on its first Tab) stays.

// tabRequest is one Tab: the line and what the compspec made of it.
type tabRequest struct {
	line   string
	cursor int
	ctype  int // COMP_TYPE
	words  completions.Words
	// Set by progcomp: whether a compspec applied, what it generated and
	// its options as compopt left them.
	found   bool
	matches []string
	opts    completions.Options
}

// tabComplete is programmable completion for line with the cursor at byte
// offset cursor; again is set for the Tab that lists the candidates (bash's
// COMP_TYPE 63): a second Tab on the same line. ok is false when no compspec applies, or when it found
// nothing and asks for the default completions (-o default or
// bashdefault), or `shopt -u progcomp` turned it off: qsh's own
// completion answers then.
func (s *Shell) tabComplete(line string, cursor int, again bool) (cands []string, replace int, ok bool) {
	ms, replace, ok := s.tabMatches(line, cursor, again)
	return completions.Texts(ms), replace, ok
}

// tabMatches is [Shell.tabComplete] with what a listing shows of each
// candidate.
func (s *Shell) tabMatches(line string, cursor int, again bool) (cands []completions.Match, replace int, ok bool) {
	if len(s.comp.specs.list()) == 0 || !s.optNow("progcomp") {
		return nil, 0, false
	}
	breaks := completions.DefaultWordBreaks
	if v, ok := s.r.Get("COMP_WORDBREAKS"); ok {
		breaks = v
	}
	req := &tabRequest{line: line, cursor: cursor, ctype: 9}
	if again {
		req.ctype = 63
	}
	req.words = completions.Split(line, cursor, breaks)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	defer s.interruptible(cancel)()
	s.runTab(ctx, req)
	if !req.found {
		return nil, 0, false
	}
	if len(req.matches) == 0 && req.opts&(completions.Default|completions.BashDefault) != 0 {
		return nil, 0, false
	}
	cands, replace = completions.Replies(req.matches, req.words, req.opts, s.Dir(), s.Var("HOME"))
	return cands, replace, true
}

// interruptible lets Ctrl-C call cancel while a completion runs, as it
// stops a command line: the line editor reads no keys meanwhile, so the
// terminal makes the Ctrl-C a SIGINT again for that time (the editor has
// it raw). It returns what puts things back.
func (s *Shell) interruptible(cancel context.CancelFunc) (restore func()) {
	s.mu.Lock()
	prev := s.cancel
	s.cancel = cancel
	s.mu.Unlock()
	signals := func() {}
	if f, ok := s.stdin.(*os.File); ok && s.terminal {
		signals = terminalSignals(f)
	}
	return func() {
		signals()
		s.mu.Lock()
		s.cancel = prev
		s.mu.Unlock()
	}
}

// terminalSignals turns the terminal's signal keys on and returns what
// turns them back off.
func terminalSignals(f *os.File) func() {
	rc, err := f.SyscallConn()
	if err != nil {
		return func() {}
	}
	var old *unix.Termios
	rc.Control(func(fd uintptr) {
		t, err := unix.IoctlGetTermios(int(fd), ioctlGetTermios)
		if err != nil || t.Lflag&unix.ISIG != 0 {
			return
		}
		old = t
		on := *t
		on.Lflag |= unix.ISIG
		unix.IoctlSetTermios(int(fd), ioctlSetTermios, &on)
	})
	if old == nil {
		return func() {}
	}
	return func() {
		rc.Control(func(fd uintptr) { unix.IoctlSetTermios(int(fd), ioctlSetTermios, old) })
	}
}

// runTab runs req's compspec in the evaluator, with no standard input
// (the line editor has the terminal), and keeps $? as it was. A panic in
// the completion's code is the evaluator's to contain: it costs one line
// and offers nothing.
func (s *Shell) runTab(ctx context.Context, req *tabRequest) {
	st := s.r.Status()
	s.r.SetStdio(nil, s.stdout, s.stderr)
	defer s.r.SetStdio(s.stdin, s.stdout, s.stderr)
	s.r.Aside(ctx, func() { s.progcomp(ctx, req) })
	if ctx.Err() != nil {
		req.found, req.matches = true, nil // stopped: nothing to offer
	}
	s.r.SetStatus(st)
}

// progcomp answers a Tab: it finds the compspec for the command the cursor
// is in (the -E one for an empty line, the -I one for the command word),
// generates with it and, when its function returned 124 after registering
// another compspec for the command (bash-completion's loader does), once
// more with that one.
func (s *Shell) progcomp(ctx context.Context, req *tabRequest) {
	c := &s.comp
	w := &req.words
	cmd := w.Words[0]
	var name string
	var sp completions.Spec
	var ok bool
	switch {
	case w.CWord == 0 && len(w.Words) == 1 && cmd == "":
		name = emptySpec
		sp, ok = c.specs.get(name)
	case w.CWord == 0:
		name = initialSpec
		sp, ok = c.specs.get(name)
	default:
		name, sp, ok = c.compspecFor(cmd)
	}
	if !ok {
		return
	}
	text := w.Line[w.Start:w.Point]
	prev := ""
	if w.CWord > 0 {
		prev = w.Words[w.CWord-1]
	}
	b := &eval.B{Args: []string{"complete"}, Ctx: ctx, R: s.r}
	for range 3 {
		call := &compCall{word: completions.Unquote(text), cmd: cmd, text: text, prev: prev,
			line: w, ctype: req.ctype, opts: sp.Options}
		req.found = true
		c.tab = call
		req.matches, _ = c.generate(b, sp, call)
		c.tab = nil
		req.opts = call.opts
		if sp.Actions&(completions.File|completions.Directory) != 0 {
			req.opts |= completions.FileNames // as readline treats them in bash
		}
		if !call.retry || w.CWord == 0 {
			break
		}
		again, nsp, ok := c.compspecFor(cmd)
		if !ok || again == name && nsp == sp {
			break
		}
		name, sp = again, nsp
	}
}
