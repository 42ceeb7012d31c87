package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
	"unicode"

	"github.com/qsh-shell/qsh/assistant/tools"
	"github.com/qsh-shell/qsh/internal/ansi"
)

// Decision is the user's answer to a confirmation.
type Decision int

const (
	Deny   Decision = iota // do not run this call
	Once                   // run this call
	Always                 // run this call and every later call of the same tool
)

func (d Decision) String() string {
	switch d {
	case Once:
		return "once"
	case Always:
		return "always"
	}
	return "deny"
}

// ConfirmFunc asks the user whether one call may run. prompt says what it
// is, on one line. With nobody to ask (env.ReadKey nil) the answer must be
// [Deny]. An error (the turn was cancelled) stops the call.
type ConfirmFunc func(ctx context.Context, env tools.Env, prompt string) (Decision, error)

// AuditFunc records one call that was asked for, whatever became of it.
type AuditFunc func(Record)

// Record is what the audit log keeps of one call.
type Record struct {
	Time      time.Time
	Tool      string // the qsh name, mcp_<server>_<tool>
	Server    string
	Remote    string // the tool's name on its server
	Args      json.RawMessage
	Decision  string // "once", "always", "approved" (an earlier "always"), "not asked" (Confirm(nil)), "deny", "invalid"
	Outcome   string // "ok", "error", "declined", "invalid", "cancelled", "timeout", …
	Duration  time.Duration
	Truncated bool
}

// promptKeys asks on env's terminal with the design's inline line:
// ⚠ mcp  <what>  run? [y/n/a].
func promptKeys(ctx context.Context, env tools.Env, prompt string) (Decision, error) {
	if env.ReadKey == nil {
		return Deny, nil
	}
	if env.Out != nil {
		fmt.Fprintf(env.Out, "⚠ mcp  %s  run? [y/n/a] ", ansi.Escape(prompt))
	}
	r, err := env.ReadKey(ctx)
	if env.Out != nil {
		if err == nil && unicode.IsPrint(r) {
			fmt.Fprintf(env.Out, "%c", r)
		}
		fmt.Fprintln(env.Out)
	}
	if err != nil {
		return Deny, err
	}
	switch unicode.ToLower(r) {
	case 'y':
		return Once, nil
	case 'a':
		return Always, nil
	}
	return Deny, nil
}
