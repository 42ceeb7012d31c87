package ai

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/caarlos0/env/v11"
	"github.com/qsh-shell/qsh/config"
)

func TestConfigEnv(t *testing.T) {
	t.Parallel()
	cfg, err := env.ParseAsWithOptions[Config](env.Options{Environment: map[string]string{
		"QSH_AI_MODEL":          "m1",
		"QSH_AI_TIMEOUT":        "30s",
		"QSH_AI_TOOLS_MAX_ITER": "4",
		"OPENAI_API_KEY":        "sk-x",
		"OLLAMA_HOST":           "box:1234",
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Provider: "auto", Model: "m1", Timeout: 30 * time.Second, ToolProtocol: ProtocolAuto, MaxIter: 4,
		MaxOutput: 4096, KeepConversations: 100, OpenAIKey: "sk-x", OllamaHost: "box:1234"}
	if cfg != want {
		t.Errorf("got %+v\nwant %+v", cfg, want)
	}
	def, err := env.ParseAsWithOptions[Config](env.Options{Environment: map[string]string{}})
	if err != nil {
		t.Fatal(err)
	}
	if def.Timeout != 120*time.Second || def.MaxIter != 10 || def.Provider != "auto" || def.ToolProtocol != ProtocolAuto ||
		def.MaxOutput != 4096 || def.ContextTokens != 0 {
		t.Errorf("defaults %+v", def)
	}
}

func TestResolve(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cfg  Config
		want Endpoint
		err  string
	}{
		{"auto prefers anthropic", Config{AnthropicKey: "a", OpenAIKey: "o"},
			Endpoint{Provider: Anthropic, Model: DefaultModels[Anthropic], BaseURL: "https://api.anthropic.com", APIKey: "a", KeyVar: "ANTHROPIC_API_KEY"}, ""},
		{"auto openai", Config{Provider: "auto", OpenAIKey: "o"},
			Endpoint{Provider: OpenAI, Model: DefaultModels[OpenAI], BaseURL: "https://api.openai.com/v1", APIKey: "o", KeyVar: "OPENAI_API_KEY"}, ""},
		{"auto ollama", Config{},
			Endpoint{Provider: Ollama, Model: DefaultModels[Ollama], BaseURL: "http://localhost:11434/v1", KeyVar: "QSH_AI_API_KEY"}, ""},
		{"ollama host", Config{Provider: "ollama", OllamaHost: "gpu-box"},
			Endpoint{Provider: Ollama, Model: DefaultModels[Ollama], BaseURL: "http://gpu-box:11434/v1", KeyVar: "QSH_AI_API_KEY"}, ""},
		{"ollama host url", Config{Provider: "Ollama", OllamaHost: "https://llm.example.com/"},
			Endpoint{Provider: Ollama, Model: DefaultModels[Ollama], BaseURL: "https://llm.example.com/v1", KeyVar: "QSH_AI_API_KEY"}, ""},
		{"openai base url", Config{Provider: "openai", OpenAIKey: "o", OpenAIBaseURL: "http://lm:1234/v1", Model: "local"},
			Endpoint{Provider: OpenAI, Model: "local", BaseURL: "http://lm:1234/v1", APIKey: "o", KeyVar: "OPENAI_API_KEY"}, ""},
		{"qsh base url and key win", Config{Provider: "openai", OpenAIKey: "o", OpenAIBaseURL: "http://a/v1", BaseURL: "http://b/v1", APIKey: "q"},
			Endpoint{Provider: OpenAI, Model: DefaultModels[OpenAI], BaseURL: "http://b/v1", APIKey: "q", KeyVar: "QSH_AI_API_KEY"}, ""},
		{"fenced", Config{Provider: "ollama", ToolProtocol: "fenced"},
			Endpoint{Provider: Ollama, Model: DefaultModels[Ollama], BaseURL: "http://localhost:11434/v1", KeyVar: "QSH_AI_API_KEY", Protocol: ProtocolFenced}, ""},
		{"native", Config{Provider: "ollama", ToolProtocol: "Native"},
			Endpoint{Provider: Ollama, Model: DefaultModels[Ollama], BaseURL: "http://localhost:11434/v1", KeyVar: "QSH_AI_API_KEY", Protocol: ProtocolNative}, ""},
		// Values package config would have warned about count as auto.
		{"unknown provider", Config{Provider: "gemini", OpenAIKey: "o"},
			Endpoint{Provider: OpenAI, Model: DefaultModels[OpenAI], BaseURL: "https://api.openai.com/v1", APIKey: "o", KeyVar: "OPENAI_API_KEY"}, ""},
		{"unknown protocol", Config{ToolProtocol: "xml"},
			Endpoint{Provider: Ollama, Model: DefaultModels[Ollama], BaseURL: "http://localhost:11434/v1", KeyVar: "QSH_AI_API_KEY"}, ""},
	}
	for _, tc := range tests {
		got, err := tc.cfg.Resolve()
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: error %v, want %s", tc.name, err, tc.err)
			}
			continue
		}
		if tc.want.Protocol == "" {
			tc.want.Protocol = ProtocolAuto
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: got %+v, %v\nwant %+v", tc.name, got, err, tc.want)
		}
	}
}

// TestConfigBadValues checks that a bad value of any QSH_AI_ variable gets
// one warning and its default, and never turns the assistant off.
func TestConfigBadValues(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ kv, warning string }{
		{"QSH_AI_TOOL_PROTOCOL=bogus", `QSH_AI_TOOL_PROTOCOL="bogus": expected auto, native or fenced; using the default (auto)`},
		{"QSH_AI_PROVIDER=gemini", `QSH_AI_PROVIDER="gemini": expected openai, anthropic, ollama or auto; using the default (auto)`},
		{"QSH_AI_TIMEOUT=0s", `QSH_AI_TIMEOUT="0s": expected a duration of at least 1s; using the default (120s)`},
		{"QSH_AI_TIMEOUT=soon", `QSH_AI_TIMEOUT="soon": expected a duration such as 30s or 2m; using the default (120s)`},
		{"QSH_AI_TOOLS_MAX_ITER=-1", `QSH_AI_TOOLS_MAX_ITER="-1": expected an integer of at least 1; using the default (10)`},
		{"QSH_AI_MAX_OUTPUT_TOKENS=lots", `QSH_AI_MAX_OUTPUT_TOKENS="lots": expected an integer; using the default (4096)`},
		{"QSH_AI_MAX_OUTPUT_TOKENS=0", `QSH_AI_MAX_OUTPUT_TOKENS="0": expected an integer of at least 16; using the default (4096)`},
		{"QSH_AI_CONTEXT_TOKENS=-4", `QSH_AI_CONTEXT_TOKENS="-4": expected an integer of at least 0; using the default (empty)`},
	} {
		var stderr bytes.Buffer
		var cfg Config
		problems := config.Load([]string{tc.kv, "OPENAI_API_KEY=sk-x"}, &stderr, &cfg)
		if got := strings.TrimSpace(stderr.String()); got != "qsh: "+tc.warning {
			t.Errorf("%s: warning %q, want %q", tc.kv, got, tc.warning)
		}
		name, _, _ := strings.Cut(tc.kv, "=")
		if problems[name] == "" {
			t.Errorf("%s: --config would not show the problem", tc.kv)
		}
		ep, err := cfg.Resolve()
		if err != nil || ep.Provider != OpenAI || ep.Protocol != ProtocolAuto {
			t.Errorf("%s: resolved %+v, %v", tc.kv, ep, err)
		}
		a := New(cfg, nil)
		var out bytes.Buffer
		if err := a.Ask(context.Background(), Request{Text: "/status", Stdout: &out}); err != nil || !strings.Contains(out.String(), "provider  openai") {
			t.Errorf("%s: /status = %q, %v", tc.kv, out.String(), err)
		}
	}
}
