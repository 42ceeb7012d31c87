package ai

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Config is the assistant's part of the environment, parsed by qsh-assistant with
// caarlos0/env (through package config, which checks the min tags). The
// standard variables of each provider are read too.
type Config struct {
	Provider     Provider      `env:"QSH_AI_PROVIDER" envDefault:"auto"`
	Model        string        `env:"QSH_AI_MODEL" doc:"per provider"`
	BaseURL      string        `env:"QSH_AI_BASE_URL" doc:"per provider"`
	APIKey       string        `env:"QSH_AI_API_KEY"`
	Timeout      time.Duration `env:"QSH_AI_TIMEOUT" envDefault:"120s" min:"1s"`
	ToolProtocol Protocol      `env:"QSH_AI_TOOL_PROTOCOL" envDefault:"auto"`
	MaxIter      int           `env:"QSH_AI_TOOLS_MAX_ITER" envDefault:"10" min:"1"`
	// MaxOutput bounds each answer, in tokens.
	MaxOutput int `env:"QSH_AI_MAX_OUTPUT_TOKENS" envDefault:"4096" min:"16"`
	// ContextTokens is the model's context window; 0 means learn it
	// (Ollama) or do without (other servers).
	ContextTokens int `env:"QSH_AI_CONTEXT_TOKENS" doc:"learned from Ollama, else unknown" min:"0"`

	// BudgetTokens stops a session's turns once it has used this many
	// tokens, in and out; 0 sets no limit.
	BudgetTokens int `env:"QSH_AI_BUDGET_TOKENS" min:"0"`
	// PriceIn and PriceOut are the prices of a million input and output
	// tokens, to show what turns cost.
	PriceIn  float64 `env:"QSH_AI_PRICE_IN" min:"0"`
	PriceOut float64 `env:"QSH_AI_PRICE_OUT" min:"0"`
	// KeepConversations is how many saved conversations are kept; 0
	// saves none.
	KeepConversations int `env:"QSH_AI_KEEP_CONVERSATIONS" envDefault:"100" min:"0"`

	OpenAIKey     string `env:"OPENAI_API_KEY"`
	AnthropicKey  string `env:"ANTHROPIC_API_KEY"`
	OpenAIBaseURL string `env:"OPENAI_BASE_URL"`
	OllamaHost    string `env:"OLLAMA_HOST" doc:"http://localhost:11434"`
	// NoColor, when not empty, turns colour off (https://no-color.org).
	NoColor string `env:"NO_COLOR"`
}

// Provider is QSH_AI_PROVIDER: whom to ask, or auto.
type Provider string

// The providers.
const (
	OpenAI    Provider = "openai"
	Anthropic Provider = "anthropic"
	Ollama    Provider = "ollama"
)

// UnmarshalText accepts the providers and auto.
func (p *Provider) UnmarshalText(b []byte) error {
	switch v := Provider(strings.ToLower(strings.TrimSpace(string(b)))); v {
	case "", "auto", OpenAI, Anthropic, Ollama:
		*p = v
	default:
		return errors.New("expected openai, anthropic, ollama or auto")
	}
	return nil
}

// Protocol is QSH_AI_TOOL_PROTOCOL: how the model is told about the tools
// and calls them.
type Protocol string

const (
	// ProtocolAuto is native function calling, until a model's server
	// says it does not support tools; that model then gets fenced blocks
	// for the rest of the session.
	ProtocolAuto Protocol = "auto"
	// ProtocolNative is function calling, always.
	ProtocolNative Protocol = "native"
	// ProtocolFenced is ```tool blocks in the text, always.
	ProtocolFenced Protocol = "fenced"
)

// UnmarshalText accepts the three protocols.
func (p *Protocol) UnmarshalText(b []byte) error {
	switch v := Protocol(strings.ToLower(strings.TrimSpace(string(b)))); v {
	case "", ProtocolAuto, ProtocolNative, ProtocolFenced:
		*p = v
	default:
		return errors.New("expected auto, native or fenced")
	}
	return nil
}

// DefaultModels is the model used when QSH_AI_MODEL is not set.
var DefaultModels = map[Provider]string{
	OpenAI:    "gpt-5-mini",
	Anthropic: "claude-sonnet-4-5",
	Ollama:    "llama3.2",
}

// Endpoint is a resolved provider: whom to ask, with what.
type Endpoint struct {
	Provider Provider // OpenAI, Anthropic or Ollama
	Model    string
	BaseURL  string
	APIKey   string
	// KeyVar names the variable the key should come from, for messages.
	KeyVar string
	// Protocol is how tools reach the model; never empty.
	Protocol Protocol
}

// Resolve picks the provider and fills in the defaults. With provider
// auto, ANTHROPIC_API_KEY selects Anthropic, else OPENAI_API_KEY selects
// OpenAI, else Ollama on OLLAMA_HOST. A provider or protocol it does not
// know (a Config not loaded through package config, which warns about
// them) counts as auto.
func (c Config) Resolve() (Endpoint, error) {
	var e Endpoint
	switch p := Protocol(strings.ToLower(strings.TrimSpace(string(c.ToolProtocol)))); p {
	case ProtocolNative, ProtocolFenced:
		e.Protocol = p
	default:
		e.Protocol = ProtocolAuto
	}
	e.Provider = Provider(strings.ToLower(strings.TrimSpace(string(c.Provider))))
	switch e.Provider {
	case OpenAI, Anthropic, Ollama:
	default:
		switch {
		case c.AnthropicKey != "":
			e.Provider = Anthropic
		case c.OpenAIKey != "":
			e.Provider = OpenAI
		default:
			e.Provider = Ollama
		}
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
