package anthropic

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/assistant/ai/chat"
)

func stream(t *testing.T, srv *aitest.Server, req chat.Request) (chat.Reply, string, error) {
	t.Helper()
	c := &Client{BaseURL: srv.URL, Key: "sk-ant-test"}
	if req.Model == "" {
		req.Model = "claude-test"
	}
	if req.Messages == nil {
		req.Messages = []chat.Message{{Role: chat.RoleUser, Text: "hi"}}
	}
	var sb strings.Builder
	reply, err := c.Stream(context.Background(), req, func(s string) { sb.WriteString(s) })
	return reply, sb.String(), err
}

func TestStream(t *testing.T) {
	t.Parallel()
	args1 := `{"command": "ls -la /tmp", "timeout_seconds": 5}`
	args2 := `{"operation": "read", "path": "go.mod"}`
	two := []aitest.Call{{ID: "toolu_a", Name: "execute_command", Args: args1}, {ID: "toolu_b", Name: "filesystem", Args: args2}}
	want2 := []chat.Call{{ID: "toolu_a", Name: "execute_command", Args: args1}, {ID: "toolu_b", Name: "filesystem", Args: args2}}
	tests := []struct {
		name  string
		reply aitest.Reply
		text  string
		calls []chat.Call
		stop  string
	}{
		{"text in one chunk", aitest.Say("hello there", 1), "hello there", nil, "end_turn"},
		{"text in many chunks", aitest.Say("héllo wörld ✓", 11), "héllo wörld ✓", nil, "end_turn"},
		{"tool call with split input", aitest.Reply{Calls: two[:1], ArgChunks: 13}, "", want2[:1], "tool_use"},
		{"parallel calls", aitest.Reply{Calls: two, ArgChunks: 6}, "", want2, "tool_use"},
		{"text then calls", aitest.Reply{Text: "checking", Chunks: 2, Calls: two, ArgChunks: 3}, "checking", want2, "tool_use"},
		{"call without input", aitest.Reply{Calls: []aitest.Call{{ID: "t", Name: "now"}}}, "", []chat.Call{{ID: "t", Name: "now", Args: "{}"}}, "tool_use"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.reply.Usage = aitest.Usage{Input: 42, Output: 7}
			srv := aitest.NewAnthropic(t, tc.reply)
			reply, streamed, err := stream(t, srv, chat.Request{})
			if err != nil {
				t.Fatal(err)
			}
			if streamed != tc.text || reply.Text != tc.text {
				t.Errorf("text: streamed %q, reply %q, want %q", streamed, reply.Text, tc.text)
			}
			if !reflect.DeepEqual(reply.Calls, tc.calls) {
				t.Errorf("calls:\n got %+v\nwant %+v", reply.Calls, tc.calls)
			}
			if reply.Stop != tc.stop {
				t.Errorf("stop %q, want %q", reply.Stop, tc.stop)
			}
			if reply.Usage != (chat.Usage{Input: 42, Output: 7}) {
				t.Errorf("usage %+v", reply.Usage)
			}
		})
	}
}

func TestEncode(t *testing.T) {
	t.Parallel()
	srv := aitest.NewAnthropic(t, aitest.Say("ok", 1))
	_, _, err := stream(t, srv, chat.Request{
		System: "be brief",
		Messages: []chat.Message{
			{Role: chat.RoleUser, Text: "list files"},
			{Role: chat.RoleAssistant, Text: "looking", Calls: []chat.Call{{ID: "c1", Name: "ls", Args: `{"path":"."}`}, {ID: "c2", Name: "ls", Args: `{broken`}}},
			{Role: chat.RoleTool, CallID: "c1", Text: "a b c"},
			{Role: chat.RoleTool, CallID: "c2", Text: "invalid JSON", IsError: true},
			{Role: chat.RoleUser, Text: "and then?"},
		},
		Tools: []chat.Tool{{Name: "ls", Description: "list", Schema: []byte(`{"type":"object"}`)}},
	})
	if err != nil {
		t.Fatal(err) // the fake server checks the conversation's shape
	}
	req := srv.Requests()[0]
	if req.Header.Get("x-api-key") != "sk-ant-test" || req.Header.Get("anthropic-version") != Version {
		t.Errorf("headers %v", req.Header)
	}
	if req.Path != "/v1/messages" {
		t.Errorf("path %q", req.Path)
	}
	if req.Body["system"] != "be brief" {
		t.Errorf("system %v", req.Body["system"])
	}
	msgs := req.Body["messages"].([]any)
	if len(msgs) != 3 {
		t.Fatalf("%d messages, want 3 (tool results and the next question joined)", len(msgs))
	}
	last := msgs[2].(map[string]any)["content"].([]any)
	var types []string
	for _, b := range last {
		types = append(types, b.(map[string]any)["type"].(string))
	}
	if strings.Join(types, ",") != "tool_result,tool_result,text" {
		t.Errorf("last user turn blocks %v", types)
	}
	if b := last[1].(map[string]any); b["is_error"] != true || b["tool_use_id"] != "c2" {
		t.Errorf("error result %v", b)
	}
	tools := req.Body["tools"].([]any)
	if tl := tools[0].(map[string]any); tl["name"] != "ls" || tl["input_schema"] == nil {
		t.Errorf("tool %v", tl)
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		reply  aitest.Reply
		kind   chat.Kind
		status int
		text   string
	}{
		{"401", aitest.Fail(401, "authentication_error", "invalid x-api-key"), chat.Auth, 401, ""},
		{"404", aitest.Fail(404, "not_found_error", "model: claude-9"), chat.NoModel, 404, ""},
		{"429", aitest.Reply{Status: 429, Code: "rate_limit_error", RetryAfter: "2"}, chat.RateLimit, 429, ""},
		{"529", aitest.Fail(529, "overloaded_error", "Overloaded"), chat.Server, 529, ""},
		{"400", aitest.Fail(400, "invalid_request_error", "messages: bad"), chat.BadRequest, 400, ""},
		{"cut mid-stream", aitest.Reply{Text: "one two three four", Chunks: 4, CutAfter: 5}, chat.Cut, 0, "one two th"},
		{"error event", aitest.Reply{Text: "partial", StreamError: "Overloaded"}, chat.Server, 0, "partial"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := aitest.NewAnthropic(t, tc.reply)
			_, streamed, err := stream(t, srv, chat.Request{})
			var ce *chat.Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v (%T), want *chat.Error", err, err)
			}
			if ce.Kind != tc.kind || ce.Status != tc.status {
				t.Errorf("kind %v status %d, want %v %d (%v)", ce.Kind, ce.Status, tc.kind, tc.status, ce)
			}
			if streamed != tc.text {
				t.Errorf("streamed %q, want %q", streamed, tc.text)
			}
		})
	}
}

func TestCancel(t *testing.T) {
	t.Parallel()
	srv := aitest.NewAnthropic(t, aitest.Reply{Text: "forever", Hang: true})
	c := &Client{BaseURL: srv.URL}
	ctx, cancel := context.WithCancel(context.Background())
	_, err := c.Stream(ctx, chat.Request{Model: "m", Messages: []chat.Message{{Role: chat.RoleUser, Text: "x"}}},
		func(string) { cancel() })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

// FuzzDecode checks that no stream, however broken, panics the decoder.
func FuzzDecode(f *testing.F) {
	f.Add("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":3}}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"f\",\"input\":{}}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{}\"}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	f.Add("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"x\"}}\n\n")
	f.Fuzz(func(t *testing.T, in string) {
		reply, err := decode(context.Background(), strings.NewReader(in), func(string) {})
		if err == nil {
			for _, c := range reply.Calls {
				if c.Args == "" {
					t.Errorf("a call without arguments: %+v", c)
				}
			}
		}
	})
}
