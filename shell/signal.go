package shell

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// interrupt cancels the command line being run, if any.
func (s *Shell) interrupt() {
	s.mu.Lock()
	if s.cancel != nil {
		s.cancel()
	}
	s.mu.Unlock()
}

// foreground returns a context for running one command line; Ctrl-C
// cancels it. stop must be called when the line is done. It does not
// cancel the context: a background job (`cmd &`) started on the line goes
// on running after it.
func (s *Shell) foreground(ctx context.Context) (fctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.WithValue(ctx, fgKey{}, true))
	s.mu.Lock()
	s.cancel = cancel
	s.mu.Unlock()
	return ctx, func() {
		s.mu.Lock()
		s.cancel = nil
		s.mu.Unlock()
	}
}

// catchSignals makes the shell survive the terminal's signals: an
// interactive shell all of them, a script Ctrl-C. Catching (not ignoring)
// them matters: programs the shell starts get the default dispositions back
// on exec, so Ctrl-C and Ctrl-Z still reach them. A Ctrl-C while no program
// is in the foreground interrupts the interpreter itself (a loop, a
// builtin); otherwise the program gets it from the terminal and
// [Shell.execProgram] decides what follows.
func (s *Shell) catchSignals() (stop func()) {
	sigs := make(chan os.Signal, 8)
	if s.interactive {
		signal.Notify(sigs, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM,
			syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU)
	} else {
		signal.Notify(sigs, syscall.SIGINT)
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case sig := <-sigs:
				if sig == syscall.SIGINT && s.fg.Load() == 0 {
					s.interrupt()
				}
			}
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}
