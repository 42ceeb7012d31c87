package tools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"
)

// entry is one line of the audit log.
type entry struct {
	Time     time.Time       `json:"time"`
	Tool     string          `json:"tool"`
	Args     json.RawMessage `json:"args"`
	Class    string          `json:"class,omitempty"`
	Decision string          `json:"decision,omitempty"` // run, approved, always, declined, refused, canceled, invalid, edited
	Outcome  string          `json:"outcome"`
	Duration float64         `json:"duration_ms"`
	Sandbox  string          `json:"sandbox,omitempty"` // workspace, readonly, unconfined; absent when off
	Denied   []string        `json:"denied,omitempty"`  // what the sandbox kept from the call
}

// Decisions recorded in the audit log.
const (
	decRun      = "run"      // the policy let it run
	decApproved = "approved" // the user said y
	decAlways   = "always"   // the user said a, or an earlier a covered it
	decDeclined = "declined" // the user said n
	decRefused  = "refused"  // blocked, allowed-only, or nobody to ask
	decCanceled = "canceled" // Ctrl-C at the prompt
	decInvalid  = "invalid"  // the arguments did not fit the schema
	decEdited   = "edited"   // the user said e: took the call over
	decVetoed   = "vetoed"   // the user's pre-tool hook said no, or failed
)

// outcomeStarted is the outcome of the line a call gets as it is let go
// ahead; the line with its real outcome follows when it ends.
const outcomeStarted = "started"

// auditArgMax bounds each string argument in the log: a write's content
// belongs in the file and its backup, not in the log.
const auditArgMax = 2048

// appendAudit writes one line to the log at path with a single O_APPEND
// write, so lines from concurrent sessions never interleave. A log that
// cannot be written must not break the call, so errors are dropped.
func appendAudit(path string, e entry) {
	if path == "" {
		return
	}
	b, err := json.Marshal(e)
	if err != nil {
		return
	}
	b = append(b, '\n')
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	f.Write(b)
	f.Close()
}

// stateDir is $XDG_STATE_HOME/qsh, or ~/.local/state/qsh.
func stateDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "qsh")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".local", "state", "qsh")
}
