package tools

import (
	"reflect"
	"testing"
	"time"

	"github.com/caarlos0/env/v11"

	"github.com/qsh-shell/qsh/assistant/checkpoint"
	"github.com/qsh-shell/qsh/policy/sandbox"
)

// TestConfigFromEnvironment parses Config the way cmd/qsh does, with the
// variable names DESIGN.md fixes.
func TestConfigFromEnvironment(t *testing.T) {
	var def Config
	if err := env.ParseWithOptions(&def, env.Options{Environment: map[string]string{}}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(def, DefaultConfig()) {
		t.Errorf("defaults from tags %+v\n!= DefaultConfig %+v", def, DefaultConfig())
	}
	vars := map[string]string{
		"QSH_AI_TOOLS_FS":          "false",
		"QSH_AI_TOOLS_EXEC":        "false",
		"QSH_AI_TOOLS_WEB":         "false",
		"QSH_AI_TOOLS_MCP":         "false",
		"QSH_AI_TOOLS_CONFIRM":     "false",
		"QSH_AI_FS_MAX_SIZE":       "2048",
		"QSH_AI_FS_WRITE":          "false",
		"QSH_AI_FS_POST_EDIT":      "gofmt -l {file}",
		"QSH_AI_EXEC_TIMEOUT":      "1m",
		"QSH_AI_EXEC_MAX_OUTPUT":   "500",
		"QSH_AI_EXEC_ALLOWED_ONLY": "true",
		"QSH_AI_DRY_RUN":           "true",
		"QSH_AI_WEB_PROVIDER":      "searxng",
		"QSH_AI_WEB_BASE_URL":      "http://localhost:8888",
		"QSH_AI_WEB_MAX_RESULTS":   "7",
		"QSH_AI_SANDBOX":           "readonly",
		"QSH_AI_SANDBOX_NET":       "off",
		"QSH_AI_SANDBOX_ALLOW":     "example.com, *.corp.example",
		"QSH_AI_SANDBOX_STRICT":    "yes",
		"QSH_AI_CHECKPOINTS":       "off",
		"QSH_AI_CHECKPOINT_KEEP":   "30d",
		"QSH_AI_HOOK_PRE_TOOL":     "~/bin/pre",
		"QSH_AI_HOOK_POST_TOOL":    "logger post",
		"QSH_AI_HOOK_TURN_END":     "notify-send done",
		"QSH_AI_HOOK_TIMEOUT":      "3s",
	}
	var c Config
	if err := env.ParseWithOptions(&c, env.Options{Environment: vars}); err != nil {
		t.Fatal(err)
	}
	want := Config{
		Confirm: ConfirmYolo, FSMaxSize: 2048, PostEdit: "gofmt -l {file}",
		ExecTimeout: time.Minute, ExecMaxOutput: 500, AllowedOnly: true, DryRun: true,
		WebProvider: SearXNG, WebBaseURL: "http://localhost:8888", WebMaxResults: 7,
		Sandbox: sandbox.ReadOnly, SandboxNet: sandbox.NetOff,
		SandboxAllow: sandbox.Domains{"example.com", "*.corp.example"}, SandboxStrict: true,
		Checkpoints: false, CheckpointKeep: checkpoint.Keep{Age: 30 * 24 * time.Hour, Bytes: 1 << 30},
		HookPreTool: "~/bin/pre", HookPostTool: "logger post", HookTurnEnd: "notify-send done", HookTimeout: 3 * time.Second,
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("parsed %+v\nwant %+v", c, want)
	}
	for name, val := range map[string]string{"QSH_AI_TOOLS_CONFIRM": "sometimes", "QSH_AI_WEB_PROVIDER": "bing",
		"QSH_AI_SANDBOX": "strict", "QSH_AI_SANDBOX_NET": "maybe",
		"QSH_AI_SANDBOX_ALLOW": "https://x.example/", "QSH_AI_SANDBOX_STRICT": "sometimes"} {
		var c Config
		err := env.ParseWithOptions(&c, env.Options{Environment: map[string]string{name: val}})
		if err == nil {
			t.Errorf("%s=%s: no error", name, val)
		}
	}
}
