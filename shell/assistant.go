package shell

import (
	"context"
	"io"
	"time"

	"github.com/qsh-shell/qsh/shell/eval"
)

// AskFunc answers one `?` line. The shell declares it so that it never
// imports the assistant; cmd/qsh supplies the implementation, which asks
// qsh-assistant over the control channel.
type AskFunc func(ctx context.Context, q Question) error

// Question is a `?` line with what the assistant needs from the session.
type Question struct {
	Text   string    // the line after `?`, trimmed; empty for a bare `?`
	Dir    string    // the shell's cwd when the question was asked
	Record []Command // the session's recent commands, oldest first
	Stdout io.Writer // where the answer goes
	Stderr io.Writer
	// Terminal reports whether Stdout is a terminal (colour, spinner).
	Terminal bool
	// ReadKey reads one key press from the terminal in raw mode; nil when
	// there is no terminal to ask on.
	ReadKey func(ctx context.Context) (rune, error)
	// Run runs a command in a subshell of the session's interpreter.
	Run RunFunc
	// Environ is the session's exported variables, NAME=value.
	Environ []string
	// NoContext is set when the session record is not sent
	// (QSH_AI_CONTEXT=off): Record is empty.
	NoContext bool
	// Remember adds a command the assistant ran to the history; nil when
	// they stay out (QSH_AI_HISTORY=off). Call it from the goroutine that
	// called the AskFunc.
	Remember func(command string)
	// Edit puts a command on the user's next prompt line, for them to
	// edit and run as their own (the "e" answer at a confirmation); nil
	// when there is no prompt to come (-c). Call it from the goroutine
	// that called the AskFunc.
	Edit func(command string)
	// Dry is a copy of the session that runs nothing — its variables,
	// functions and options — for expanding a command without running it
	// (the effect a confirmation shows). Call it from the goroutine that
	// called the AskFunc.
	Dry func() *eval.Runner
	// Aliases are the session's aliases (name → value; nil when
	// expand_aliases is off), which the assistant's commands run as the
	// prompt's would (the confirmation says so); read-only.
	Aliases map[string]string
	// Private is set for a private line (a leading blank, HISTIGNORE):
	// the question goes to the model, but nothing of its turn may be
	// written to disk. Remember is then nil.
	Private bool
}

// Command is what one command line at the prompt did.
type Command struct {
	Line     string
	Dir      string
	Start    time.Time
	Duration time.Duration
	Status   int
	Output   string // the tail of what it printed, ANSI stripped; may be empty
}

// RunFunc runs command in a subshell of the user's interpreter: same
// functions, aliases, variables and cwd, nothing leaking back, stdin closed.
// The middlewares, when non-nil, see every command and every file the run
// really executes or opens, so a caller can stop what it did not approve.
type RunFunc func(ctx context.Context, command string, stdout, stderr io.Writer,
	exec func(next eval.ExecHandler) eval.ExecHandler,
	open func(next eval.OpenHandler) eval.OpenHandler) (status int, err error)
