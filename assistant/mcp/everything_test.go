package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/assistant/mcp/mcptest"
	"github.com/qsh-shell/qsh/assistant/tools"
)

// everything returns the configuration of the MCP project's reference
// server, or skips the test when it is not installed.
func everything(t *testing.T) ServerConfig {
	t.Helper()
	node, args := mcptest.Everything(t)
	return ServerConfig{Name: "everything", Command: node, Args: args}
}

// TestEverything drives a server nobody here wrote through the registry,
// as the agent loop does: confirmation, validation, call, audit log.
func TestEverything(t *testing.T) {
	srv := everything(t)
	m := New(Confirm(nil), Servers(srv), StartTimeout(30*time.Second))
	defer m.Close()
	ctx := context.Background()
	start := time.Now()
	list, warnings := m.Tools(ctx)
	if len(warnings) > 0 {
		t.Fatalf("warnings: %v", warnings)
	}
	t.Logf("server-everything started with %d tools in %v", len(list), time.Since(start))

	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	reg := tools.NewRegistry(tools.DefaultConfig(), tools.AuditLog(audit))
	for _, tool := range list {
		reg.Add(tool)
	}
	var out bytes.Buffer
	var keys []rune
	env := tools.Env{Out: &out, ReadKey: func(context.Context) (rune, error) {
		k := keys[0]
		keys = keys[1:]
		return k, nil
	}}

	keys = []rune{'y'}
	res := reg.Call(ctx, env, "mcp_everything_echo", json.RawMessage(`{"message": "hello from qsh"}`))
	if !res.Success || !strings.Contains(res.Output, "hello from qsh") {
		t.Errorf("echo = %+v", res)
	}
	prompt := out.String()
	for _, want := range []string{"mcp_everything_echo", `"hello from qsh"`, "calls echo on the MCP server everything", "call? [y/n/a/A]"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the confirmation %q lacks %q", prompt, want)
		}
	}

	// The reference server calls its adding tool get-sum (it was add before).
	keys = []rune{'a'}
	res = reg.Call(ctx, env, "mcp_everything_get-sum", json.RawMessage(`{"a": 2, "b": 40}`))
	if !res.Success || !strings.Contains(res.Output, "42") {
		t.Errorf("get-sum = %+v", res)
	}
	out.Reset()
	res = reg.Call(ctx, env, "mcp_everything_get-sum", json.RawMessage(`{"a": 0.5, "b": 1}`))
	if !res.Success || !strings.Contains(res.Output, "1.5") || out.Len() != 0 {
		t.Errorf("get-sum after a = %+v, prompt %q", res, out.String())
	}

	// Its draft-07 schemas are checked here, before the server sees a call.
	echo := find(t, list, "mcp_everything_echo")
	if res := echo.Execute(ctx, tools.Env{}, json.RawMessage(`{"message": 7}`)); res.Success || !strings.Contains(res.Error, "invalid arguments") {
		t.Errorf("echo with a number = %+v", res)
	}

	// A tool that answers with an image gets a note, not the bytes.
	keys = []rune{'y'}
	res = reg.Call(ctx, env, "mcp_everything_get-tiny-image", json.RawMessage(`{}`))
	if !res.Success || !strings.Contains(res.Output, "[image: image/png") {
		t.Errorf("get-tiny-image = %+v", res)
	}

	log, err := os.ReadFile(audit)
	if err != nil {
		t.Fatal(err)
	}
	// Each call that ran is logged as it starts and as it ends.
	if n, started := strings.Count(string(log), `"tool":"mcp_everything_`), strings.Count(string(log), `"outcome":"started"`); n != 8 || started != 4 {
		t.Errorf("audit log has %d MCP lines, %d of them starts, want 8 and 4:\n%s", n, started, log)
	}
}
