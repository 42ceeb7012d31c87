package ollama

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
)

func TestContextWindow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := aitest.NewOllama(t, aitest.Ollama{Window: 8192}, aitest.Say("hi", 1))
	root := Root(srv.URL)
	w, err := ContextWindow(ctx, nil, root, "llama3.2")
	if err != nil || w != (Window{Tokens: 4096, From: "Ollama's default"}) {
		t.Errorf("before it runs: %+v, %v", w, err)
	}
	// Once the model has answered, /api/ps tells the num_ctx in use.
	post(t, srv.URL)
	w, err = ContextWindow(ctx, nil, root, "llama3.2:latest")
	if err != nil || w != (Window{Tokens: 8192, Sure: true, From: "the num_ctx it runs with"}) {
		t.Errorf("running: %+v, %v", w, err)
	}
	set := aitest.NewOllama(t, aitest.Ollama{NumCtx: 2048})
	if w, err := ContextWindow(ctx, nil, Root(set.URL+"/"), "smol"); err != nil || w != (Window{Tokens: 2048, Sure: true, From: "the num_ctx of its Modelfile"}) {
		t.Errorf("num_ctx: %+v, %v", w, err)
	}
	other := aitest.NewOpenAI(t)
	if w, err := ContextWindow(ctx, nil, Root(other.URL), "m"); err == nil {
		t.Errorf("a server that is not Ollama: %+v", w)
	}
}

func TestRoot(t *testing.T) {
	for in, want := range map[string]string{
		"http://localhost:11434/v1":  "http://localhost:11434",
		"http://localhost:11434/v1/": "http://localhost:11434",
		"https://llm.example.com":    "https://llm.example.com",
	} {
		if got := Root(in); got != want {
			t.Errorf("Root(%q) = %q, want %q", in, got, want)
		}
	}
}

// post sends one chat request to a fake Ollama, which loads the model.
func post(t *testing.T, baseURL string) {
	t.Helper()
	resp, err := http.Post(baseURL+"/chat/completions", "application/json",
		strings.NewReader(`{"model":"llama3.2","stream":true,"max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
}
