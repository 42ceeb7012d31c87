package shell

import (
	"context"
	"os"
	"sync/atomic"
	"syscall"

	"mvdan.cc/sh/v3/syntax"
)

// A -c string that is one simple command runs its program in qsh's own
// process, as bash does: `ssh host cmd` and git over ssh run `qsh -c
// 'cmd …'`, and the program replacing the shell spares a fork, a process
// that only waits, and the shell's own exit.

// lastKey marks the context of a -c string whose one command is the last
// thing the shell does. Its value is an *atomic.Bool set once a command
// that runs no program itself runs there (see [Shell.call]): then the
// programs are not that command's, but those of a builtin (source, eval)
// or a function, and what follows them must run.
type lastKey struct{}

// oneshotLive reports whether ctx is of a oneshot string whose programs
// may still replace the shell.
func oneshotLive(ctx context.Context) bool {
	off, ok := ctx.Value(lastKey{}).(*atomic.Bool)
	return ok && !off.Load()
}

// oneshotCall notes a command that the oneshot string of ctx, if any,
// runs; program reports whether that command may be a program (asked only
// then).
func oneshotCall(ctx context.Context, program func() bool) {
	if off, ok := ctx.Value(lastKey{}).(*atomic.Bool); ok && !off.Load() && !program() {
		off.Store(true)
	}
}

// oneshot reports whether f is one simple command that may replace the
// shell: not in the background, not negated, no redirections (interp would
// have to apply them) and a command name.
func oneshot(f *syntax.File) bool {
	if len(f.Stmts) != 1 {
		return false
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	return ok && !st.Background && !st.Coprocess && !st.Negated && len(st.Redirs) == 0 && len(call.Args) > 0
}

// replace runs the program at path in place of the shell, when ctx is the
// one command of a oneshot string and the program would get the shell's
// own standard files and directory (the process's, see [Shell.syncDir]). It returns only if it did not: the caller runs the
// program as usual (it also reports errors, e.g. for a file the kernel
// will not execute).
func (s *Shell) replace(ctx context.Context, path string, args, env []string, dir string, stdin, stdout, stderr any) {
	if !oneshotLive(ctx) || s.interactive || dir != s.dir ||
		stdin != os.Stdin || stdout != os.Stdout || stderr != os.Stderr {
		return
	}
	syscall.Exec(path, args, env)
}
