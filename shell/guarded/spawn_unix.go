//go:build unix

package guarded

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"syscall"
	"time"

	"github.com/qsh-shell/qsh/shell/eval"
)

// killGrace is how long a stopped command's programs have between
// SIGTERM and SIGKILL.
const killGrace = 2 * time.Second

// spawn is the evaluator's side of starting a program for the
// assistant: the program the shell would run, with extra variables set,
// started as runPlain starts it, or in the run's jail when conf is set.
// A file the kernel will not execute (a script without #!) is left to
// next, the shell's own handler, which runs it in a subshell whose
// programs come back here (a jail runs it with qsh itself).
func spawn(next eval.ExecHandler, extraEnv []string, conf *jailed) eval.ExecHandler {
	return func(ctx context.Context, call *eval.Call) int {
		// Stdin is what the pipeline gives; the run's own is closed.
		c := Command{Args: call.Args, Env: append(slices.Clip(call.Env), extraEnv...), Dir: call.Dir,
			Stdin: call.Stdin, Stdout: call.Stdout, Stderr: call.Stderr}
		var status int
		var err error
		if conf != nil {
			status, err = conf.run(ctx, c)
		} else {
			status, err = runPlain(ctx, c)
		}
		switch {
		case errors.Is(err, syscall.ENOEXEC):
			return next(ctx, call)
		case errors.Is(err, errNotFound):
			fmt.Fprintf(call.Stderr, "%s: command not found\n", call.Args[0])
			return 127
		case err != nil:
			fmt.Fprintf(call.Stderr, "%s: %v\n", call.Args[0], unwrapPath(err))
		}
		return status
	}
}

// runPlain runs c as the user would, in a process group of its own.
// When ctx ends (timeout, Ctrl-C) the whole group is killed: the program
// and whatever it started in the background, which killing the program
// alone would leave behind.
func runPlain(ctx context.Context, c Command) (int, error) {
	path, err := lookPath(c.Dir, c.Env, c.Args[0], isExec)
	if err != nil {
		return 127, err
	}
	cmd := &exec.Cmd{
		Path:        path,
		Args:        c.Args,
		Env:         c.Env,
		Dir:         c.Dir,
		Stdin:       c.Stdin,
		Stdout:      c.Stdout,
		Stderr:      c.Stderr,
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true},
		// A background child that keeps the output pipe open must not
		// hold the call up once the program itself has exited.
		WaitDelay: killGrace,
	}
	if err := cmd.Start(); err != nil {
		return 126, err
	}
	pgid := cmd.Process.Pid
	watched := watchStops(ctx, pgid, pgid, c.Args, c.Stderr)
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
		syscall.Kill(-pgid, syscall.SIGCONT) // a stopped program takes it too
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
	watched()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok {
			return waitStatus(ws), nil
		}
		return ee.ExitCode(), nil
	}
	if err != nil && !errors.Is(err, exec.ErrWaitDelay) {
		return 1, err
	}
	return 0, nil
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
