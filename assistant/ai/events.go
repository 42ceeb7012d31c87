package ai

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
)

// Event is one line of a headless turn's output (`qsh --json -c '? …'`):
// what a terminal would have shown, as data a script can read.
//
//	{"type":"text","text":"…"}                       the model's text of one round trip
//	{"type":"tool_call","id":…,"name":…,"args":{…},"class":"dev","decision":"refused"}
//	{"type":"tool_result","id":…,"ok":false,"output":"…","error":"…"}
//	{"type":"note","text":"…"}                       a line of qsh's own (a window cut, a retry)
//	{"type":"suggestion","command":"…","class":…,"reasons":"…"}   a ?? line's command
//	{"type":"usage","input_tokens":…,"output_tokens":…,"estimated":true}
//	{"type":"end","reason":"answered","status":0}
//
// A tool_call comes once the call is decided and made, with its result
// right after it.
type Event struct {
	Type     string          `json:"type"`
	Text     string          `json:"text,omitempty"`
	ID       string          `json:"id,omitempty"`
	Name     string          `json:"name,omitempty"`
	Args     json.RawMessage `json:"args,omitempty"`
	Class    string          `json:"class,omitempty"`
	Decision string          `json:"decision,omitempty"`
	Command  string          `json:"command,omitempty"`
	Reasons  string          `json:"reasons,omitempty"`
	OK       *bool           `json:"ok,omitempty"`
	Output   string          `json:"output,omitempty"`
	Error    string          `json:"error,omitempty"`

	InputTokens  int  `json:"input_tokens,omitempty"`
	OutputTokens int  `json:"output_tokens,omitempty"`
	Estimated    bool `json:"estimated,omitempty"`

	Reason string `json:"reason,omitempty"`
	Status *int   `json:"status,omitempty"`
}

// The exit statuses of a headless turn, by what ended it (see Ended).
const (
	StatusAnswered = 0   // the model answered; every call it made ran
	StatusFailed   = 1   // the model or the assistant failed: no key, HTTP errors, a timeout
	StatusRefused  = 3   // a call was refused: it needed a confirmation nobody could give, or is blocked
	StatusStopped  = 4   // a limit stopped the turn: QSH_AI_TOOLS_MAX_ITER, QSH_AI_BUDGET_TOKENS, a looping model
	StatusCanceled = 130 // SIGINT, as a shell's status for it
)

// Ended is how a headless turn ended when it is not StatusAnswered: the
// error Ask returns for it, whose Status is the line's exit status.
type Ended struct {
	Status int
	Reason string // refused, error, stopped, canceled
	Err    error  // what went wrong; for refused, which call
}

func (e *Ended) Error() string { return e.Err.Error() }
func (e *Ended) Unwrap() error { return e.Err }

// events writes a headless turn's events as JSON lines.
type events struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func newEvents(w io.Writer) *events {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &events{enc: enc}
}

// emit writes one event; a nil *events writes nothing.
func (e *events) emit(ev Event) {
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.enc.Encode(ev)
}

// ending is how a turn ended: an *Ended with its status and reason (and
// Err nil for an answered turn).
func ending(err error, o *outcome) *Ended {
	e := &Ended{Status: StatusAnswered, Reason: "answered", Err: err}
	switch {
	case errors.Is(err, context.Canceled):
		e.Status, e.Reason = StatusCanceled, "canceled"
	case err != nil && o.stopped:
		e.Status, e.Reason = StatusStopped, "stopped"
	case err != nil:
		e.Status, e.Reason = StatusFailed, "error"
	case o.refused != "":
		e.Status, e.Reason, e.Err = StatusRefused, "refused", errors.New(o.refused)
	}
	return e
}

// end says how the turn ended and returns the error Ask returns: nil for
// an answered turn, else an *Ended with the status.
func (e *events) end(ended *Ended, usage tally) error {
	if usage != (tally{}) {
		e.emit(Event{Type: "usage", InputTokens: usage.in, OutputTokens: usage.out, Estimated: usage.estimated})
	}
	ev := Event{Type: "end", Reason: ended.Reason, Status: &ended.Status}
	if ended.Err != nil {
		ev.Error = ended.Err.Error()
	}
	e.emit(ev)
	if ended.Status == StatusAnswered {
		return nil
	}
	return ended
}
