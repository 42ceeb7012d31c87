package ai

import (
	"fmt"
	"strings"

	"github.com/qsh-shell/qsh/assistant/ai/chat"
	"github.com/qsh-shell/qsh/assistant/ai/fenced"
)

// fencedCalls turns the blocks of one reply into calls with made-up ids;
// bad gets what was wrong with each block that could not be read.
func fencedCalls(blocks []fenced.Call, base int, bad map[string]string) []chat.Call {
	var calls []chat.Call
	for i, b := range blocks {
		c := chat.Call{ID: fmt.Sprintf("fenced_%d", base+i), Name: b.Name, Args: string(b.Args)}
		if b.Err != "" {
			bad[c.ID] = b.Err
			c.Args = b.Raw
			if c.Name == "" {
				c.Name = "tool"
			}
		}
		calls = append(calls, c)
	}
	return calls
}

// fencedMessages rewrites the conversation for a model without function
// calling: its calls stay in its own text, and results come back as user
// text.
func fencedMessages(msgs []chat.Message) []chat.Message {
	out := make([]chat.Message, 0, len(msgs))
	names := map[string]string{}
	for _, m := range msgs {
		switch m.Role {
		case chat.RoleAssistant:
			for _, c := range m.Calls {
				names[c.ID] = c.Name
			}
			out = append(out, chat.Message{Role: chat.RoleAssistant, Text: m.Text})
		case chat.RoleTool:
			status := "ok"
			if m.IsError {
				status = "failed"
			}
			text := fmt.Sprintf("Result of the %s call (%s):\n%s", names[m.CallID], status, m.Text)
			if n := len(out); n > 0 && out[n-1].Role == chat.RoleUser && strings.HasPrefix(out[n-1].Text, "Result of ") {
				out[n-1].Text += "\n\n" + text
				continue
			}
			out = append(out, chat.Message{Role: chat.RoleUser, Text: text})
		default:
			out = append(out, m)
		}
	}
	return out
}
