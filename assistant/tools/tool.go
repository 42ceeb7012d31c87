package tools

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"time"

	"github.com/qsh-shell/qsh/shell/guarded"
)

// Tool is one thing the model can call. The built-in tools and each MCP
// server's tools implement it.
type Tool interface {
	Name() string
	// Description is what the model reads about the tool.
	Description() string
	// Schema is the JSON schema of the arguments object.
	Schema() json.RawMessage
	// Execute runs one call. Failures the model should read (a missing file,
	// a refused command) are results, never panics.
	Execute(ctx context.Context, env Env, args json.RawMessage) Result
}

// Result is what the model reads back from one call.
type Result struct {
	Output    string
	Success   bool
	Truncated bool
	Duration  time.Duration
	Error     string // why the call failed, for the model; empty on success
	// Canceled is set when the user pressed Ctrl-C at a confirmation: the
	// turn ends here (Error is then ErrCanceled's text).
	Canceled bool
	// Declined is set when the user answered no at the confirmation: the
	// same call is not to be asked about again in the turn.
	Declined bool
	// TakenOver is set when the user answered e to run the command
	// themselves: the turn ends here, and their next question shows what
	// they ran.
	TakenOver bool
	// ReadOnly is set for a call judged safe, which only reads: made
	// again with nothing changed in between, it would answer the same.
	ReadOnly bool
	// Invalid is set for a call that could not be made as asked: an
	// unknown tool, arguments that do not fit the schema.
	Invalid bool
	// Shown, when set, is what the user is told of a call refused
	// without asking ("blocked: deletes your home directory"): Error is
	// written for the model.
	Shown string
	// Class and Decision are what the audit log says of the call: the
	// classifier's class (safe, dev, dangerous, blocked; empty when none
	// applied) and what was decided (run, approved, always, declined,
	// refused, canceled, invalid, edited, dry-run), for qsh --json.
	Class, Decision string
}

// ErrCanceled is the error of a call the user canceled with Ctrl-C at the
// confirmation prompt.
var ErrCanceled = errors.New("canceled by the user (Ctrl-C)")

// Env is what a call needs from the turn it runs in.
type Env struct {
	// Dir is the workspace: the shell's cwd when the turn started.
	Dir string
	// Out is the terminal: confirmations and command output shown as it runs.
	Out io.Writer
	// Terminal reports whether Out is a terminal (colour, dimming).
	Terminal bool
	// Columns is the terminal's width, which the confirmation's lines are
	// fitted to; nil, or 0, when unknown.
	Columns func() int
	// ReadKey reads one key press; nil when there is nobody to ask, and then
	// the answer to every confirmation is no.
	ReadKey func(ctx context.Context) (rune, error)
	// Discard drops the keys typed before a question is shown, so that
	// only keys pressed once it is answer it; nil: none to drop.
	Discard func()
	// Quiet stops the terminal echoing keys while a question is asked,
	// until restore: the question prints the key that answers it, once.
	// Nil: nothing to quiet.
	Quiet func() (restore func())
	// Run runs a command in a subshell of the user's interpreter.
	Run RunFunc
	// Start starts one in the background (execute_command's background);
	// nil: the shell cannot.
	Start StartFunc
	// Environ is the session's exported variables (NAME=value): the home
	// directory and the toolchains' caches the sandbox grants.
	Environ []string
	// Question is the question being answered, which a saved rule
	// remembers.
	Question string
	// Edit puts a command on the user's next prompt line, for them to
	// edit and run as their own (the "e" answer); nil when the shell
	// cannot, and "e" is not offered for commands.
	Edit func(command string) error
	// Preview says in a few words what a command would change (files a
	// deletion removes, a redirection overwrites…), from the shell's
	// expansion of it, without running it; "" when it cannot tell. Nil:
	// no preview.
	Preview func(ctx context.Context, command string) string
	// ReadOnly limits the turn to what only reads: a bare `?` diagnoses
	// without changing anything until the user asks for a fix. Calls of
	// any other class are refused without asking.
	ReadOnly bool
}

// columns is env's terminal width, 0 when unknown.
func (env Env) columns() int {
	if env.Columns == nil || !env.Terminal {
		return 0
	}
	return env.Columns()
}

// RunFunc runs an approved command line in a subshell of the user's
// interpreter, through the run-time guard (see package guarded). In
// qsh-assistant it asks the shell over the control channel; in tests it is
// guarded.Local around an interpreter.
type RunFunc = guarded.RunFunc
