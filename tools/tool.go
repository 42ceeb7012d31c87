package tools

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"time"

	"mvdan.cc/sh/v3/interp"
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
	// ReadKey reads one key press; nil when there is nobody to ask, and then
	// the answer to every confirmation is no.
	ReadKey func(ctx context.Context) (rune, error)
	// Run runs a command in a subshell of the user's interpreter.
	Run RunFunc
}

// RunFunc has the shape of the shell's RunFunc, which cmd/qsh hands over:
// run command in a subshell, with middlewares that see what really runs.
type RunFunc func(ctx context.Context, command string, stdout, stderr io.Writer,
	exec func(next interp.ExecHandlerFunc) interp.ExecHandlerFunc,
	open func(next interp.OpenHandlerFunc) interp.OpenHandlerFunc) (status int, err error)
