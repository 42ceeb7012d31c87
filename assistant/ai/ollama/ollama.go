// Package ollama asks an Ollama server, through its own API, what the
// OpenAI-compatible one does not tell: the context window a model answers
// with. Ollama cuts a longer prompt from its start, system prompt first,
// without a word, so the assistant must fit its prompts to the window.
package ollama

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// DefaultWindow is the context length Ollama loads a model with when
// nothing sets num_ctx, on a machine with less than 24 GiB of VRAM.
const DefaultWindow = 4096

// Window is a model's context window as the server tells it.
type Window struct {
	Tokens int
	// Sure is true when Tokens is what the model runs with now (/api/ps)
	// or what its Modelfile sets (num_ctx); false when it is a guess:
	// Ollama's default, or the model's own length when that is smaller.
	Sure bool
	// From says where Tokens comes from, in a few words.
	From string
}

// Root is the root of Ollama's API for the base URL of its
// OpenAI-compatible one (…/v1).
func Root(baseURL string) string {
	return strings.TrimSuffix(strings.TrimRight(baseURL, "/"), "/v1")
}

// ContextWindow asks the server at root about model: the num_ctx it runs
// with if it is loaded, else its Modelfile's, else a guess.
func ContextWindow(ctx context.Context, hc *http.Client, root, model string) (Window, error) {
	if w, err := Running(ctx, hc, root, model); err != nil || w.Tokens > 0 {
		return w, err
	}
	var show struct {
		Parameters string         `json:"parameters"`
		ModelInfo  map[string]any `json:"model_info"`
	}
	if err := call(ctx, hc, "POST", root+"/api/show", map[string]string{"model": model}, &show); err != nil {
		return Window{}, err
	}
	for _, line := range strings.Split(show.Parameters, "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "num_ctx" {
			if n, err := strconv.Atoi(f[1]); err == nil && n > 0 {
				return Window{Tokens: n, Sure: true, From: "the num_ctx of its Modelfile"}, nil
			}
		}
	}
	w := Window{Tokens: DefaultWindow, From: "Ollama's default"}
	for k, v := range show.ModelInfo {
		if n, ok := v.(float64); ok && strings.HasSuffix(k, ".context_length") && int(n) > 0 && int(n) < w.Tokens {
			w = Window{Tokens: int(n), From: "the model's length"}
		}
	}
	return w, nil
}

// Running is the window of model if the server runs it now; zero if not.
func Running(ctx context.Context, hc *http.Client, root, model string) (Window, error) {
	var ps struct {
		Models []struct {
			Name          string `json:"name"`
			Model         string `json:"model"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
	}
	if err := call(ctx, hc, "GET", root+"/api/ps", nil, &ps); err != nil {
		return Window{}, err
	}
	want := tagged(model)
	for _, m := range ps.Models {
		if (tagged(m.Name) == want || tagged(m.Model) == want) && m.ContextLength > 0 {
			return Window{Tokens: m.ContextLength, Sure: true, From: "the num_ctx it runs with"}, nil
		}
	}
	return Window{}, nil
}

// tagged is a model name with its tag, as Ollama lists models.
func tagged(model string) string {
	if !strings.Contains(model, ":") {
		model += ":latest"
	}
	return model
}

// call sends one request and decodes its JSON answer into out.
func call(ctx context.Context, hc *http.Client, method, url string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return err
	}
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: %s", method, url, resp.Status)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return errors.New("not Ollama's answer: " + err.Error())
	}
	return nil
}
