package mcp_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai"
	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/assistant/mcp"
	"github.com/qsh-shell/qsh/assistant/tools"
)

// TestAgentEverything is a whole turn: a scripted model calls the reference
// server's echo and get-sum tools, the user confirms, and the results go
// back to the model.
func TestAgentEverything(t *testing.T) {
	srv := mcp.Everything(t)
	m := mcp.New(mcp.Confirm(nil), mcp.Servers(srv), mcp.StartTimeout(30*time.Second))
	defer m.Close()
	cfg := tools.DefaultConfig()
	cfg.FS, cfg.Exec, cfg.Web = false, false, false
	set := m.Set(tools.NewRegistry(cfg, tools.AuditLog(filepath.Join(t.TempDir(), "audit.jsonl"))))

	model := aitest.NewOpenAI(t,
		aitest.Use("mcp_everything_echo", `{"message": "hello from the model"}`, 3),
		aitest.Use("mcp_everything_get-sum", `{"a": 19, "b": 23}`, 2),
		aitest.Say("The server echoed and added.", 2),
	)
	agent := ai.New(ai.Config{Provider: "openai", BaseURL: model.URL, OpenAIKey: "sk-test-0001", MaxIter: 10, Timeout: 10 * time.Second}, set)

	if w := set.Prepare(context.Background()); len(w) > 0 {
		t.Fatalf("warnings: %v", w)
	}
	var out bytes.Buffer
	var asked int
	start := time.Now()
	err := agent.Ask(context.Background(), ai.Request{
		Text:   "use the everything server",
		Dir:    t.TempDir(),
		Stdout: &out,
		Env: tools.Env{ReadKey: func(context.Context) (rune, error) {
			asked++
			return 'y', nil
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("turn took %v", time.Since(start))
	if asked != 2 {
		t.Errorf("asked %d times, want once per call", asked)
	}
	screen := out.String()
	for _, want := range []string{"mcp_everything_echo", "calls echo on the MCP server everything", "mcp_everything_get-sum", "The server echoed and added."} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen lacks %q:\n%s", want, screen)
		}
	}

	reqs := model.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	if first := string(reqs[0].Raw); !strings.Contains(first, `"mcp_everything_echo"`) || !strings.Contains(first, "Message to echo") {
		t.Errorf("the first request does not offer the echo tool with its schema:\n%s", first)
	}
	if second := string(reqs[1].Raw); !strings.Contains(second, "hello from the model") || !strings.Contains(second, "Echo: hello from the model") {
		t.Errorf("the echo result did not reach the model:\n%s", second)
	}
	if third := string(reqs[2].Raw); !strings.Contains(third, "42") {
		t.Errorf("the sum did not reach the model:\n%s", third)
	}
}
