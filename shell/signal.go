package shell

import (
	"context"
	"os"
	"os/signal"
	"slices"
	"sync/atomic"
	"syscall"
	"time"
)

// interrupt cancels the command line being run, if any, and a wait
// builtin waiting for background jobs.
func (s *Shell) interrupt() {
	s.mu.Lock()
	if s.cancel != nil {
		s.cancel()
	}
	s.mu.Unlock()
	if s.jobs != nil {
		s.jobs.detach()
	}
}

// foreground returns a context for running one command line; Ctrl-C
// cancels it. stop must be called when the line is done. It does not
// cancel the context: a background job (`cmd &`) started on the line goes
// on running after it.
func (s *Shell) foreground(ctx context.Context) (fctx context.Context, stop func()) {
	line := &lineState{}
	ctx = context.WithValue(context.WithValue(ctx, fgKey{}, true), lineKey{}, line)
	ctx, cancel := context.WithCancel(ctx)
	line.cancel = cancel
	s.mu.Lock()
	s.cancel = cancel
	s.mu.Unlock()
	return ctx, func() {
		line.over.Store(true)
		s.mu.Lock()
		s.cancel = nil
		s.mu.Unlock()
	}
}

// lineKey is the context key of a command line's [lineState].
type lineKey struct{}

// lineState is what programs started by a command line can learn about
// it: a program that starts after the line is over runs in the
// background.
type lineState struct {
	over atomic.Bool
	// cancel cancels the line's context: once the line is over, only
	// its background statements still run on it (see [Shell.killJob]).
	cancel context.CancelFunc
}

// hungUp is for SIGHUP, which only a shell with job control catches: the
// terminal is gone. As bash does, the jobs get it too (stopped ones with
// SIGCONT, so that it reaches them), then the shell dies of it.
func (s *Shell) hungUp() {
	if s.jobs != nil {
		s.jobs.hangup(true)
	}
	signal.Reset(syscall.SIGHUP)
	syscall.Kill(os.Getpid(), syscall.SIGHUP)
}

// catchSignals makes the shell survive the terminal's signals: an
// interactive shell all of them, a script Ctrl-C and Ctrl-\. Catching (not ignoring)
// them matters: programs the shell starts get the default dispositions back
// on exec, so Ctrl-C and Ctrl-Z still reach them. A Ctrl-C while no program
// is in the foreground interrupts the interpreter itself (a loop, a
// builtin); otherwise the program gets it from the terminal and
// [Shell.execProgram] decides what follows.
//
// The catching goes on until [Shell.stopSignals]; calling it again
// meanwhile does nothing, so that what an interactive shell sources before
// its REPL is covered too.
func (s *Shell) catchSignals() {
	s.sigMu.Lock()
	defer s.sigMu.Unlock()
	if s.catching != nil || s.caught {
		return
	}
	sigs := make(chan os.Signal, 8)
	s.sigs = sigs
	// SIGQUIT, which bash ignores, would make Go's runtime dump its
	// goroutines and exit.
	caught := []os.Signal{syscall.SIGINT, syscall.SIGQUIT}
	if s.interactive {
		caught = append(caught, syscall.SIGTERM, syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU)
	}
	// A signal `trap ''` ignores stays ignored, in programs too.
	caught = slices.DeleteFunc(caught, func(sig os.Signal) bool { return s.sigIgnored(sig.(syscall.Signal)) })
	if len(caught) > 0 { // none would mean all
		signal.Notify(sigs, caught...)
	}
	done := make(chan struct{})
	sync := make(chan chan struct{})
	handle := func(sig os.Signal) {
		switch {
		case sig == syscall.SIGINT && s.fg.Load() == 0 && !s.sigTrapped(syscall.SIGINT):
			s.interrupt()
		case sig == syscall.SIGHUP:
			s.hungUp()
		}
	}
	go func() {
		for {
			select {
			case <-done:
				return
			case sig := <-sigs:
				handle(sig)
			case ack := <-sync:
				for len(sigs) > 0 {
					handle(<-sigs)
				}
				close(ack)
			}
		}
	}()
	s.catching = func() {
		signal.Stop(sigs)
		close(done)
	}
	s.settle = func() {
		// A signal sent to the shell before the program ended has
		// reached Go's runtime, which hands signals on lowest number
		// first: once a marker with a higher number has come through,
		// so has it, and it waits in sigs.
		mark := make(chan os.Signal, 1)
		signal.Notify(mark, sigMarker)
		syscall.Kill(os.Getpid(), sigMarker)
		select {
		case <-mark:
		case <-done:
		}
		signal.Stop(mark)
		ack := make(chan struct{})
		select {
		case sync <- ack:
			<-ack
		case <-done:
		}
	}
}

// sigMarker is the signal [Shell.settleSignals] sends itself: numbered
// above SIGINT (as on every Unix), and caught only meanwhile. It is one
// that scripts do not trap (see signals_linux.go): a trap on it would run
// after every program.

// settleSignals handles the signals the shell got while a foreground
// program in its own process group ran, before the program stops being
// counted: a Ctrl-C reached both, the program handled it (a trap, a REPL)
// and carried on, and the shell, reading its copy only then, stopped the
// rest of the script (1 in 60 of a trap that exits at once).
func (s *Shell) settleSignals() {
	s.sigMu.Lock()
	settle := s.settle
	s.sigMu.Unlock()
	if settle != nil {
		settle()
	}
}

// stopSignals ends what [Shell.catchSignals] began, if anything.
func (s *Shell) stopSignals() {
	s.sigMu.Lock()
	defer s.sigMu.Unlock()
	if s.catching != nil {
		s.catching()
		s.catching, s.settle = nil, nil
	}
}

// catchDelay is how long a non-interactive shell runs its own code (a
// loop, builtins) before it catches Ctrl-C. Catching starts two of the
// runtime's threads, ≈0.4 ms of every `qsh -c` (an `ssh host cmd`, each
// git fetch over ssh) when done at once, and most -c strings are over
// sooner. A program it starts is covered from its start: see
// [Shell.execProgram].
const catchDelay = 5 * time.Millisecond

// catchSignalsSoon is [Shell.catchSignals] after d, or sooner (called
// again); stop ends the catching for good, as [Shell.stopSignals] does.
// An interactive shell catches at once: it must not die of a Ctrl-C meant
// for its line.
func (s *Shell) catchSignalsSoon(d time.Duration) (stop func()) {
	if s.interactive {
		s.catchSignals()
		return s.stopSignals
	}
	t := time.AfterFunc(d, s.catchSignals)
	return func() {
		t.Stop()
		s.sigMu.Lock()
		s.caught = true
		s.sigMu.Unlock()
		s.stopSignals()
	}
}
