package aitest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"
)

// NewAnthropic starts a fake Messages server answering with replies in
// order. It is closed when the test ends.
func NewAnthropic(t testing.TB, replies ...Reply) *Server {
	s := newServer(t, protocol{path: "/messages", stream: streamAnthropic, check: checkAnthropic, errors: errorAnthropic}, replies)
	s.URL = s.srv.URL
	return s
}

func streamAnthropic(e *sse, rep Reply, req Request) {
	model, _ := req.Body["model"].(string)
	u := rep.Usage
	if u.Input == 0 {
		u.Input = tokens(string(req.Raw))
	}
	if u.Output == 0 {
		u.Output = tokens(rep.Text)
	}
	e.send("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": fmt.Sprintf("msg_%d", time.Now().UnixNano()), "type": "message", "role": "assistant",
		"content": []any{}, "model": model, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": u.Input, "output_tokens": 1},
	}})
	index := 0
	if rep.Text != "" || len(rep.Calls) == 0 {
		e.send("content_block_start", map[string]any{"type": "content_block_start", "index": index,
			"content_block": map[string]any{"type": "text", "text": ""}})
		e.send("ping", map[string]any{"type": "ping"})
		for i, piece := range split(rep.Text, rep.Chunks) {
			wait(rep, i)
			e.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": index,
				"delta": map[string]any{"type": "text_delta", "text": piece}})
		}
		if rep.Forever {
			limited := e.forever(rep, limit(req, "max_tokens"), func(w string) {
				e.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": index,
					"delta": map[string]any{"type": "text_delta", "text": w}})
			})
			if !limited {
				return
			}
			e.send("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
			e.send("message_delta", map[string]any{"type": "message_delta",
				"delta": map[string]any{"stop_reason": "max_tokens", "stop_sequence": nil},
				"usage": map[string]any{"output_tokens": limit(req, "max_tokens")}})
			e.send("message_stop", map[string]any{"type": "message_stop"})
			return
		}
		if rep.Hang {
			e.hang()
			return
		}
		if rep.StreamError != "" {
			e.send("error", map[string]any{"type": "error", "error": map[string]any{"type": "overloaded_error", "message": rep.StreamError}})
			return
		}
		e.send("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
		index++
	}
	for i, c := range rep.Calls {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("toolu_%d_%d", time.Now().UnixNano(), i)
		}
		e.send("content_block_start", map[string]any{"type": "content_block_start", "index": index,
			"content_block": map[string]any{"type": "tool_use", "id": id, "name": c.Name, "input": map[string]any{}}})
		e.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": index,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": ""}})
		for _, frag := range split(c.Args, rep.ArgChunks) {
			e.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": index,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": frag}})
		}
		e.send("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
		index++
	}
	stop := "end_turn"
	if len(rep.Calls) > 0 {
		stop = "tool_use"
	}
	e.send("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": u.Output}})
	e.send("message_stop", map[string]any{"type": "message_stop"})
}

// checkAnthropic checks what the real API would refuse: roles that do not
// alternate, a first turn that is not the user's, empty content, tool_result
// blocks that do not answer every tool_use of the turn before, requests
// without max_tokens or the version header.
func checkAnthropic(req Request) error {
	if req.Header.Get("anthropic-version") == "" {
		return fmt.Errorf("no anthropic-version header")
	}
	if _, ok := req.Body["max_tokens"].(float64); !ok {
		return fmt.Errorf("no max_tokens")
	}
	if req.Body["stream"] != true {
		return fmt.Errorf("stream is not true")
	}
	msgs, _ := req.Body["messages"].([]any)
	if len(msgs) == 0 {
		return fmt.Errorf("no messages")
	}
	var prevRole string
	var uses map[string]bool
	for i, m := range msgs {
		msg, _ := m.(map[string]any)
		role, _ := msg["role"].(string)
		if i == 0 && role != "user" {
			return fmt.Errorf("first message is %s", role)
		}
		if role == prevRole {
			return fmt.Errorf("message %d: two %s turns in a row", i, role)
		}
		prevRole = role
		blocks, _ := msg["content"].([]any)
		if len(blocks) == 0 {
			return fmt.Errorf("message %d: empty content", i)
		}
		next := map[string]bool{}
		answered := 0
		for j, b := range blocks {
			blk, _ := b.(map[string]any)
			switch blk["type"] {
			case "text":
				if s, _ := blk["text"].(string); s == "" {
					return fmt.Errorf("message %d block %d: empty text", i, j)
				}
			case "tool_use":
				id, _ := blk["id"].(string)
				next[id] = true
				if _, ok := blk["input"].(map[string]any); !ok {
					return fmt.Errorf("message %d block %d: tool_use input is not an object", i, j)
				}
			case "tool_result":
				id, _ := blk["tool_use_id"].(string)
				if !uses[id] {
					return fmt.Errorf("message %d: tool_result for unknown tool_use %q", i, id)
				}
				if j != answered {
					return fmt.Errorf("message %d: tool_result after other content", i)
				}
				answered++
			}
		}
		if role == "user" && answered != len(uses) {
			return fmt.Errorf("message %d answers %d of %d tool_use blocks", i, answered, len(uses))
		}
		if len(next) > 0 || answered > 0 {
			if tools, _ := req.Body["tools"].([]any); len(tools) == 0 {
				return fmt.Errorf("message %d has tool blocks but the request defines no tools", i)
			}
		}
		uses = next
	}
	if len(uses) > 0 {
		return fmt.Errorf("the conversation ends with unanswered tool_use blocks")
	}
	return nil
}

func errorAnthropic(rep Reply) []byte {
	msg := rep.Message
	if msg == "" {
		msg = http.StatusText(rep.Status)
	}
	code := rep.Code
	if code == "" {
		code = "api_error"
	}
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": code, "message": msg}})
	return b
}
