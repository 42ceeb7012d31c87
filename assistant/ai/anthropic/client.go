package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai/chat"
)

// Version is the anthropic-version header the client speaks.
const Version = "2023-06-01"

// Client sends Messages requests.
type Client struct {
	// BaseURL is the API root, such as https://api.anthropic.com; a root
	// ending in /v1 is accepted too.
	BaseURL string
	Key     string
	HTTP    *http.Client
}

// Stream implements [chat.StreamFunc].
func (c *Client) Stream(ctx context.Context, req chat.Request, text func(string)) (chat.Reply, error) {
	url := strings.TrimRight(c.BaseURL, "/")
	if !strings.HasSuffix(url, "/v1") {
		url += "/v1"
	}
	header := http.Header{}
	header.Set("anthropic-version", Version)
	if c.Key != "" {
		header.Set("x-api-key", c.Key)
	}
	resp, err := chat.Post(ctx, c.HTTP, url+"/messages", encode(req), header, statusError)
	if err != nil {
		return chat.Reply{}, err
	}
	defer resp.Body.Close()
	return decode(ctx, resp.Body, text)
}

type apiError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// kinds maps the API's error types to what the user can do.
var kinds = map[string]chat.Kind{
	"authentication_error":  chat.Auth,
	"permission_error":      chat.Auth,
	"not_found_error":       chat.NoModel,
	"rate_limit_error":      chat.RateLimit,
	"overloaded_error":      chat.Server,
	"api_error":             chat.Server,
	"invalid_request_error": chat.BadRequest,
}

// statusError reads {"type": "error", "error": {"type", "message"}}.
func statusError(resp *http.Response) error {
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	e := &chat.Error{
		Kind:       chat.StatusKind(resp.StatusCode),
		Status:     resp.StatusCode,
		RetryAfter: chat.RetryAfter(resp.Header, time.Now()),
	}
	var body struct {
		Error apiError `json:"error"`
	}
	if json.Unmarshal(raw, &body) == nil && body.Error.Type != "" {
		e.Code, e.Message = body.Error.Type, body.Error.Message
		if k, ok := kinds[e.Code]; ok && e.Kind != chat.Auth {
			e.Kind = k
		}
	}
	if e.Message == "" {
		e.Message = strings.TrimSpace(string(raw))
		if e.Message == "" {
			e.Message = http.StatusText(resp.StatusCode)
		}
	}
	return e
}

// event is one streamed event; which fields are set depends on Type.
type event struct {
	Type    string `json:"type"`
	Index   int    `json:"index"`
	Message struct {
		Usage usage `json:"usage"`
	} `json:"message"`
	ContentBlock struct {
		Type string `json:"type"`
		ID   string `json:"id"`
		Name string `json:"name"`
		Text string `json:"text"`
	} `json:"content_block"`
	Delta struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
	Usage *usage   `json:"usage"`
	Error apiError `json:"error"`
}

type usage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
}

var errStop = errors.New("stop")

// decode reads the event stream into a reply. Blocks are keyed by their
// index; tool input arrives as fragments of JSON to join.
func decode(ctx context.Context, r io.Reader, text func(string)) (chat.Reply, error) {
	var (
		reply  chat.Reply
		sb     strings.Builder
		calls  []*chat.Call
		blocks = map[int]*chat.Call{}
		done   bool
	)
	err := chat.ReadSSE(r, func(_ string, data []byte) error {
		var ev event
		if err := json.Unmarshal(data, &ev); err != nil {
			return &chat.Error{Kind: chat.Cut, Message: "malformed stream event: " + err.Error(), Err: err}
		}
		switch ev.Type {
		case "message_start":
			u := ev.Message.Usage
			reply.Usage.Input = u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
			reply.Usage.Output = u.OutputTokens
		case "content_block_start":
			switch ev.ContentBlock.Type {
			case "tool_use":
				call := &chat.Call{ID: ev.ContentBlock.ID, Name: ev.ContentBlock.Name}
				calls = append(calls, call)
				blocks[ev.Index] = call
			case "text":
				if ev.ContentBlock.Text != "" {
					sb.WriteString(ev.ContentBlock.Text)
					text(ev.ContentBlock.Text)
				}
			}
		case "content_block_delta":
			switch ev.Delta.Type {
			case "text_delta":
				sb.WriteString(ev.Delta.Text)
				text(ev.Delta.Text)
			case "input_json_delta":
				if call := blocks[ev.Index]; call != nil {
					call.Args += ev.Delta.PartialJSON
				}
				text("")
			}
		case "message_delta":
			if ev.Delta.StopReason != "" {
				reply.Stop = ev.Delta.StopReason
			}
			if ev.Usage != nil {
				reply.Usage.Output = ev.Usage.OutputTokens
				if in := ev.Usage.InputTokens + ev.Usage.CacheCreationInputTokens + ev.Usage.CacheReadInputTokens; in > 0 {
					reply.Usage.Input = in
				}
			}
		case "ping":
			text("")
		case "message_stop":
			done = true
			return errStop
		case "error":
			e := &chat.Error{Kind: chat.Server, Code: ev.Error.Type, Message: ev.Error.Message}
			if k, ok := kinds[e.Code]; ok {
				e.Kind = k
			}
			return e
		}
		// ping, content_block_stop and unknown events need nothing.
		return nil
	})
	reply.Text = sb.String()
	for _, c := range calls {
		if strings.TrimSpace(c.Args) == "" {
			c.Args = "{}" // a tool without parameters sends no fragments
		}
		reply.Calls = append(reply.Calls, *c)
	}
	if err == errStop {
		err = nil
	}
	return reply, chat.Finish(ctx, err, done || reply.Stop != "")
}
