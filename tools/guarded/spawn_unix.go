//go:build unix

package guarded

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"

	"github.com/qsh-shell/qsh/tools/sandbox"
)

// killGrace is how long a stopped command's process group has between
// SIGTERM and SIGKILL.
const killGrace = 2 * time.Second

// spawn runs each program of an assistant's command in a process group of
// its own, with extra variables set. When the context ends
// (timeout, Ctrl-C) the whole group is killed: the program and whatever it
// started in the background, which killing the program alone would leave
// behind. A file the kernel will not execute (a script without #!) is left
// to next, the shell's own handler. With conf, each program starts
// confined by it.
func spawn(next interp.ExecHandlerFunc, extraEnv []string, conf *sandbox.Confiner) interp.ExecHandlerFunc {
	return func(ctx context.Context, args []string) error {
		hc := interp.HandlerCtx(ctx)
		path, err := interp.LookPathDir(hc.Dir, hc.Env, args[0])
		if err != nil {
			fmt.Fprintf(hc.Stderr, "%s: command not found\n", args[0])
			return interp.ExitStatus(127)
		}
		prog, argv := path, args
		var files []*os.File
		if conf != nil {
			// A script without #! is run by the confined start itself.
			prog, argv, files = conf.Wrap(path, args)
		}
		attr := &syscall.SysProcAttr{Setpgid: true}
		if conf != nil {
			// A session of its own, which has no terminal: a confined
			// program must not reach the user's through /dev/tty, where
			// TIOCSTI would type commands the user's shell then runs
			// unconfined. Its process group is the session's.
			attr = &syscall.SysProcAttr{Setsid: true}
		}
		cmd := &exec.Cmd{
			Path:        prog,
			Args:        argv,
			ExtraFiles:  files,
			Env:         append(environ(hc.Env), extraEnv...),
			Dir:         hc.Dir,
			Stdout:      hc.Stdout,
			Stderr:      hc.Stderr,
			SysProcAttr: attr,
			// A background child that keeps the output pipe open must not
			// hold the call up once the program itself has exited.
			WaitDelay: killGrace,
		}
		// Stdin is what the pipeline gives; the run's own stdin is closed.
		if hc.Stdin != nil {
			cmd.Stdin = hc.Stdin
		}
		if err := cmd.Start(); err != nil {
			if errors.Is(err, syscall.ENOEXEC) {
				return next(ctx, args)
			}
			fmt.Fprintf(hc.Stderr, "%s: %v\n", args[0], unwrapPath(err))
			return interp.ExitStatus(126)
		}
		pgid := cmd.Process.Pid
		done := make(chan struct{})
		killed := make(chan struct{})
		go func() {
			defer close(killed)
			select {
			case <-done:
				return
			case <-ctx.Done():
			}
			syscall.Kill(-pgid, syscall.SIGTERM)
			select {
			case <-done:
			case <-time.After(killGrace):
			}
			syscall.Kill(-pgid, syscall.SIGKILL)
		}()
		err = cmd.Wait()
		if errors.Is(err, exec.ErrWaitDelay) {
			// The program is gone but something it started still holds
			// its output: the group outlived it; end the group.
			syscall.Kill(-pgid, syscall.SIGKILL)
		}
		close(done)
		<-killed
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				return interp.ExitStatus(128 + int(ws.Signal()))
			}
			return interp.ExitStatus(ee.ExitCode())
		}
		if err != nil && !errors.Is(err, exec.ErrWaitDelay) {
			fmt.Fprintf(hc.Stderr, "%s: %v\n", args[0], err)
			return interp.ExitStatus(1)
		}
		return nil
	}
}

// environ lists the exported variables of env as NAME=value.
func environ(env expand.Environ) []string {
	var list []string
	for name, vr := range env.Each {
		if vr.Exported && vr.IsSet() && vr.Kind == expand.String {
			list = append(list, name+"="+vr.Str)
		}
	}
	return list
}

func unwrapPath(err error) error {
	var pe interface{ Unwrap() error }
	if errors.As(err, &pe) {
		if u := pe.Unwrap(); u != nil {
			return u
		}
	}
	return err
}
