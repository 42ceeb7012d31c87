package aitest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// Ollama is what a fake Ollama server is like, beyond its script.
type Ollama struct {
	// Window is the context length (num_ctx) models are loaded with, as
	// /api/ps reports it once a model has answered; 4096, Ollama's
	// default on a machine with less than 24 GiB of VRAM, when zero. A
	// prompt longer than the window is cut from its start, and the usage
	// then reports prompt_tokens equal to the window, as Ollama does.
	Window int
	// NumCtx, when not zero, is the num_ctx parameter of the model's
	// Modelfile, as /api/show reports it.
	NumCtx int
	// NoTools is a model whose template has no tools: a request with tools
	// gets Ollama's 400, whatever the script says.
	NoTools bool
}

// NewOllama starts a fake Ollama: the OpenAI-compatible chat endpoint
// (/v1/chat/completions) answering with replies in order, in the shapes
// Ollama streams (the role in every delta, each tool call whole in one
// chunk, "fp_ollama"), and /api/show and /api/ps, which tell a model's
// context window. URL ends in /v1, as the assistant's base URL for Ollama
// does. It is closed when the test ends.
func NewOllama(t testing.TB, o Ollama, replies ...Reply) *Server {
	if o.Window == 0 {
		o.Window = 4096
	}
	f := &ollama{Ollama: o, loaded: map[string]bool{}}
	s := newServer(t, protocol{
		path:   "/chat/completions",
		stream: f.stream,
		check:  checkOpenAI,
		errors: errorOllama,
		refuse: f.refuse,
		routes: map[string]http.HandlerFunc{"GET /api/ps": f.ps, "POST /api/show": f.show},
	}, replies)
	s.URL = s.srv.URL + "/v1"
	return s
}

type ollama struct {
	Ollama
	mu     sync.Mutex
	loaded map[string]bool // models that answered: /api/ps lists them
}

// tagged is a model name as Ollama lists it: with its tag.
func tagged(model string) string {
	if !strings.Contains(model, ":") {
		model += ":latest"
	}
	return model
}

func (f *ollama) refuse(w http.ResponseWriter, req Request) bool {
	model, _ := req.Body["model"].(string)
	f.mu.Lock()
	f.loaded[tagged(model)] = true
	f.mu.Unlock()
	if tools, _ := req.Body["tools"].([]any); !f.NoTools || len(tools) == 0 {
		return false
	}
	// Ollama's words, from a real server (v0.17.4) asked with tools about a
	// model whose template has none.
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
		"message": "registry.ollama.ai/library/" + tagged(model) + " does not support tools",
		"type":    "api_error", "param": nil, "code": nil}})
	return true
}

func (f *ollama) ps(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	models := []any{}
	for name := range f.loaded {
		models = append(models, map[string]any{
			"name": name, "model": name, "size": 2019393189, "digest": "a80c4f17acd5",
			"details":    map[string]any{"format": "gguf", "family": "llama", "parameter_size": "3.2B", "quantization_level": "Q4_K_M"},
			"expires_at": time.Now().Add(5 * time.Minute).Format(time.RFC3339), "size_vram": 0,
			"context_length": f.Window,
		})
	}
	f.mu.Unlock()
	json.NewEncoder(w).Encode(map[string]any{"models": models})
}

func (f *ollama) show(w http.ResponseWriter, r *http.Request) {
	var req struct{ Model, Name string }
	json.NewDecoder(r.Body).Decode(&req)
	if req.Model == "" {
		req.Model = req.Name
	}
	if req.Model == "" {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"error":"model is required"}`)
		return
	}
	params := "stop                           \"<|start_header_id|>\"\nstop                           \"<|eot_id|>\""
	if f.NumCtx > 0 {
		params = fmt.Sprintf("num_ctx                        %d\n%s", f.NumCtx, params)
	}
	caps := []string{"completion", "tools"}
	if f.NoTools {
		caps = caps[:1]
	}
	json.NewEncoder(w).Encode(map[string]any{
		"modelfile":  "FROM /models/blobs/sha256-dde5aa3fc5ff\n",
		"parameters": params,
		"template":   "{{ .Prompt }}",
		"details":    map[string]any{"format": "gguf", "family": "llama", "parameter_size": "3.2B", "quantization_level": "Q4_K_M"},
		"model_info": map[string]any{
			"general.architecture": "llama", "general.parameter_count": 3212749888,
			"llama.context_length": 131072, "llama.embedding_length": 3072,
		},
		"capabilities": caps,
		"modified_at":  "2026-01-10T09:00:00Z",
	})
}

// stream plays a reply as Ollama's OpenAI-compatible endpoint streams it.
func (f *ollama) stream(e *sse, rep Reply, req Request) {
	model, _ := req.Body["model"].(string)
	id := fmt.Sprintf("chatcmpl-%d", time.Now().UnixNano()%1000)
	chunk := func(delta map[string]any, finish any) map[string]any {
		delta["role"] = "assistant"
		if _, ok := delta["content"]; !ok {
			delta["content"] = ""
		}
		return map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": model,
			"system_fingerprint": "fp_ollama",
			"choices":            []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
		}
	}
	words := 0
	for i, piece := range split(rep.Text, rep.Chunks) {
		wait(rep, i)
		e.send("", chunk(map[string]any{"content": piece}, nil))
	}
	finish := "stop"
	if rep.Forever {
		if !e.forever(rep, limit(req, "max_tokens"), func(w string) {
			words++
			e.send("", chunk(map[string]any{"content": w}, nil))
		}) {
			return
		}
		finish = "length"
	}
	if rep.Hang {
		e.hang()
		return
	}
	if rep.StreamError != "" {
		e.send("", map[string]any{"error": map[string]any{"message": rep.StreamError, "type": "api_error"}})
		return
	}
	for i, c := range rep.Calls {
		callID := c.ID
		if callID == "" {
			callID = fmt.Sprintf("call_%08x", time.Now().UnixNano()&0xffffffff+int64(i))
		}
		e.send("", chunk(map[string]any{"tool_calls": []any{map[string]any{
			"id": callID, "index": i, "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": c.Args}}}}, nil))
		finish = "tool_calls"
	}
	e.send("", chunk(map[string]any{}, finish))
	if opts, _ := req.Body["stream_options"].(map[string]any); opts["include_usage"] == true {
		u := rep.Usage
		if u.Input == 0 {
			// Ollama keeps the end of a prompt longer than the window.
			u.Input = min(tokens(string(req.Raw)), f.Window)
		}
		if u.Output == 0 {
			u.Output = tokens(rep.Text) + words
		}
		e.send("", map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": model,
			"system_fingerprint": "fp_ollama", "choices": []any{},
			"usage": map[string]any{"prompt_tokens": u.Input, "completion_tokens": u.Output, "total_tokens": u.Input + u.Output},
		})
	}
	e.send("", "[DONE]")
}

func errorOllama(rep Reply) []byte {
	msg := rep.Message
	if msg == "" {
		msg = http.StatusText(rep.Status)
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "api_error", "param": nil, "code": nil}})
	return b
}
