package shell

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Login sources what a login shell reads: /etc/profile, then the first of
// ~/.qsh_profile and ~/.profile that exists.
func (s *Shell) Login(ctx context.Context) {
	s.source(ctx, "/etc/profile")
	home := s.Var("HOME")
	if home == "" {
		return
	}
	for _, name := range []string{".qsh_profile", ".profile"} {
		if s.source(ctx, filepath.Join(home, name)) {
			return
		}
	}
}

// RC sources ~/.qshrc, which interactive shells read.
func (s *Shell) RC(ctx context.Context) {
	if home := s.Var("HOME"); home != "" {
		s.source(ctx, filepath.Join(home, ".qshrc"))
	}
}

// Inputrc reads readline's init file, $INPUTRC or ~/.inputrc, as bash's
// line editor does before the rc file runs: key bindings and `set
// editing-mode vi`. What qsh's editor lacks there is skipped without a
// word, as readline skips what it does not know.
func (s *Shell) Inputrc(ctx context.Context) {
	path := s.Var("INPUTRC")
	if path == "" {
		home := s.Var("HOME")
		if home == "" {
			return
		}
		path = filepath.Join(home, ".inputrc")
	}
	if _, err := os.Stat(path); err != nil {
		return
	}
	prog, err := syntax.NewParser().Parse(strings.NewReader("builtin bind -f "+quote(path)+" 2>/dev/null"), "")
	if err == nil {
		s.runFile(ctx, prog)
	}
}

// RCFile sources path instead of ~/.qshrc (--rcfile).
func (s *Shell) RCFile(ctx context.Context, path string) {
	s.source(ctx, path)
}

// source runs the file at path in the session and reports whether it
// exists. Errors are printed as `file:line: message`; they never stop the
// shell.
func (s *Shell) source(ctx context.Context, path string) bool {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return false
	}
	if err != nil {
		s.errorf("%v", err)
		return true
	}
	fi, err := f.Stat()
	f.Close()
	if err == nil && fi.IsDir() {
		err = fmt.Errorf("%s: is a directory", path)
	}
	if err != nil {
		s.errorf("%v", err)
		return true
	}
	if s.interactive {
		// A Ctrl-C stops the file, not the shell; the REPL that
		// follows goes on catching.
		s.catchSignals()
	}
	// Run with the source builtin, so that `return` at its top level
	// works; a syntax error stops the file there, as in bash (see
	// [upToError]).
	prog, err := syntax.NewParser().Parse(strings.NewReader("source "+quote(path)), "")
	if err != nil {
		s.errorf("%v", err)
		return true
	}
	fctx, stop := s.foreground(ctx)
	defer stop()
	s.runFile(fctx, prog)
	if s.exitNow {
		s.exitNow = false
		// `exit` in a profile ends a login shell in bash; qsh keeps the
		// user's shell alive instead and says so.
		s.errorf("%s: exit ignored while starting up", path)
	}
	return true
}
