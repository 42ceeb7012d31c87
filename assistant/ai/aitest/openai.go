package aitest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"
)

// NewOpenAI starts a fake Chat Completions server answering with replies in
// order. It is closed when the test ends.
func NewOpenAI(t testing.TB, replies ...Reply) *Server {
	s := newServer(t, protocol{path: "/chat/completions", stream: streamOpenAI, check: checkOpenAI, errors: errorOpenAI}, replies)
	s.URL = s.srv.URL + "/v1"
	return s
}

func streamOpenAI(e *sse, rep Reply, req Request) {
	model, _ := req.Body["model"].(string)
	id := fmt.Sprintf("chatcmpl-%d", time.Now().UnixNano())
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}},
		}
	}
	e.send("", chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	for i, piece := range split(rep.Text, rep.Chunks) {
		wait(rep, i)
		e.send("", chunk(map[string]any{"content": piece}, nil))
	}
	if rep.Forever {
		limited := e.forever(rep, limit(req, "max_tokens", "max_completion_tokens"), func(w string) {
			e.send("", chunk(map[string]any{"content": w}, nil))
		})
		if !limited {
			return
		}
		e.send("", chunk(map[string]any{}, "length"))
		e.send("", "[DONE]")
		return
	}
	if rep.Hang {
		e.hang()
		return
	}
	if rep.StreamError != "" {
		e.send("", map[string]any{"error": map[string]any{"message": rep.StreamError, "type": "server_error"}})
		return
	}
	for i, c := range rep.Calls {
		callID := c.ID
		if callID == "" {
			callID = fmt.Sprintf("call_%d_%d", time.Now().UnixNano(), i)
		}
		first := map[string]any{"id": callID, "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": ""}}
		index := i
		if rep.SameIndex {
			index = 0
		}
		if !rep.NoIndex {
			first["index"] = index
		}
		e.send("", chunk(map[string]any{"tool_calls": []any{first}}, nil))
		for _, frag := range split(c.Args, rep.ArgChunks) {
			tc := map[string]any{"function": map[string]any{"arguments": frag}}
			if !rep.NoIndex {
				tc["index"] = index
			}
			e.send("", chunk(map[string]any{"tool_calls": []any{tc}}, nil))
		}
	}
	finish := "stop"
	if len(rep.Calls) > 0 {
		finish = "tool_calls"
	}
	e.send("", chunk(map[string]any{}, finish))
	if opts, _ := req.Body["stream_options"].(map[string]any); opts["include_usage"] == true {
		u := rep.Usage
		if u.Input == 0 {
			u.Input = tokens(string(req.Raw))
		}
		if u.Output == 0 {
			u.Output = tokens(rep.Text)
		}
		e.send("", map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": model,
			"choices": []any{},
			"usage":   map[string]any{"prompt_tokens": u.Input, "completion_tokens": u.Output, "total_tokens": u.Input + u.Output},
		})
	}
	e.send("", "[DONE]")
}

// checkOpenAI checks what the real API would refuse: a tool message that
// answers no call, or a call left unanswered before the next message.
func checkOpenAI(req Request) error {
	if _, ok := req.Body["model"].(string); !ok {
		return fmt.Errorf("no model")
	}
	if req.Body["stream"] != true {
		return fmt.Errorf("stream is not true")
	}
	// qsh bounds every answer (issue 18: a local model streamed for 75 s).
	if (limit(req, "max_tokens") > 0) == (limit(req, "max_completion_tokens") > 0) {
		return fmt.Errorf("not one output limit: max_tokens %v, max_completion_tokens %v", req.Body["max_tokens"], req.Body["max_completion_tokens"])
	}
	msgs, _ := req.Body["messages"].([]any)
	if len(msgs) == 0 {
		return fmt.Errorf("no messages")
	}
	pending := map[string]bool{}
	for i, m := range msgs {
		msg, _ := m.(map[string]any)
		role, _ := msg["role"].(string)
		if role == "tool" {
			id, _ := msg["tool_call_id"].(string)
			if !pending[id] {
				return fmt.Errorf("message %d answers unknown tool call %q", i, id)
			}
			delete(pending, id)
			continue
		}
		if len(pending) > 0 {
			return fmt.Errorf("message %d (%s) follows unanswered tool calls %v", i, role, pending)
		}
		if role == "assistant" {
			calls, _ := msg["tool_calls"].([]any)
			for _, c := range calls {
				call, _ := c.(map[string]any)
				id, _ := call["id"].(string)
				pending[id] = true
			}
		}
	}
	if len(pending) > 0 {
		return fmt.Errorf("the conversation ends with unanswered tool calls %v", pending)
	}
	return nil
}

func errorOpenAI(rep Reply) []byte {
	msg := rep.Message
	if msg == "" {
		msg = http.StatusText(rep.Status)
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": msg, "type": "invalid_request_error", "param": nil, "code": rep.Code}})
	return b
}
