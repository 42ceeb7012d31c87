package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/assistant/tools"
)

func names(list []tools.Tool) string {
	var n []string
	for _, t := range list {
		n = append(n, t.Name())
	}
	return strings.Join(n, " ")
}

func TestSet(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "fail")
	flaky := stdio(t, "flaky", "flaky")
	flaky.Env["QSH_MCP_TEST_FAIL_IF"] = marker
	m := newManager(t, Servers(flaky, stdio(t, "dies", "exit")))
	cfg := tools.DefaultConfig()
	cfg.FS, cfg.Exec, cfg.Web = false, false, false
	reg := tools.NewRegistry(cfg, tools.AuditLog(""))
	set := m.Set(reg)

	if st := mcpStatus(set); len(st) != 2 || st[0] != "mcp: dies: not started" || st[1] != "mcp: flaky: not started" {
		t.Errorf("Status before the first turn = %q", st)
	}
	warnings := set.Prepare(context.Background())
	if len(warnings) != 1 || !strings.Contains(warnings[0], `"dies"`) {
		t.Errorf("warnings = %q", warnings)
	}
	if got := names(set.Tools()); !strings.Contains(got, "mcp_flaky_echo") || strings.Contains(got, "dies") {
		t.Errorf("Tools = %s", got)
	}
	yes := tools.Env{ReadKey: func(context.Context) (rune, error) { return 'y', nil }}
	res := set.Call(context.Background(), yes, "mcp_flaky_echo", json.RawMessage(`{"message":"via the registry"}`))
	if res.Output != "via the registry" {
		t.Errorf("echo = %+v", res)
	}
	if st := mcpStatus(set); len(st) != 2 || !strings.HasPrefix(st[0], "mcp: dies: failed: ") || st[1] != "mcp: flaky: running, 11 tools" {
		t.Errorf("Status = %q", st)
	}

	// The server dies and will not come back: its tools go from the list.
	os.WriteFile(marker, nil, 0o644)
	res = set.Call(context.Background(), yes, "mcp_flaky_crash", json.RawMessage(`{}`))
	if !strings.Contains(res.Error, `the MCP server "flaky" stopped during the call (it said: panic: out of cheese)`) {
		t.Errorf("crash = %+v", res)
	}
	warnings = set.Prepare(context.Background())
	if len(warnings) != 2 || !strings.Contains(strings.Join(warnings, "\n"), "cannot start today") {
		t.Errorf("warnings = %q", warnings)
	}
	if got := names(set.Tools()); strings.Contains(got, "mcp_") {
		t.Errorf("Tools with both servers down = %s", got)
	}

	// It is tried again on each turn.
	os.Remove(marker)
	if warnings := set.Prepare(context.Background()); len(warnings) != 1 {
		t.Errorf("warnings = %q", warnings)
	}
	if got := names(set.Tools()); !strings.Contains(got, "mcp_flaky_echo") {
		t.Errorf("Tools after the restart = %s", got)
	}
}

// mcpStatus is the servers' part of set's status lines (the registry's,
// about the sandbox, come first).
func mcpStatus(set *Set) []string {
	var out []string
	for _, l := range set.Status(tools.Env{}) {
		if strings.HasPrefix(l, "mcp: ") {
			out = append(out, l)
		}
	}
	return out
}

func TestSetNoServers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp.json")
	m := newManager(t, ConfigFile(path))
	set := m.Set(tools.NewRegistry(tools.DefaultConfig(), tools.AuditLog("")))
	if st := mcpStatus(set); len(st) != 1 || st[0] != "mcp: no servers configured in "+path {
		t.Errorf("Status = %q", st)
	}
	if st := set.Status(tools.Env{}); !strings.HasPrefix(st[0], "sandbox   ") {
		t.Errorf("Status without the registry's sandbox line: %q", st)
	}
	if w := set.Prepare(context.Background()); len(w) != 0 {
		t.Errorf("warnings = %q", w)
	}
}
