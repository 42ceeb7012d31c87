package guarded

import (
	"context"
	"strings"
	"sync"
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
		return f(program)
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
