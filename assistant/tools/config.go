package tools

import (
	"fmt"
	"strings"
	"time"

	"github.com/qsh-shell/qsh/assistant/checkpoint"
	"github.com/qsh-shell/qsh/policy/sandbox"
)

// Config is the tools' part of qsh's configuration. qsh-assistant fills it with
// caarlos0/env; the names are the ones DESIGN.md fixes. The settings that
// make the sandbox or the confirmations stricter are tagged strict (see
// config.Strict): mistyped, they stop the assistant rather than loosen.
type Config struct {
	FS   bool `env:"QSH_AI_TOOLS_FS" envDefault:"true" strict:"true"`
	Exec bool `env:"QSH_AI_TOOLS_EXEC" envDefault:"true" strict:"true"`
	Web  bool `env:"QSH_AI_TOOLS_WEB" envDefault:"true" strict:"true"`
	MCP  bool `env:"QSH_AI_TOOLS_MCP" envDefault:"true" strict:"true"`
	// MCPConfig is the MCP servers' configuration file; empty means the
	// XDG default, which assistant/mcp works out.
	MCPConfig string `env:"QSH_AI_MCP_CONFIG" doc:"$XDG_CONFIG_HOME/qsh/mcp.json"`
	// Permissions is the file of saved "A" answers; empty means the XDG
	// default.
	Permissions string `env:"QSH_AI_PERMISSIONS" doc:"$XDG_CONFIG_HOME/qsh/permissions"`

	Confirm ConfirmMode `env:"QSH_AI_TOOLS_CONFIRM" envDefault:"sensitive" strict:"true"`

	FSMaxSize int64  `env:"QSH_AI_FS_MAX_SIZE" envDefault:"1048576" min:"1"`
	FSWrite   bool   `env:"QSH_AI_FS_WRITE" envDefault:"true" strict:"true"`
	PostEdit  string `env:"QSH_AI_FS_POST_EDIT"`

	ExecTimeout   time.Duration `env:"QSH_AI_EXEC_TIMEOUT" envDefault:"30s" min:"1s"`
	ExecMaxOutput int           `env:"QSH_AI_EXEC_MAX_OUTPUT" envDefault:"102400" min:"1"`
	AllowedOnly   bool          `env:"QSH_AI_EXEC_ALLOWED_ONLY" envDefault:"false" strict:"true"`
	DryRun        bool          `env:"QSH_AI_DRY_RUN" envDefault:"false" strict:"true"`

	// Sandbox confines the programs execute_command runs (see package
	// sandbox); SandboxNet says where they may connect, SandboxAllow adds
	// to the allow list (with $XDG_CONFIG_HOME/qsh/sandbox.json), and
	// SandboxStrict refuses to run them with fewer layers than all.
	Sandbox       sandbox.Mode    `env:"QSH_AI_SANDBOX" envDefault:"workspace" strict:"true"`
	SandboxNet    sandbox.Net     `env:"QSH_AI_SANDBOX_NET" envDefault:"allowlist" strict:"true"`
	SandboxAllow  sandbox.Domains `env:"QSH_AI_SANDBOX_ALLOW" doc:"package registries and code hosts"`
	SandboxStrict sandbox.Strict  `env:"QSH_AI_SANDBOX_STRICT" envDefault:"false" strict:"true"`

	// Checkpoints keeps what the workspace was before each command and
	// file change, for `? /undo` (see package checkpoint); CheckpointKeep
	// is how long and how much.
	Checkpoints    OnOff           `env:"QSH_AI_CHECKPOINTS" envDefault:"on"`
	CheckpointKeep checkpoint.Keep `env:"QSH_AI_CHECKPOINT_KEEP" envDefault:"7d,1GB"`

	WebProvider   WebProvider `env:"QSH_AI_WEB_PROVIDER" envDefault:"duckduckgo"`
	WebBaseURL    string      `env:"QSH_AI_WEB_BASE_URL"`
	WebMaxResults int         `env:"QSH_AI_WEB_MAX_RESULTS" envDefault:"5" min:"1"`

	// Hooks are the user's programs (sh -c) run before each tool call (it
	// may veto it or rewrite its arguments), after it, and at the end of
	// each turn, each with a JSON payload on stdin, within HookTimeout
	// (see hook.go).
	HookPreTool  string        `env:"QSH_AI_HOOK_PRE_TOOL"`
	HookPostTool string        `env:"QSH_AI_HOOK_POST_TOOL"`
	HookTurnEnd  string        `env:"QSH_AI_HOOK_TURN_END"`
	HookTimeout  time.Duration `env:"QSH_AI_HOOK_TIMEOUT" envDefault:"10s" min:"100ms"`
}

// Limits the model cannot go past, whatever it asks for.
const (
	MaxExecTimeout   = 300 * time.Second
	MaxWebResults    = 10
	DuckDuckGoURL    = "https://html.duckduckgo.com/html/"
	minSearchSpacing = 2 * time.Second
)

// DefaultConfig is Config with every default applied, as when no variable
// is set.
func DefaultConfig() Config {
	return Config{
		FS: true, Exec: true, Web: true, MCP: true,
		Confirm:       ConfirmSensitive,
		FSMaxSize:     1 << 20,
		FSWrite:       true,
		ExecTimeout:   30 * time.Second,
		ExecMaxOutput: 102400,
		Sandbox:       sandbox.Workspace,
		SandboxNet:    sandbox.AllowList,
		WebProvider:   DuckDuckGo,
		WebMaxResults: 5,
		HookTimeout:   10 * time.Second,

		Checkpoints:    true,
		CheckpointKeep: checkpoint.DefaultKeep,
	}
}

// normalize brings out-of-range values back to something usable, so that
// a bad setting degrades rather than breaks a tool.
func (c Config) normalize() Config {
	d := DefaultConfig()
	if c.Confirm == "" {
		c.Confirm = d.Confirm
	}
	if c.FSMaxSize <= 0 {
		c.FSMaxSize = d.FSMaxSize
	}
	if c.ExecTimeout <= 0 {
		c.ExecTimeout = d.ExecTimeout
	}
	c.ExecTimeout = min(c.ExecTimeout, MaxExecTimeout)
	if c.ExecMaxOutput <= 0 {
		c.ExecMaxOutput = d.ExecMaxOutput
	}
	if c.HookTimeout <= 0 {
		c.HookTimeout = d.HookTimeout
	}
	if c.Sandbox == "" {
		c.Sandbox = d.Sandbox
	}
	if c.SandboxNet == "" {
		c.SandboxNet = d.SandboxNet
	}
	if c.WebProvider == "" {
		c.WebProvider = d.WebProvider
	}
	if c.WebBaseURL == "" && c.WebProvider == DuckDuckGo {
		c.WebBaseURL = DuckDuckGoURL
	}
	if c.WebMaxResults <= 0 {
		c.WebMaxResults = d.WebMaxResults
	}
	c.WebMaxResults = min(c.WebMaxResults, MaxWebResults)
	return c
}

// ConfirmMode is QSH_AI_TOOLS_CONFIRM: which calls are asked about.
type ConfirmMode string

const (
	ConfirmSensitive ConfirmMode = "sensitive" // ask for dev and dangerous
	ConfirmAll       ConfirmMode = "all"       // ask for everything
	ConfirmYolo      ConfirmMode = "yolo"      // ask only for dangerous
)

// UnmarshalText accepts the three modes, and true/false for sensitive/yolo.
func (m *ConfirmMode) UnmarshalText(b []byte) error {
	switch s := strings.ToLower(strings.TrimSpace(string(b))); s {
	case "sensitive", "true", "1", "yes", "on":
		*m = ConfirmSensitive
	case "all":
		*m = ConfirmAll
	case "yolo", "false", "0", "no", "off":
		*m = ConfirmYolo
	default:
		return fmt.Errorf("%q is not a confirmation mode: want sensitive, all or yolo (true = sensitive, false = yolo)", s)
	}
	return nil
}

// WebProvider is QSH_AI_WEB_PROVIDER: the search back end.
type WebProvider string

const (
	DuckDuckGo WebProvider = "duckduckgo"
	SearXNG    WebProvider = "searxng"
)

// UnmarshalText accepts duckduckgo and searxng.
func (p *WebProvider) UnmarshalText(b []byte) error {
	switch s := WebProvider(strings.ToLower(strings.TrimSpace(string(b)))); s {
	case DuckDuckGo, SearXNG:
		*p = s
	default:
		return fmt.Errorf("%q is not a web search provider: want duckduckgo or searxng", s)
	}
	return nil
}
