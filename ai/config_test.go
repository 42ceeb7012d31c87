package ai

import (
	"testing"
	"time"

	"github.com/caarlos0/env/v11"
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
	want := Config{Provider: "auto", Model: "m1", Timeout: 30 * time.Second, ToolProtocol: "native", MaxIter: 4,
		OpenAIKey: "sk-x", OllamaHost: "box:1234"}
	if cfg != want {
		t.Errorf("got %+v\nwant %+v", cfg, want)
	}
	def, err := env.ParseAsWithOptions[Config](env.Options{Environment: map[string]string{}})
	if err != nil {
		t.Fatal(err)
	}
	if def.Timeout != 120*time.Second || def.MaxIter != 10 || def.Provider != "auto" || def.ToolProtocol != "native" {
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
			Endpoint{Provider: Ollama, Model: DefaultModels[Ollama], BaseURL: "http://localhost:11434/v1", KeyVar: "QSH_AI_API_KEY", Fenced: true}, ""},
		{"bad provider", Config{Provider: "gemini"}, Endpoint{}, `QSH_AI_PROVIDER="gemini": want openai, anthropic, ollama or auto`},
		{"bad protocol", Config{ToolProtocol: "xml"}, Endpoint{}, `QSH_AI_TOOL_PROTOCOL="xml": want native or fenced`},
	}
	for _, tc := range tests {
		got, err := tc.cfg.Resolve()
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: error %v, want %s", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: got %+v, %v\nwant %+v", tc.name, got, err, tc.want)
		}
	}
}
