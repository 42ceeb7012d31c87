package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
)

// guardKey is the context key of a caller's exec middleware; see [guard].
type guardKey struct{}

// fgKey marks a context whose programs run in the terminal's foreground.
type fgKey struct{}

type execMiddleware = func(next interp.ExecHandlerFunc) interp.ExecHandlerFunc

// guard routes each program through the exec middleware stored in the
// context, if any. interp composes exec middlewares once, in interp.New, and
// subshells copy the composed handler; so a per-run middleware (the
// assistant's confirmation guard) must be looked up at call time.
func guard(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
	return func(ctx context.Context, args []string) error {
		if mw, ok := ctx.Value(guardKey{}).(execMiddleware); ok && mw != nil {
			return mw(next)(ctx, args)
		}
		return next(ctx, args)
	}
}

// killDelay is how long a cancelled program has between SIGINT and SIGKILL.
const killDelay = 2 * time.Second

// execProgram runs an external program; it is the last exec handler. It
// differs from interp's default in three ways that an interactive shell
// needs: Ctrl-C is left to the terminal, which delivers it to the program,
// instead of being sent again; a program stopped by Ctrl-Z is resumed, as
// qsh has no job control and would otherwise wait for it forever; and a file
// the kernel will not execute (a script without #!) runs in a new qsh.
func (s *Shell) execProgram(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
	return func(ctx context.Context, args []string) error {
		hc := interp.HandlerCtx(ctx)
		path, err := interp.LookPathDir(hc.Dir, hc.Env, args[0])
		if err != nil {
			if strings.Contains(args[0], "/") {
				fmt.Fprintf(hc.Stderr, "qsh: %s: %v\n", args[0], pathError(hc.Dir, args[0]))
			} else {
				fmt.Fprintf(hc.Stderr, "qsh: %s: command not found\n", args[0])
			}
			return interp.ExitStatus(127)
		}
		cmd := &exec.Cmd{
			Path:   path,
			Args:   args,
			Env:    environ(hc.Env),
			Dir:    hc.Dir,
			Stdout: hc.Stdout,
			Stderr: hc.Stderr,
		}
		if f, ok := hc.Stdin.(*os.File); ok && f != nil {
			cmd.Stdin = f
		} else if hc.Stdin != nil && !ok {
			cmd.Stdin = hc.Stdin
		}
		err = cmd.Start()
		if errors.Is(err, syscall.ENOEXEC) {
			self, serr := os.Executable()
			if serr != nil {
				fmt.Fprintf(hc.Stderr, "qsh: %s: %v\n", args[0], err)
				return interp.ExitStatus(126)
			}
			cmd = &exec.Cmd{Path: self, Args: append([]string{"qsh", path}, args[1:]...),
				Env: cmd.Env, Dir: cmd.Dir, Stdin: cmd.Stdin, Stdout: cmd.Stdout, Stderr: cmd.Stderr}
			err = cmd.Start()
		}
		if err != nil {
			fmt.Fprintf(hc.Stderr, "qsh: %s: %v\n", args[0], unwrapExec(err))
			return interp.ExitStatus(126)
		}
		fg := ctx.Value(fgKey{}) != nil
		if fg {
			s.fg.Add(1)
			defer s.fg.Add(-1)
		}
		done := make(chan struct{})
		defer close(done)
		go func() {
			// A cancelled context (a timeout, an assistant turn cancelled)
			// stops the program: SIGINT first, SIGKILL if it lingers.
			select {
			case <-done:
				return
			case <-ctx.Done():
			}
			cmd.Process.Signal(os.Interrupt)
			select {
			case <-done:
			case <-time.After(killDelay):
				cmd.Process.Kill()
			}
		}()
		waitResumingStopped(cmd.Process.Pid, hc.Stderr)
		err = cmd.Wait()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				if ws.Signal() == syscall.SIGINT && fg {
					// The user interrupted the program: like bash, stop
					// the rest of the command line too.
					s.interrupt()
				}
				return interp.ExitStatus(128 + int(ws.Signal()))
			}
			return interp.ExitStatus(ee.ExitCode())
		}
		if err != nil {
			fmt.Fprintf(hc.Stderr, "qsh: %s: %v\n", args[0], err)
			return interp.ExitStatus(1)
		}
		return nil
	}
}

// waitResumingStopped waits until process pid has exited, without reaping
// it (exec.Cmd.Wait does that). If the process stops (Ctrl-Z, SIGTSTP,
// SIGTTIN) it is resumed with SIGCONT: qsh has no job control, so a stopped
// foreground program could never be continued and the shell would hang.
func waitResumingStopped(pid int, stderr io.Writer) {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WSTOPPED|unix.WNOWAIT, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil || info.Code != cldStopped {
			return
		}
		fmt.Fprintf(stderr, "\r\nqsh: no job control; resuming process %d (Ctrl-C stops it)\r\n", pid)
		syscall.Kill(pid, syscall.SIGCONT)
	}
}

func unwrapExec(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// pathError says why a command given as a path cannot run.
func pathError(dir, name string) error {
	if !strings.HasPrefix(name, "/") {
		name = dir + "/" + name
	}
	fi, err := os.Stat(name)
	switch {
	case err != nil:
		return unwrapExec(err)
	case fi.IsDir():
		return errors.New("is a directory")
	default:
		return errors.New("permission denied")
	}
}

// environ lists the exported variables of env as KEY=value.
func environ(env expand.Environ) []string {
	var list []string
	for name, vr := range env.Each {
		if vr.Exported && vr.IsSet() && vr.Kind == expand.String {
			list = append(list, name+"="+vr.Str)
		}
	}
	return list
}

// cldStopped is the siginfo code of a child stopped by a signal.
const cldStopped = 5
