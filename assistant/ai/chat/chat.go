package chat

import (
	"context"
	"encoding/json"
)

// Role says who wrote a message.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	// RoleTool is the result of one call, answering the [Call] with the
	// same ID.
	RoleTool Role = "tool"
)

// Message is one entry of a conversation.
type Message struct {
	Role Role
	Text string
	// Calls are the tool calls of an assistant message.
	Calls []Call
	// CallID names the call a RoleTool message answers.
	CallID string
	// IsError marks a RoleTool message whose call failed.
	IsError bool
	// Private marks a message of a private question's turn: sent to the
	// model, never saved or exported.
	Private bool
}

// Call is one tool call the model asked for.
type Call struct {
	ID   string
	Name string
	// Args is the arguments object as the model wrote it; it may not be
	// valid JSON, which the loop tells the model.
	Args string
}

// Tool describes a tool to the model.
type Tool struct {
	Name        string
	Description string
	Schema      json.RawMessage
}

// Request is one model request.
type Request struct {
	Model     string
	System    string
	Messages  []Message
	Tools     []Tool
	MaxTokens int
}

// Usage counts the tokens of one request.
type Usage struct {
	Input, Output int
}

// Reply is what the model answered to one request.
type Reply struct {
	Text  string
	Calls []Call
	Usage Usage
	// Stop is the provider's reason for stopping, as it spelled it.
	Stop string
}

// StreamFunc sends one request and streams the answer: text is called with
// each piece of text as it arrives, and with "" for other events, as a sign
// of life; the complete reply is returned at the end. Errors from the
// provider are [*Error].
type StreamFunc func(ctx context.Context, req Request, text func(string)) (Reply, error)

// ValidArgs returns args when it is a JSON object and "{}" otherwise, for
// APIs that reject a malformed arguments object in the history.
func ValidArgs(args string) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(args), &m) != nil || m == nil {
		return json.RawMessage("{}")
	}
	return json.RawMessage(args)
}
