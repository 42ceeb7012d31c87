package aitest

import (
	"time"
	"unicode/utf8"
)

// Reply scripts the answer to one request.
type Reply struct {
	// Text is streamed first, cut into Chunks pieces (at least one).
	Text   string
	Chunks int
	// Calls are the tool calls that follow the text, each call's arguments
	// cut into ArgChunks pieces (at least one).
	Calls     []Call
	ArgChunks int
	// NoIndex sends OpenAI tool calls without an index; SameIndex sends
	// them all at index 0, each with its own id, as some compatible servers
	// do.
	NoIndex, SameIndex bool
	// Usage is reported at the end of the stream; zero values are replaced
	// by a rough count.
	Usage Usage

	// Status, when not zero, answers with that HTTP status and an error
	// body of the provider's format instead of a stream.
	Status     int
	Code       string // the error type or code, such as "model_not_found"
	Message    string // the error message
	RetryAfter string // the Retry-After header

	// StreamError, when set, is sent as an error event after the text.
	StreamError string
	// CutAfter, when not zero, breaks the connection after that many
	// events, as a dropped network would.
	CutAfter int
	// EndAfter, when not zero, ends the response after that many events
	// as if it were complete, without the stream's own end: a server that
	// died mid-answer, as the client sees it (a clean EOF).
	EndAfter int
	// Forever keeps streaming words ("word1 word2 …", one token each)
	// after Text, one every few milliseconds, as a model that does not
	// stop: until the request's output limit (the stream then ends as the
	// API ends a long answer: finish_reason "length", stop_reason
	// "max_tokens"), or, when the request set none or IgnoreLimit is set,
	// until the client leaves.
	Forever     bool
	IgnoreLimit bool
	// Delay waits before the response starts.
	Delay time.Duration
	// Hang keeps the stream open after the text until the client leaves.
	Hang bool
	// Gate, when not nil, is received from before each text chunk after
	// the first, so a test can pace the stream.
	Gate <-chan struct{}
	// Taken, when not nil, is closed when a request takes this reply, so a
	// test can act once the request has reached the server.
	Taken chan struct{}
}

// Call is a scripted tool call.
type Call struct {
	ID   string // made up when empty
	Name string
	Args string // the arguments JSON, sent as is
}

// Usage is the token count a reply reports.
type Usage struct {
	Input, Output int
}

// Say is a reply that streams text in chunks pieces.
func Say(text string, chunks int) Reply { return Reply{Text: text, Chunks: chunks} }

// Use is a reply that calls one tool, its arguments in chunks pieces.
func Use(name, args string, chunks int) Reply {
	return Reply{Calls: []Call{{Name: name, Args: args}}, ArgChunks: chunks}
}

// Fail is a reply with an HTTP error.
func Fail(status int, code, message string) Reply {
	return Reply{Status: status, Code: code, Message: message}
}

// split cuts s into n pieces of about equal size on rune boundaries.
func split(s string, n int) []string {
	if n < 1 {
		n = 1
	}
	if s == "" {
		return nil
	}
	size := (len(s) + n - 1) / n
	var out []string
	for len(s) > 0 {
		end := size
		if end > len(s) {
			end = len(s)
		}
		for end < len(s) && !utf8.RuneStart(s[end]) {
			end++
		}
		out = append(out, s[:end])
		s = s[end:]
	}
	return out
}
