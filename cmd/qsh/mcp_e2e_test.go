package main

// End-to-end test of MCP servers through the real qsh binary on a
// pseudo-terminal: a real server nobody here wrote, configured the way users
// configure it, called by the scripted fake model.

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/assistant/mcp/mcptest"
	"github.com/qsh-shell/qsh/internal/testtime"
	"github.com/qsh-shell/qsh/policy/sandbox"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// TestMCPEverything drives a turn in which the model calls the reference
// server's echo and adding tools: each is confirmed at the prompt, and
// their results reach the model.
func TestMCPEverything(t *testing.T) {
	t.Parallel()
	node, args := mcptest.Everything(t)
	srv := aitest.NewOpenAI(t,
		call("mcp_everything_echo", map[string]any{"message": "hello from qsh e2e"}),
		// The pinned version calls its adding tool get-sum (it was add).
		call("mcp_everything_get-sum", map[string]any{"a": 2, "b": 40}),
		aitest.Say("The server echoed and added.", 2))
	env := aiEnv(t, srv)
	// The server runs under an sh named by a marker, to find its
	// processes; stopping the server stops its whole process group.
	marker := fmt.Sprintf("qsh-mcp-e2e-%06d", rand.IntN(1e6))
	t.Cleanup(func() { exec.Command("pkill", "-f", marker).Run() })
	cfg, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"everything": map[string]any{
			"command": "sh",
			"args":    append([]string{"-c", `"$@"; exit $?`, marker, node}, args...),
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, lookupEnv(env, "XDG_CONFIG_HOME"), map[string]string{"qsh/mcp.json": string(cfg)})
	running := func() bool {
		out, _ := exec.Command("pgrep", "-f", marker).Output()
		return len(out) > 0
	}

	tm := startIn(t, t.TempDir(), env)
	tm.SetTimeout(time.Minute) // node starting on two busy cores
	// The status lists the server without starting it.
	tm.Line("? /status")
	if out := tm.WaitFor(ps1); !strings.Contains(out, "mcp: everything:") || strings.Contains(out, "mcp: everything: running") {
		t.Errorf("/status before the first question:\n%s", out)
	}
	if running() {
		t.Errorf("the server started before the first question")
	}
	tm.Line("? use the everything server")
	out := tm.WaitFor("[y/n/a")
	for _, want := range []string{"mcp_everything_echo", `"hello from qsh e2e"`, "calls echo on the MCP server everything"} {
		if !strings.Contains(out, want) {
			t.Errorf("the echo confirmation lacks %q:\n%s", want, out)
		}
	}
	// e is no answer at an MCP call: not offered, and the hint says why.
	tm.Mark()
	tm.Type("e")
	if out := tm.WaitFor("call? [y/n/a/A] "); !strings.Contains(out, "e is not offered here: an MCP tool's call is not a command") {
		t.Errorf("no hint after e at an MCP call:\n%s", out)
	}
	tm.Type("y")
	out = tm.WaitFor("[y/n/a")
	for _, want := range []string{"mcp_everything_get-sum", `"a":2`, `"b":40`} {
		if !strings.Contains(strings.ReplaceAll(out, " ", ""), strings.ReplaceAll(want, " ", "")) {
			t.Errorf("the get-sum confirmation lacks %q:\n%s", want, out)
		}
	}
	tm.Type("y")
	if out := tm.WaitFor(ps1); !strings.Contains(out, "The server echoed and added.") {
		t.Errorf("screen:\n%s", out)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("the model got %d requests, want 3", len(reqs))
	}
	// The model was offered the server's tools with their schemas.
	tools, _ := reqs[0].Body["tools"].([]any)
	offered := map[string]bool{}
	for _, x := range tools {
		fn, _ := x.(map[string]any)["function"].(map[string]any)
		name, _ := fn["name"].(string)
		offered[name] = fn["parameters"] != nil
	}
	for _, name := range []string{"mcp_everything_echo", "mcp_everything_get-sum", "execute_command"} {
		if !offered[name] {
			t.Errorf("the model was not offered %s with a schema; offered %v", name, offered)
		}
	}
	wantResults(t, srv, "hello from qsh e2e", "42")

	tm.Line("? /status")
	out = tm.WaitFor(ps1)
	if !strings.Contains(out, "mcp: everything: running") {
		t.Errorf("/status does not list the server:\n%s", out)
	}
	if len(srv.Requests()) != 3 {
		t.Errorf("/status asked the model")
	}
	if !running() {
		t.Fatalf("no process matches %q while the server runs", marker)
	}
	// It runs in the sandbox: confine set no_new_privs before Landlock.
	if sandbox.ABI() > 0 {
		pids, _ := exec.Command("pgrep", "-f", marker).Output()
		for _, pid := range strings.Fields(string(pids)) {
			if st, err := os.ReadFile("/proc/" + pid + "/status"); err == nil && !strings.Contains(string(st), "NoNewPrivs:\t1") {
				t.Errorf("the server's process %s runs unconfined", pid)
			}
		}
	}
	// The server stops with the shell.
	exit(t, tm)
	if !testtime.Until(shelltest.Timeout(), func() bool { return !running() }) {
		t.Errorf("the server outlived the shell")
	}
}
