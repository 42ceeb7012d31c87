package chat

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Kind classifies a provider error by what the user can do about it.
type Kind int

const (
	Other      Kind = iota
	Auth            // 401, 403: the key is wrong
	NoModel         // 404 or model_not_found: the model name is wrong
	RateLimit       // 429: wait, retried first
	Server          // 5xx, overloaded: retried first
	BadRequest      // 400 and the like
	Connect         // the server could not be reached
	Cut             // the stream ended before the answer did
	NoTools         // the server or the model does not take tools
)

// Error is a failed model request.
type Error struct {
	Kind       Kind
	Status     int    // HTTP status; 0 when there was no response
	Code       string // the provider's error type or code
	Message    string // the provider's message, or what went wrong
	RetryAfter time.Duration
	Err        error // the underlying error, if any
}

func (e *Error) Error() string {
	msg := e.Message
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	if e.Status != 0 {
		return fmt.Sprintf("%d %s", e.Status, msg)
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// Retryable reports whether sending the same request again may succeed.
func (e *Error) Retryable() bool { return e.Kind == RateLimit || e.Kind == Server }

// StatusKind maps an HTTP status to a Kind.
func StatusKind(status int) Kind {
	switch {
	case status == 401 || status == 403:
		return Auth
	case status == 404:
		return NoModel
	case status == 429:
		return RateLimit
	case status >= 500:
		return Server
	case status >= 400:
		return BadRequest
	}
	return Other
}

// Finish is how a stream's end becomes the error a client returns: err is
// what reading the stream returned (nil when it ended cleanly) and complete
// whether the answer was finished. A cancelled ctx gives its cause; a
// broken or unfinished stream is a Cut.
func Finish(ctx context.Context, err error, complete bool) error {
	if ctx.Err() != nil && (err != nil || !complete) {
		return context.Cause(ctx)
	}
	if err != nil {
		var ce *Error
		if errors.As(err, &ce) {
			return ce
		}
		return &Error{Kind: Cut, Message: "the stream broke: " + err.Error(), Err: err}
	}
	if !complete {
		return &Error{Kind: Cut, Message: "the stream ended before the answer did"}
	}
	return nil
}
