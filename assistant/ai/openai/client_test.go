package openai

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/assistant/ai/chat"
)

func stream(t *testing.T, srv *aitest.Server, req chat.Request) (chat.Reply, string, error) {
	t.Helper()
	c := &Client{BaseURL: srv.URL, Key: "sk-test"}
	if req.Model == "" {
		req.Model = "gpt-test"
	}
	if req.Messages == nil {
		req.Messages = []chat.Message{{Role: chat.RoleUser, Text: "hi"}}
	}
	if req.MaxTokens == 0 {
		req.MaxTokens = 100
	}
	var sb strings.Builder
	reply, err := c.Stream(context.Background(), req, func(s string) { sb.WriteString(s) })
	return reply, sb.String(), err
}

func TestStream(t *testing.T) {
	t.Parallel()
	args1 := `{"command": "ls -la /tmp", "timeout_seconds": 5}`
	args2 := `{"operation": "read", "path": "go.mod"}`
	two := []aitest.Call{{ID: "call_a", Name: "execute_command", Args: args1}, {ID: "call_b", Name: "filesystem", Args: args2}}
	want2 := []chat.Call{{ID: "call_a", Name: "execute_command", Args: args1}, {ID: "call_b", Name: "filesystem", Args: args2}}
	tests := []struct {
		name  string
		reply aitest.Reply
		text  string
		calls []chat.Call
		stop  string
	}{
		{"text in one chunk", aitest.Say("hello there", 1), "hello there", nil, "stop"},
		{"text in many chunks", aitest.Say("héllo wörld, ünïcode ✓", 17), "héllo wörld, ünïcode ✓", nil, "stop"},
		{"tool call with split arguments", aitest.Reply{Calls: two[:1], ArgChunks: 13}, "", want2[:1], "tool_calls"},
		{"parallel calls", aitest.Reply{Calls: two, ArgChunks: 7}, "", want2, "tool_calls"},
		{"parallel calls without index", aitest.Reply{Calls: two, ArgChunks: 5, NoIndex: true}, "", want2, "tool_calls"},
		{"parallel calls all at index 0", aitest.Reply{Calls: two, ArgChunks: 5, SameIndex: true}, "", want2, "tool_calls"},
		{"same index, whole arguments", aitest.Reply{Calls: two, SameIndex: true}, "", want2, "tool_calls"},
		{"text then call", aitest.Reply{Text: "let me look", Chunks: 3, Calls: two[1:], ArgChunks: 4}, "let me look", want2[1:], "tool_calls"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.reply.Usage = aitest.Usage{Input: 42, Output: 7}
			srv := aitest.NewOpenAI(t, tc.reply)
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
	srv := aitest.NewOpenAI(t, aitest.Say("ok", 1))
	_, _, err := stream(t, srv, chat.Request{
		System: "be brief",
		Messages: []chat.Message{
			{Role: chat.RoleUser, Text: "list files"},
			{Role: chat.RoleAssistant, Calls: []chat.Call{{ID: "c1", Name: "ls", Args: `{"path":"."}`}, {ID: "c2", Name: "ls", Args: `{broken`}}},
			{Role: chat.RoleTool, CallID: "c1", Text: "a b c"},
			{Role: chat.RoleTool, CallID: "c2", Text: "invalid JSON", IsError: true},
			{Role: chat.RoleAssistant, Text: "three files"},
			{Role: chat.RoleUser, Text: "thanks"},
		},
		Tools: []chat.Tool{{Name: "ls", Description: "list", Schema: []byte(`{"type":"object"}`)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	req := srv.Requests()[0]
	if got := req.Header.Get("Authorization"); got != "Bearer sk-test" {
		t.Errorf("Authorization %q", got)
	}
	if req.Path != "/v1/chat/completions" {
		t.Errorf("path %q", req.Path)
	}
	msgs := req.Body["messages"].([]any)
	if len(msgs) != 7 {
		t.Fatalf("%d messages, want 7", len(msgs))
	}
	if m := msgs[0].(map[string]any); m["role"] != "system" || m["content"] != "be brief" {
		t.Errorf("system message %v", m)
	}
	if req.Body["max_tokens"] != float64(100) || req.Body["max_completion_tokens"] != nil {
		t.Errorf("a compatible server gets max_tokens: %v, %v", req.Body["max_tokens"], req.Body["max_completion_tokens"])
	}
	asst := msgs[2].(map[string]any)
	if asst["content"] != nil {
		t.Errorf("assistant content %v, want null", asst["content"])
	}
	calls := asst["tool_calls"].([]any)
	fn := calls[1].(map[string]any)["function"].(map[string]any)
	if fn["arguments"] != "{}" {
		t.Errorf("broken arguments sent as %q, want {}", fn["arguments"])
	}
	if m := msgs[3].(map[string]any); m["role"] != "tool" || m["tool_call_id"] != "c1" {
		t.Errorf("tool message %v", m)
	}
	if so := req.Body["stream_options"].(map[string]any); so["include_usage"] != true {
		t.Errorf("stream_options %v", so)
	}
	tools := req.Body["tools"].([]any)
	if f := tools[0].(map[string]any)["function"].(map[string]any); f["name"] != "ls" {
		t.Errorf("tool %v", f)
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
		{"401", aitest.Fail(401, "invalid_api_key", "Incorrect API key provided"), chat.Auth, 401, ""},
		{"404", aitest.Fail(404, "model_not_found", "The model `gpt-9` does not exist"), chat.NoModel, 404, ""},
		{"400 model_not_found", aitest.Fail(400, "model_not_found", "no such model"), chat.NoModel, 400, ""},
		{"429", aitest.Reply{Status: 429, Code: "rate_limit_exceeded", RetryAfter: "3"}, chat.RateLimit, 429, ""},
		{"500", aitest.Fail(500, "", "boom"), chat.Server, 500, ""},
		{"503", aitest.Fail(503, "", ""), chat.Server, 503, ""},
		{"400", aitest.Fail(400, "invalid_value", "bad messages"), chat.BadRequest, 400, ""},
		{"cut mid-stream", aitest.Reply{Text: "one two three four", Chunks: 4, CutAfter: 3}, chat.Cut, 0, "one two th"},
		{"error event", aitest.Reply{Text: "partial", StreamError: "overloaded"}, chat.Server, 0, "partial"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := aitest.NewOpenAI(t, tc.reply)
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
			if tc.reply.RetryAfter == "3" && ce.RetryAfter.Seconds() != 3 {
				t.Errorf("RetryAfter %v", ce.RetryAfter)
			}
		})
	}
}

func TestConnectionRefused(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c := &Client{BaseURL: "http://" + addr + "/v1"}
	_, err = c.Stream(context.Background(), chat.Request{Model: "m"}, func(string) {})
	var ce *chat.Error
	if !errors.As(err, &ce) || ce.Kind != chat.Connect {
		t.Fatalf("error %v, want a Connect error", err)
	}
}

func TestCancel(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Reply{Text: "forever", Hang: true})
	c := &Client{BaseURL: srv.URL}
	ctx, cancel := context.WithCancel(context.Background())
	_, err := c.Stream(ctx, chat.Request{Model: "m", MaxTokens: 10, Messages: []chat.Message{{Role: chat.RoleUser, Text: "x"}}},
		func(string) { cancel() })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

// TestDecode covers what the fake server does not send: repeated ids on
// every fragment, a missing [DONE], calls with neither id nor index.
func TestDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		in    string
		calls []chat.Call
		err   bool
	}{
		{"id repeated on each fragment",
			`data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"{\"x\""}}]}}]}` + "\n\n" +
				`data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"a","function":{"arguments":":1}"}}]}}]}` + "\n\n" +
				`data: {"choices":[{"delta":{},"finish_reason":"tool_calls"}]}` + "\n\n",
			[]chat.Call{{ID: "a", Name: "f", Args: `{"x":1}`}}, false},
		{"no id, no index",
			`data: {"choices":[{"delta":{"tool_calls":[{"function":{"name":"f","arguments":"{}"}}]}}]}` + "\n\n" +
				"data: [DONE]\n\n",
			[]chat.Call{{ID: "call_0", Name: "f", Args: `{}`}}, false},
		{"complete calls at index 0 without ids",
			`data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"name":"f","arguments":"{\"a\":1}"}},{"index":1,"function":{"name":"g","arguments":"{}"}}]}}]}` + "\n\n" +
				"data: [DONE]\n\n",
			[]chat.Call{{ID: "call_0", Name: "f", Args: `{"a":1}`}, {ID: "call_1", Name: "g", Args: `{}`}}, false},
		{"arguments as an object",
			`data: {"choices":[{"delta":{"tool_calls":[{"id":"x","function":{"name":"f","arguments":{"a":[1,2]}}}]}}]}` + "\n\n" +
				"data: [DONE]\n\n",
			[]chat.Call{{ID: "x", Name: "f", Args: `{"a":[1,2]}`}}, false},
		{"CRLF and comments",
			": keep-alive\r\n\r\n" + `data: {"choices":[{"delta":{"content":"hi"}}]}` + "\r\n\r\ndata: [DONE]\r\n\r\n",
			nil, false},
		{"ends without DONE or finish", `data: {"choices":[{"delta":{"content":"hi"}}]}` + "\n\n", nil, true},
		{"not JSON", "data: {oops\n\n", nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reply, err := decode(context.Background(), strings.NewReader(tc.in), func(string) {})
			if (err != nil) != tc.err {
				t.Fatalf("error %v, want error %v", err, tc.err)
			}
			if !reflect.DeepEqual(reply.Calls, tc.calls) {
				t.Errorf("calls %+v, want %+v", reply.Calls, tc.calls)
			}
		})
	}
}

// FuzzDecode checks that no stream, however broken, panics the decoder.
func FuzzDecode(f *testing.F) {
	f.Add("data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n")
	f.Add("data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"x\\\"\"}}]}}]}\n\n")
	f.Add("data: {\"error\":{\"message\":\"m\"}}\n\n")
	f.Fuzz(func(t *testing.T, in string) {
		reply, err := decode(context.Background(), strings.NewReader(in), func(string) {})
		if err == nil && len(reply.Calls) > 0 && reply.Calls[0].ID == "" {
			t.Errorf("a call without an id: %+v", reply.Calls)
		}
	})
}

// TestOutputLimit checks that OpenAI's own API gets max_completion_tokens,
// which its reasoning models require, and compatible servers max_tokens,
// which Ollama turns into num_predict.
func TestOutputLimit(t *testing.T) {
	t.Parallel()
	for url, want := range map[string]bool{
		"https://api.openai.com/v1":    true,
		"https://API.OpenAI.com/v1/":   true,
		"http://localhost:11434/v1":    false,
		"https://openrouter.ai/api/v1": false,
		"http://[::1":                  false,
	} {
		b, _ := json.Marshal(encode(chat.Request{Model: "m", MaxTokens: 64}, official(url)))
		field := `"max_tokens":64`
		if want {
			field = `"max_completion_tokens":64`
		}
		if !strings.Contains(string(b), field) || strings.Count(string(b), "_tokens") != 1 {
			t.Errorf("%s: %s", url, b)
		}
	}
}

// TestToolRefusals checks that the ways servers say they take no tools
// are told apart from other errors, whatever the status: such a request
// must not be retried as it is, but asked again without tools.
func TestToolRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status int
		body   string
		want   chat.Kind
	}{
		{"ollama", 400, `{"error":{"message":"registry.ollama.ai/library/smol:latest does not support tools","type":"api_error","param":null,"code":null}}`, chat.NoTools},
		{"ollama native", 400, `{"error":"registry.ollama.ai/library/smol:latest does not support tools"}`, chat.NoTools},
		{"llama.cpp", 500, `{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}`, chat.NoTools},
		{"old llama.cpp", 500, `{"error":{"code":500,"message":"Cannot use tools with stream","type":"server_error"}}`, chat.NoTools},
		{"vllm", 400, `{"object":"error","message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","param":null,"code":400}`, chat.NoTools},
		{"vllm error object", 400, `{"error":{"message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","param":null,"code":400}}`, chat.NoTools},
		{"openrouter", 404, `{"error":{"message":"No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing","code":404}}`, chat.NoTools},
		{"other 400", 400, `{"error":{"message":"messages[1].content: bad","type":"invalid_request_error"}}`, chat.BadRequest},
		{"other 500", 500, `{"error":{"message":"tool output too long","type":"server_error"}}`, chat.Server},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tc.status)
				io.WriteString(w, tc.body)
			}))
			defer srv.Close()
			c := &Client{BaseURL: srv.URL + "/v1"}
			_, err := c.Stream(context.Background(), chat.Request{Model: "m", MaxTokens: 10}, func(string) {})
			var ce *chat.Error
			if !errors.As(err, &ce) || ce.Kind != tc.want || ce.Status != tc.status {
				t.Errorf("error %#v, want kind %d", err, tc.want)
			}
			if ce != nil && tc.want == chat.NoTools && ce.Retryable() {
				t.Errorf("a refusal of tools is retried as it is")
			}
		})
	}
}

// TestStreamOllama reads what Ollama's OpenAI-compatible endpoint streams:
// the role in every delta, each tool call whole in one chunk.
func TestStreamOllama(t *testing.T) {
	t.Parallel()
	args1, args2 := `{"operation":"list","path":"."}`, `{"command":"ls"}`
	srv := aitest.NewOllama(t, aitest.Ollama{}, aitest.Reply{Text: "Looking.", Chunks: 3,
		Calls: []aitest.Call{{Name: "filesystem", Args: args1}, {Name: "execute_command", Args: args2}}})
	reply, text, err := stream(t, srv, chat.Request{Model: "llama3.2"})
	if err != nil {
		t.Fatal(err)
	}
	if text != "Looking." || reply.Stop != "tool_calls" || len(reply.Calls) != 2 ||
		reply.Calls[0].Args != args1 || reply.Calls[1].Name != "execute_command" || reply.Calls[0].ID == reply.Calls[1].ID {
		t.Errorf("reply %+v, text %q", reply, text)
	}
	if reply.Usage.Input == 0 || reply.Usage.Output == 0 {
		t.Errorf("usage %+v", reply.Usage)
	}
}
