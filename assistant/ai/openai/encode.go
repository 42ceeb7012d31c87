package openai

import (
	"encoding/json"

	"github.com/qsh-shell/qsh/assistant/ai/chat"
)

type request struct {
	Model    string    `json:"model"`
	Messages []message `json:"messages"`
	Tools    []tool    `json:"tools,omitempty"`
	// One of the two limits is sent: OpenAI's reasoning models refuse
	// max_tokens, and compatible servers (Ollama's, which makes it
	// num_predict) read only max_tokens.
	MaxTokens           int            `json:"max_tokens,omitempty"`
	MaxCompletionTokens int            `json:"max_completion_tokens,omitempty"`
	Stream              bool           `json:"stream"`
	StreamOptions       *streamOptions `json:"stream_options,omitempty"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type message struct {
	Role       string     `json:"role"`
	Content    *string    `json:"content"`
	ToolCalls  []toolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

type toolCall struct {
	ID       string   `json:"id"`
	Type     string   `json:"type"`
	Function function `json:"function"`
}

type function struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type tool struct {
	Type     string  `json:"type"`
	Function toolDef `json:"function"`
}

type toolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// encode turns the neutral request into Chat Completions; official tells
// whether it goes to OpenAI's own API.
func encode(req chat.Request, official bool) request {
	out := request{
		Model:         req.Model,
		Stream:        true,
		StreamOptions: &streamOptions{IncludeUsage: true},
	}
	if official {
		out.MaxCompletionTokens = req.MaxTokens
	} else {
		out.MaxTokens = req.MaxTokens
	}
	if req.System != "" {
		out.Messages = append(out.Messages, message{Role: "system", Content: &req.System})
	}
	for _, m := range req.Messages {
		text := m.Text
		msg := message{Role: string(m.Role), Content: &text}
		switch m.Role {
		case chat.RoleTool:
			msg.ToolCallID = m.CallID
		case chat.RoleAssistant:
			for _, c := range m.Calls {
				// The history must hold valid JSON even when the model
				// wrote none; it was told so in the call's result.
				msg.ToolCalls = append(msg.ToolCalls, toolCall{ID: c.ID, Type: "function",
					Function: function{Name: c.Name, Arguments: string(chat.ValidArgs(c.Args))}})
			}
			if text == "" && len(msg.ToolCalls) > 0 {
				msg.Content = nil
			}
		}
		out.Messages = append(out.Messages, msg)
	}
	for _, t := range req.Tools {
		schema := t.Schema
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		out.Tools = append(out.Tools, tool{Type: "function",
			Function: toolDef{Name: t.Name, Description: t.Description, Parameters: schema}})
	}
	return out
}
