package wire

import (
	"context"
	"errors"

	"github.com/qsh-shell/qsh/policy/danger"
	"github.com/qsh-shell/qsh/shell/guarded"
)

// RunMessage asks qsh to run req; id names the run in what follows.
func RunMessage(id int, req guarded.Request) Message {
	return Message{
		Type: Run, ID: id, Command: req.Command,
		Workspace: req.Workspace.Dir, Home: req.Workspace.Home, Approved: int(req.Approved),
		Unguarded: req.Unguarded, Timeout: req.Timeout, Sandbox: req.Sandbox, Background: req.Background,
	}
}

// Request is the run a run message asks for.
func (m Message) Request() guarded.Request {
	return guarded.Request{
		Command:    m.Command,
		Workspace:  danger.Workspace{Dir: m.Workspace, Home: m.Home},
		Approved:   danger.Class(m.Approved),
		Unguarded:  m.Unguarded,
		Timeout:    m.Timeout,
		Sandbox:    m.Sandbox,
		Background: m.Background,
	}
}

// ExitMessage tells how run id ended. Errors cross as text, except the
// two the assistant tells apart: Ctrl-C and the timeout.
func ExitMessage(id int, r guarded.Result) Message {
	m := Message{Type: Exit, ID: id, Status: r.Status, Denied: r.Denied, HandedOff: r.HandedOff}
	if r.Stopped != nil {
		m.Stopped = r.Stopped.Error()
	}
	switch {
	case r.Err == nil:
	case errors.Is(r.Err, context.Canceled):
		m.Canceled = true
	case errors.Is(r.Err, context.DeadlineExceeded):
		m.Timedout = true
	default:
		m.Error = r.Err.Error()
	}
	return m
}

// Result is the outcome an exit message tells.
func (m Message) Result() guarded.Result {
	r := guarded.Result{Status: m.Status, Denied: m.Denied, HandedOff: m.HandedOff}
	if m.Stopped != "" {
		r.Stopped = errors.New(m.Stopped)
	}
	switch {
	case m.Canceled:
		r.Err = context.Canceled
	case m.Timedout:
		r.Err = context.DeadlineExceeded
	case m.Error != "":
		r.Err = errors.New(m.Error)
	}
	return r
}
