package shell

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// sigCatcher is how the shell survives the terminal's signals. An
// interactive shell catches Ctrl-C, Ctrl-\, Ctrl-Z, SIGTERM and the
// terminal stops; a -c string with `?` lines Ctrl-C and Ctrl-\. Catching,
// not ignoring, matters: a program the shell starts gets the default
// dispositions back on exec, so Ctrl-C and Ctrl-Z still reach it.
//
// A Ctrl-C the shell itself gets — no job holds the terminal: a loop, a
// builtin, a sourced file — stops the command line at its next command
// (or runs the INT trap), as in bash. With job control, a job in the
// foreground gets it instead, and the evaluator stops the line when the
// job dies of it.
type sigCatcher struct {
	s       *Shell
	mu      sync.Mutex
	ch      chan os.Signal
	done    chan struct{}
	running atomic.Bool // a command line runs (see [Shell.foreground])
}

func newSigCatcher(s *Shell) *sigCatcher { return &sigCatcher{s: s} }

// start begins catching; again, it does nothing.
func (c *sigCatcher) start() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ch != nil {
		return
	}
	c.ch = make(chan os.Signal, 8)
	c.done = make(chan struct{})
	// SIGQUIT, which bash ignores, would make Go's runtime dump its
	// goroutines and exit.
	sigs := []os.Signal{syscall.SIGINT, syscall.SIGQUIT}
	if c.s.interactive {
		sigs = append(sigs, syscall.SIGTERM, syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU, syscall.SIGHUP)
	}
	signal.Notify(c.ch, sigs...)
	go c.loop(c.ch, c.done)
}

// stop ends the catching.
func (c *sigCatcher) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ch == nil {
		return
	}
	signal.Stop(c.ch)
	close(c.done)
	c.ch = nil
}

func (c *sigCatcher) loop(ch chan os.Signal, done chan struct{}) {
	for {
		select {
		case <-done:
			return
		case sig := <-ch:
			switch sig {
			case syscall.SIGINT:
				c.s.interrupt()
			case syscall.SIGHUP:
				c.s.hungUp()
			}
		}
	}
}

// trapped is the evaluator's hook for trap on a signal: SIGINT's delivery
// stays the shell's, which hands it to the evaluator (see
// [Shell.interrupt]); a trap on another signal is the evaluator's own.
func (c *sigCatcher) trapped(sig syscall.Signal, cmd string, reset bool) bool {
	return sig == syscall.SIGINT && c.s.interactive
}

// interrupt is a Ctrl-C the shell got: the command line being run stops,
// or its INT trap runs; a `?` line or a completion is cancelled.
func (s *Shell) interrupt() {
	s.mu.Lock()
	if s.cancel != nil {
		s.cancel()
	}
	s.mu.Unlock()
	if s.sigs.running.Load() {
		s.r.Interrupt()
	}
}

// foreground marks a command line running: a Ctrl-C the shell gets
// from now on interrupts the evaluator (see [Shell.interrupt]). stop must
// be called when the line is done. The line's context is not cancelled:
// a background job (`cmd &`) started on the line goes on after it, and a
// Ctrl-C is for the line, not for its jobs.
func (s *Shell) foreground() (stop func()) {
	was := s.sigs.running.Swap(true)
	return func() { s.sigs.running.Store(was) }
}

// cancellable returns a context that a Ctrl-C the shell gets cancels: a
// `?` line's, a Tab's. stop must be called when it is done.
func (s *Shell) cancellable(ctx context.Context) (cctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	prev := s.cancel
	s.cancel = cancel
	s.mu.Unlock()
	return ctx, func() {
		s.mu.Lock()
		s.cancel = prev
		s.mu.Unlock()
		cancel()
	}
}

// hungUp is for SIGHUP: the terminal is gone. As bash does, the jobs get
// it too (stopped ones with SIGCONT, so that it reaches them), the history
// is saved, and the shell dies of it.
func (s *Shell) hungUp() {
	s.r.Hangup(true)
	s.settleHistory()
	s.sigs.stop()
	signal.Reset(syscall.SIGHUP)
	syscall.Kill(os.Getpid(), syscall.SIGHUP)
}

// jobTerminal is the terminal job control would use; ok is false when
// there is none: the shell is not interactive, not on a terminal, or not
// in the terminal's foreground.
func (s *Shell) jobTerminal() (tty int, ok bool) {
	in, ok := s.stdin.(*os.File)
	if !ok || !s.terminal || !s.interactive {
		return 0, false
	}
	tty = int(in.Fd())
	if fg, err := unix.IoctlGetInt(tty, unix.TIOCGPGRP); err != nil || fg != unix.Getpgrp() {
		return 0, false
	}
	return tty, true
}

// startJobs turns job control on for an interactive session on a
// terminal whose foreground the shell is in; otherwise programs run in
// the shell's process group.
func (s *Shell) startJobs() {
	if tty, ok := s.jobTerminal(); ok {
		s.r.JobControl(tty, s.stderr)
	}
}

// holdExit reports whether the shell should not exit yet: the first time
// the user tries with stopped jobs, it warns instead; a second try right
// after (no command line in between) exits.
func (s *Shell) holdExit() bool {
	if !s.r.StoppedJobs() || s.warnedAt > 0 && s.lineNo-s.warnedAt <= 1 {
		return false
	}
	s.warnedAt = s.lineNo
	fmt.Fprintln(s.stderr, "There are stopped jobs.")
	return true
}

// endJobs is for the shell's exit: no stopped job stays stopped; with
// huponexit, running ones get SIGHUP too.
func (s *Shell) endJobs() {
	s.r.Hangup(s.optNow("huponexit"))
}
