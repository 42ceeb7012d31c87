package ai

import (
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Config is the assistant's part of the environment, parsed by qsh-assistant with
// caarlos0/env. The standard variables of each provider are read too.
type Config struct {
	Provider     string        `env:"QSH_AI_PROVIDER" envDefault:"auto"`
	Model        string        `env:"QSH_AI_MODEL" doc:"per provider"`
	BaseURL      string        `env:"QSH_AI_BASE_URL" doc:"per provider"`
	APIKey       string        `env:"QSH_AI_API_KEY"`
	Timeout      time.Duration `env:"QSH_AI_TIMEOUT" envDefault:"120s"`
	ToolProtocol string        `env:"QSH_AI_TOOL_PROTOCOL" envDefault:"native"`
	MaxIter      int           `env:"QSH_AI_TOOLS_MAX_ITER" envDefault:"10"`

	OpenAIKey     string `env:"OPENAI_API_KEY"`
	AnthropicKey  string `env:"ANTHROPIC_API_KEY"`
	OpenAIBaseURL string `env:"OPENAI_BASE_URL"`
	OllamaHost    string `env:"OLLAMA_HOST" doc:"http://localhost:11434"`
	// NoColor, when not empty, turns colour off (https://no-color.org).
	NoColor string `env:"NO_COLOR"`
}

// The providers.
const (
	OpenAI    = "openai"
	Anthropic = "anthropic"
	Ollama    = "ollama"
)

// DefaultModels is the model used when QSH_AI_MODEL is not set.
var DefaultModels = map[string]string{
	OpenAI:    "gpt-5-mini",
	Anthropic: "claude-sonnet-4-5",
	Ollama:    "llama3.2",
}

// Endpoint is a resolved provider: whom to ask, with what.
type Endpoint struct {
	Provider string // OpenAI, Anthropic or Ollama
	Model    string
	BaseURL  string
	APIKey   string
	// KeyVar names the variable the key should come from, for messages.
	KeyVar string
	// Fenced is true when tools are described in the prompt as ```tool
	// blocks rather than sent as functions.
	Fenced bool
}

// Resolve picks the provider and fills in the defaults. With provider
// auto, ANTHROPIC_API_KEY selects Anthropic, else OPENAI_API_KEY selects
// OpenAI, else Ollama on OLLAMA_HOST.
func (c Config) Resolve() (Endpoint, error) {
	var e Endpoint
	switch strings.ToLower(strings.TrimSpace(c.ToolProtocol)) {
	case "", "native":
	case "fenced":
		e.Fenced = true
	default:
		return e, fmt.Errorf("QSH_AI_TOOL_PROTOCOL=%q: want native or fenced", c.ToolProtocol)
	}
	e.Provider = strings.ToLower(strings.TrimSpace(c.Provider))
	switch e.Provider {
	case "", "auto":
		switch {
		case c.AnthropicKey != "":
			e.Provider = Anthropic
		case c.OpenAIKey != "":
			e.Provider = OpenAI
		default:
			e.Provider = Ollama
		}
	case OpenAI, Anthropic, Ollama:
	default:
		return e, fmt.Errorf("QSH_AI_PROVIDER=%q: want openai, anthropic, ollama or auto", c.Provider)
	}
	switch e.Provider {
	case OpenAI:
		e.KeyVar, e.APIKey = "OPENAI_API_KEY", c.OpenAIKey
		e.BaseURL = first(c.BaseURL, c.OpenAIBaseURL, "https://api.openai.com/v1")
	case Anthropic:
		e.KeyVar, e.APIKey = "ANTHROPIC_API_KEY", c.AnthropicKey
		e.BaseURL = first(c.BaseURL, "https://api.anthropic.com")
	case Ollama:
		e.KeyVar = "QSH_AI_API_KEY"
		e.BaseURL = c.BaseURL
		if e.BaseURL == "" {
			e.BaseURL = ollamaURL(c.OllamaHost)
		}
	}
	if c.APIKey != "" {
		e.APIKey = c.APIKey
		e.KeyVar = "QSH_AI_API_KEY"
	}
	e.Model = first(c.Model, DefaultModels[e.Provider])
	if _, err := url.Parse(e.BaseURL); err != nil {
		return e, fmt.Errorf("base URL %q: %v", e.BaseURL, err)
	}
	return e, nil
}

// ollamaURL turns OLLAMA_HOST (host, host:port or a URL) into the base URL
// of Ollama's OpenAI-compatible API.
func ollamaURL(host string) string {
	host = strings.TrimRight(strings.TrimSpace(host), "/")
	if host == "" {
		return "http://localhost:11434/v1"
	}
	if !strings.Contains(host, "://") {
		host = "http://" + host
	}
	if u, err := url.Parse(host); err == nil && u.Port() == "" && u.Scheme == "http" {
		u.Host += ":11434"
		host = u.String()
	}
	if strings.HasSuffix(host, "/v1") {
		return host
	}
	return host + "/v1"
}

func first(s ...string) string {
	for _, v := range s {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}
