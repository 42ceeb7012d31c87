package shell

import (
	"context"
	"os"
	"path/filepath"
)

// Login sources what a login shell reads: /etc/profile, then the first of
// ~/.qsh_profile and ~/.profile that exists.
func (s *Shell) Login(ctx context.Context) {
	for _, path := range profiles(s.r) {
		s.source(ctx, path)
	}
}

// RC sources ~/.qshrc, which interactive shells read.
func (s *Shell) RC(ctx context.Context) {
	if home := s.Var("HOME"); home != "" {
		s.source(ctx, filepath.Join(home, ".qshrc"))
	}
}

// Inputrc reads readline's init file, $INPUTRC or ~/.inputrc, as bash's
// line editor does before the rc file runs: key bindings, variables,
// conditionals. What qsh's editor cannot do there is said, a line each,
// and skipped.
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
	st := s.r.Status()
	s.run(ctx, "builtin bind -f "+singleQuote(path), "inputrc")
	s.r.SetStatus(st)
}

// RCFile sources path instead of ~/.qshrc (--rcfile).
func (s *Shell) RCFile(ctx context.Context, path string) {
	s.source(ctx, path)
}

// source runs the file at path in the session as the source builtin
// would, and reports whether it exists. Errors are reported as bash
// reports them; they never stop the shell, and a Ctrl-C stops the file,
// not the shell.
func (s *Shell) source(ctx context.Context, path string) bool {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return false
	}
	if err != nil {
		s.errorf("%s: %s", path, errText(errno(err)))
		return true
	}
	if s.interactive {
		s.sigs.start()
	}
	defer s.foreground()()
	s.r.Source(path, path, data, nil, false)
	s.syncDir()
	if exited, _ := s.r.Exited(); exited && s.interactive {
		// `exit` in a profile ends a login shell in bash; qsh keeps the
		// user's shell alive instead and says so.
		s.r.ClearExit()
		s.errorf("%s: exit ignored while starting up", path)
	}
	return true
}
