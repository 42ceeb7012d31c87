package anthropic

import (
	"encoding/json"

	"github.com/qsh-shell/qsh/assistant/ai/chat"
)

// DefaultMaxTokens bounds an answer when the request sets no limit; the API
// requires one.
const DefaultMaxTokens = 8192

type request struct {
	Model     string    `json:"model"`
	MaxTokens int       `json:"max_tokens"`
	System    string    `json:"system,omitempty"`
	Messages  []message `json:"messages"`
	Tools     []tool    `json:"tools,omitempty"`
	Stream    bool      `json:"stream"`
}

type message struct {
	Role    string  `json:"role"`
	Content []block `json:"content"`
}

type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   string          `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

type tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// encode turns the neutral conversation into Messages: tool results become
// tool_result blocks in a user turn, and consecutive turns of one role are
// joined, since the API wants user and assistant to alternate.
func encode(req chat.Request) request {
	out := request{Model: req.Model, MaxTokens: req.MaxTokens, System: req.System, Stream: true}
	if out.MaxTokens <= 0 {
		out.MaxTokens = DefaultMaxTokens
	}
	for _, m := range req.Messages {
		role := "user"
		var blocks []block
		switch m.Role {
		case chat.RoleAssistant:
			role = "assistant"
			if m.Text != "" {
				blocks = append(blocks, block{Type: "text", Text: m.Text})
			}
			for _, c := range m.Calls {
				blocks = append(blocks, block{Type: "tool_use", ID: c.ID, Name: c.Name, Input: chat.ValidArgs(c.Args)})
			}
		case chat.RoleTool:
			content := m.Text
			if content == "" {
				content = "(no output)"
			}
			blocks = append(blocks, block{Type: "tool_result", ToolUseID: m.CallID, Content: content, IsError: m.IsError})
		default:
			if m.Text != "" {
				blocks = append(blocks, block{Type: "text", Text: m.Text})
			}
		}
		if len(blocks) == 0 {
			continue
		}
		if n := len(out.Messages); n > 0 && out.Messages[n-1].Role == role {
			prev := &out.Messages[n-1]
			// tool_result blocks must come first in a user turn.
			at := len(prev.Content)
			if blocks[0].Type == "tool_result" {
				at = 0
				for at < len(prev.Content) && prev.Content[at].Type == "tool_result" {
					at++
				}
			}
			prev.Content = append(prev.Content[:at], append(blocks, prev.Content[at:]...)...)
			continue
		}
		out.Messages = append(out.Messages, message{Role: role, Content: blocks})
	}
	for _, t := range req.Tools {
		schema := t.Schema
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		out.Tools = append(out.Tools, tool{Name: t.Name, Description: t.Description, InputSchema: schema})
	}
	return out
}
