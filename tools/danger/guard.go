package danger

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// Guard returns middlewares for an [interp.Runner] that judge what really
// runs against what the user approved: exec classifies each expanded argv,
// open each file a redirection opens for writing. Anything blocked, or
// worse than approved, is refused with an error that says why; nothing
// else is written. The shapes match the middlewares of shell.RunFunc.
func Guard(ws Workspace, approved Class) (
	exec func(next interp.ExecHandlerFunc) interp.ExecHandlerFunc,
	open func(next interp.OpenHandlerFunc) interp.OpenHandlerFunc,
) {
	exec = func(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
		return func(ctx context.Context, args []string) error {
			cmd := quoteArgs(args)
			hc := interp.HandlerCtx(ctx)
			getenv := func(name string) string { return hc.Env.Get(name).String() }
			v := classifyAt(cmd, ws, resolveDir(hc.Dir, ws), isPipe(hc.Stdout), getenv)
			if v.Class == Blocked || v.Class > approved {
				return refusal(cmd, v, approved)
			}
			return next(ctx, args)
		}
	}
	open = func(next interp.OpenHandlerFunc) interp.OpenHandlerFunc {
		return func(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
			if flag&(os.O_WRONLY|os.O_RDWR|os.O_APPEND|os.O_CREATE|os.O_TRUNC) != 0 {
				p := path
				if !filepath.IsAbs(p) {
					p = filepath.Join(resolveDir(interp.HandlerCtx(ctx).Dir, ws), p)
				}
				w := newWalker(ws, ws.Dir)
				c, why := w.writeClass(filepath.Clean(p), "`> "+path+"`")
				// A link in the workspace may point anywhere.
				if r, err := filepath.EvalSymlinks(p); err == nil && r != filepath.Clean(p) {
					if c2, why2 := w.writeClass(r, "`> "+path+"` (a link to `"+r+"`)"); c2 > c {
						c, why = c2, why2
					}
				}
				if c == Blocked || c > approved {
					return nil, refusal("> "+path, Verdict{Class: c, Reasons: []string{why}}, approved)
				}
			}
			return next(ctx, path, flag, perm)
		}
	}
	return exec, open
}

// resolveDir is the runner's cwd as the workspace spells it: the
// workspace may be given with symlinks resolved while the shell's cwd
// keeps them.
func resolveDir(dir string, ws Workspace) string {
	if ws.Dir == "" || under(dir, ws.Dir) {
		return dir
	}
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		return r
	}
	return dir
}

// classifyAt classifies a command as it runs from dir, at run time, in
// the environment getenv reads (where $KUBECONFIG and the like point).
func classifyAt(cmd string, ws Workspace, dir string, piped bool, getenv func(string) string) Verdict {
	w := newWalker(ws, dir)
	w.shared.runtime = true
	w.shared.piped = piped
	w.shared.getenv = getenv
	w.script(cmd)
	return w.res.verdict()
}

// isPipe reports whether w is the write end of a pipe: the interpreter
// joins pipeline elements with OS pipes, and `env | grep NAME` was judged
// as a whole before it ran.
func isPipe(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeNamedPipe != 0
}

func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		s, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			s = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = s
	}
	return strings.Join(q, " ")
}

func refusal(cmd string, v Verdict, approved Class) error {
	why := strings.Join(v.Reasons, "; ")
	if v.Class == Blocked {
		return fmt.Errorf("qsh refused to run `%s`: blocked: %s", cmd, why)
	}
	return fmt.Errorf("qsh refused to run `%s`: it is %s (%s), worse than the %s the user approved", cmd, v.Class, why, approved)
}
