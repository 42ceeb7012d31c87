package guarded

import (
	"context"
	"strings"
	"sync"
	"time"
)

// TerminalFunc is told that a program of a run stopped to use the terminal
// (a password prompt, `read`, an editor, a pager), before the terminal is
// handed to it: the caller says so on the screen. back is called once qsh
// has the terminal again.
type TerminalFunc func(program string) (back func())

// terminalKey carries a run's TerminalFunc in its context, down to where
// its programs start.
type terminalKey struct{}

// WithTerminal lets the programs of the run ctx is for have the terminal
// when they stop for it, telling f first. Without it (a background run,
// no terminal) such a program is stopped and its run told why.
func WithTerminal(ctx context.Context, f TerminalFunc) context.Context {
	return context.WithValue(ctx, terminalKey{}, f)
}

// terminalOf is ctx's TerminalFunc, nil when none.
func terminalOf(ctx context.Context) TerminalFunc {
	f, _ := ctx.Value(terminalKey{}).(TerminalFunc)
	return f
}

// handedOff keeps the programs of a run that had the terminal, for its
// Result.
type handedOff struct {
	mu    sync.Mutex
	progs []string
	// pause stops the run's timeout while the user has the terminal, until
	// resume; nil without one.
	pause func() (resume func())
}

// wrap records each program f is told of.
func (h *handedOff) wrap(f TerminalFunc) TerminalFunc {
	if f == nil {
		return nil
	}
	return func(program string) func() {
		h.mu.Lock()
		h.progs = append(h.progs, program)
		h.mu.Unlock()
		resume := func() {}
		if h.pause != nil {
			resume = h.pause()
		}
		back := f(program)
		return func() {
			back()
			resume()
		}
	}
}

func (h *handedOff) list() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.progs...)
}

// programText is a program's argv as the screen shows it, cut short.
func programText(args []string) string {
	s := strings.Join(args, " ")
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// deadline is a timeout that can be paused.
type deadline struct {
	mu    sync.Mutex
	timer *time.Timer
	left  time.Duration
	since time.Time
}

// newDeadline calls expire after d, not counting the pauses.
func newDeadline(d time.Duration, expire func()) *deadline {
	return &deadline{timer: time.AfterFunc(d, expire), left: d, since: time.Now()}
}

// pause stops the clock until resume.
func (d *deadline) pause() (resume func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.timer.Stop() {
		return func() {} // it expired already
	}
	d.left -= time.Since(d.since)
	return func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		d.since = time.Now()
		d.timer.Reset(max(d.left, 0))
	}
}

func (d *deadline) stop() { d.timer.Stop() }
