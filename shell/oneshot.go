package shell

import (
	"context"
	"os"
	"syscall"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// A -c string that is one simple command runs its program in qsh's own
// process, as bash does: `ssh host cmd` and git over ssh run `qsh -c
// 'cmd …'`, and the program replacing the shell spares a fork, a process
// that only waits, and the shell's own exit.

// lastKey marks the context of a -c string whose one command is the last
// thing the shell does.
type lastKey struct{}

// oneshot reports whether f is one simple command that may replace the
// shell: not in the background, not negated, no redirections (interp would
// have to apply them), and named by a literal word that is no builtin but
// exec: a builtin (source, eval, command…) may run programs that are not
// the last thing the shell does. A -c string has no functions yet.
func oneshot(f *syntax.File) bool {
	if len(f.Stmts) != 1 {
		return false
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Background || st.Coprocess || st.Negated || len(st.Redirs) > 0 || len(call.Args) == 0 {
		return false
	}
	name := call.Args[0].Lit()
	return name == "exec" || name != "" && !interp.IsBuiltin(name) && !ownBuiltins[name]
}

// replace runs the program at path in place of the shell, when ctx is the
// one command of a oneshot string and the program would get the shell's
// own standard files and directory (the process's, see [Shell.syncDir]).
// It returns only if it did not: the caller runs the program as usual (it
// also reports errors, e.g. for a file the kernel will not execute).
func (s *Shell) replace(ctx context.Context, path string, args, env []string, dir string, stdin, stdout, stderr any) {
	if ctx.Value(lastKey{}) == nil || s.interactive || dir != s.dir ||
		stdin != os.Stdin || stdout != os.Stdout || stderr != os.Stderr {
		return
	}
	syscall.Exec(path, args, env)
}
