package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"strings"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai/chat"
)

// Client sends Chat Completions requests.
type Client struct {
	// BaseURL is the API root, such as https://api.openai.com/v1.
	BaseURL string
	// Key is sent as a bearer token when not empty.
	Key  string
	HTTP *http.Client
}

// Stream implements [chat.StreamFunc].
func (c *Client) Stream(ctx context.Context, req chat.Request, text func(string)) (chat.Reply, error) {
	header := http.Header{}
	if c.Key != "" {
		header.Set("Authorization", "Bearer "+c.Key)
	}
	url := strings.TrimRight(c.BaseURL, "/") + "/chat/completions"
	resp, err := chat.Post(ctx, c.HTTP, url, encode(req, official(c.BaseURL)), header, statusError)
	if err != nil {
		return chat.Reply{}, err
	}
	defer resp.Body.Close()
	return decode(ctx, resp.Body, text)
}

// official reports whether baseURL is OpenAI's own API rather than a
// compatible server.
func official(baseURL string) bool {
	u, err := neturl.Parse(baseURL)
	return err == nil && strings.EqualFold(u.Hostname(), "api.openai.com")
}

// statusError reads an error response: {"error": {"message", "type", "code"}}.
func statusError(resp *http.Response) error {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	e := &chat.Error{
		Kind:       chat.StatusKind(resp.StatusCode),
		Status:     resp.StatusCode,
		RetryAfter: chat.RetryAfter(resp.Header, time.Now()),
	}
	var body struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(raw, &body) == nil && len(body.Error) > 0 {
		fill(e, body.Error)
	}
	if e.Message == "" {
		e.Message = strings.TrimSpace(string(raw))
		if e.Message == "" {
			e.Message = http.StatusText(resp.StatusCode)
		}
	}
	if refusesTools(e.Message) {
		// Whatever the status (llama.cpp says 500): asking again the same
		// way cannot help, asking without tools can.
		e.Kind = chat.NoTools
	}
	return e
}

// toolRefusals are how servers say they will not take tools: Ollama for a
// model whose template has none ("… does not support tools", 400),
// llama.cpp's server without --jinja ("tools param requires --jinja flag",
// 500; older builds refused tools in a stream), vLLM without
// --enable-auto-tool-choice ("\"auto\" tool choice requires
// --enable-auto-tool-choice and --tool-call-parser to be set", 400),
// OpenRouter for a model no provider serves with tools (404).
var toolRefusals = []string{
	"does not support tools",
	"tools param requires --jinja",
	"cannot use tools with stream",
	"--enable-auto-tool-choice",
	"no endpoints found that support tool use",
}

// refusesTools reports whether an error message says the server or the
// model does not take tools.
func refusesTools(msg string) bool {
	msg = strings.ToLower(msg)
	for _, r := range toolRefusals {
		if strings.Contains(msg, r) {
			return true
		}
	}
	return false
}

// fill reads an error object into e; some servers send a bare string.
func fill(e *chat.Error, raw json.RawMessage) {
	var obj struct {
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if json.Unmarshal(raw, &obj) != nil {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			e.Message = s
		}
		return
	}
	e.Message = obj.Message
	e.Code = obj.Type
	var code string
	if json.Unmarshal(obj.Code, &code) == nil && code != "" {
		e.Code = code
	}
	if e.Code == "model_not_found" {
		e.Kind = chat.NoModel
	}
}

// chunk is one streamed event.
type chunk struct {
	Choices []struct {
		Delta struct {
			Content   string `json:"content"`
			ToolCalls []struct {
				Index    *int   `json:"index"`
				ID       string `json:"id"`
				Function struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
}

var errDone = errors.New("done")

// decode reads the event stream into a reply.
//
// Tool-call fragments are keyed by id when the server sends one, and by
// index only for the fragments without an id: compatible servers send
// parallel calls without an index, or all at index 0, and those must stay
// separate calls.
func decode(ctx context.Context, r io.Reader, text func(string)) (chat.Reply, error) {
	var (
		reply   chat.Reply
		sb      strings.Builder
		calls   []*chat.Call
		byIndex = map[int]*chat.Call{}
		byID    = map[string]*chat.Call{}
		done    bool
	)
	err := chat.ReadSSE(r, func(_ string, data []byte) error {
		if string(data) == "[DONE]" {
			done = true
			return errDone
		}
		var ch chunk
		if err := json.Unmarshal(data, &ch); err != nil {
			return &chat.Error{Kind: chat.Cut, Message: "malformed stream event: " + err.Error(), Err: err}
		}
		if len(ch.Error) > 0 && string(ch.Error) != "null" {
			e := &chat.Error{Kind: chat.Server}
			fill(e, ch.Error)
			return e
		}
		if ch.Usage != nil {
			reply.Usage = chat.Usage{Input: ch.Usage.PromptTokens, Output: ch.Usage.CompletionTokens}
		}
		if len(ch.Choices) == 0 {
			text("")
		}
		for _, choice := range ch.Choices {
			sb.WriteString(choice.Delta.Content)
			text(choice.Delta.Content)
			for _, tc := range choice.Delta.ToolCalls {
				var call *chat.Call
				switch {
				case tc.ID != "":
					call = byID[tc.ID]
				case tc.Index != nil:
					call = byIndex[*tc.Index]
				case len(calls) > 0:
					call = calls[len(calls)-1]
				}
				if call == nil {
					call = &chat.Call{ID: tc.ID}
					if call.ID == "" {
						call.ID = fmt.Sprintf("call_%d", len(calls))
					}
					calls = append(calls, call)
					byID[call.ID] = call
				}
				if tc.Index != nil {
					byIndex[*tc.Index] = call
				}
				if call.Name == "" {
					call.Name = tc.Function.Name
				}
				call.Args += arguments(tc.Function.Arguments)
			}
			if choice.FinishReason != nil && *choice.FinishReason != "" {
				reply.Stop = *choice.FinishReason
			}
		}
		return nil
	})
	reply.Text = sb.String()
	for _, c := range calls {
		reply.Calls = append(reply.Calls, *c)
	}
	if err == errDone {
		err = nil
	}
	return reply, chat.Finish(ctx, err, done || reply.Stop != "")
}

// arguments reads a fragment of a call's arguments: a JSON string as the
// API specifies, or, from some compatible servers, the object itself.
func arguments(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}
