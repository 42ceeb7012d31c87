package ai

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai/chat"
	"github.com/qsh-shell/qsh/assistant/tools"
)

// estimateTokens is the rough rule tokens ≈ characters / 4.
func estimateTokens(system string, specs []chat.Tool) int {
	n := len(system)
	for _, t := range specs {
		n += len(t.Name) + len(t.Description) + len(compact(t.Schema))
	}
	return n / 4
}

// likeTools are descriptions and schemas of the size the real tools have.
var likeTools = []chat.Tool{
	{Name: "filesystem", Description: "Read, list, search, write or edit files in the workspace. Paths resolve against the current directory; sensitive files need the user's approval. write replaces a whole file atomically; edit replaces old_text, which must occur exactly once, by new_text and returns the diff.",
		Schema: json.RawMessage(`{"type":"object","properties":{"operation":{"type":"string","enum":["read","list","exists","metadata","write","edit","search"]},"path":{"type":"string"},"content":{"type":"string","description":"write: the new content"},"old_text":{"type":"string"},"new_text":{"type":"string"},"start_line":{"type":"integer"},"end_line":{"type":"integer"},"recursive":{"type":"boolean"},"glob":{"type":"string"},"pattern":{"type":"string","description":"search: regex or literal"},"context":{"type":"integer"},"max_results":{"type":"integer"}},"required":["operation","path"]}`)},
	{Name: "execute_command", Description: "Run a shell command in a subshell of the user's session (same functions, aliases, variables and directory; nothing leaks back), stdin closed. Returns the exit status and the output, truncated head and tail. Dangerous commands need the user's approval.",
		Schema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"},"timeout_seconds":{"type":"integer","description":"default 30, at most 300"}},"required":["command"]}`)},
	{Name: "web_search", Description: "Search the web; returns titles, URLs and snippets.",
		Schema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"},"num_results":{"type":"integer","description":"at most 10"}},"required":["query"]}`)},
}

func TestPromptSize(t *testing.T) {
	native := estimateTokens(system(false, likeTools), likeTools)
	fenced := estimateTokens(system(true, likeTools), nil)
	alone := estimateTokens(systemPrompt, nil)
	t.Logf("system prompt alone ≈ %d tokens; with tools: native ≈ %d, fenced ≈ %d", alone, native, fenced)
	if native > 1500 || fenced > 1500 {
		t.Errorf("prompt with tools is %d (native) / %d (fenced) tokens, the bar is 1,500", native, fenced)
	}
}

func TestContextBlock(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 3, 4, 0, 0, time.UTC)
	var rec []Command
	for i := range 30 {
		rec = append(rec, Command{Line: fmt.Sprintf("cmd%02d", i), Dir: "/d", Start: now.Add(time.Duration(i) * time.Second),
			Duration: time.Second, Status: i % 3, Output: strings.Repeat("x", 5000) + "\nlast line\n"})
	}
	got := contextBlock("linux", "/d", now, rec, time.Time{})
	if len(got) > maxRecordLength+600 {
		t.Errorf("context block is %d bytes", len(got))
	}
	if !strings.Contains(got, "$ cmd29\n") || !strings.Contains(got, "last line") {
		t.Errorf("the newest command is missing:\n%s", got)
	}
	if strings.Contains(got, "$ cmd20\n") {
		t.Errorf("older commands should be dropped to keep the block small")
	}
	if i, j := strings.Index(got, "cmd28"), strings.Index(got, "cmd29"); i < 0 || i > j {
		t.Errorf("commands are not oldest first")
	}
	got = contextBlock("linux", "/d", now, rec, rec[28].Start)
	if strings.Count(got, "\n$ ") != 1 || !strings.Contains(got, "$ cmd29") {
		t.Errorf("only commands after since belong in the block:\n%s", got)
	}
	got = contextBlock("linux", "/d", now, []Command{{Line: "cd /x && ls", Dir: "/x", Status: 0, Duration: 2 * time.Millisecond}}, time.Time{})
	want := "<context>\nos: linux\nshell: qsh (bash-compatible)\ncwd: /d\ndate: Sun 2026-11-22 03:04 UTC\ncommands since the last question, oldest first:\n$ cd /x && ls\n  exit 0, 2ms, in /x\n</context>\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestPromptSizeRealTools measures the prompt with the tools qsh ships.
func TestPromptSizeRealTools(t *testing.T) {
	reg := tools.NewRegistry(tools.DefaultConfig(), tools.AuditLog(""))
	var specs []chat.Tool
	for _, tl := range reg.Tools() {
		specs = append(specs, chat.Tool{Name: tl.Name(), Description: tl.Description(), Schema: tl.Schema()})
	}
	if len(specs) == 0 {
		t.Fatal("no tools")
	}
	native := estimateTokens(system(false, specs), specs)
	fenced := estimateTokens(system(true, specs), nil)
	t.Logf("with the %d built-in tools: native ≈ %d tokens, fenced ≈ %d", len(specs), native, fenced)
	if native > 1500 || fenced > 1500 {
		t.Errorf("prompt with tools is %d (native) / %d (fenced) tokens, the bar is 1,500", native, fenced)
	}
}

func TestArgList(t *testing.T) {
	t.Parallel()
	for schema, want := range map[string]string{
		`{"type":"object","properties":{"path":{"type":"string"},"operation":{"type":"string","enum":["read","list"]},"n":{"type":"integer"}},"required":["operation"]}`: "operation* (read|list), n (integer), path",
		`{"type":"object","properties":{}}`: `{"properties":{},"type":"object"}`,
		`not json`:                          "not json",
	} {
		if got := argList(json.RawMessage(schema)); got != want {
			t.Errorf("argList(%s) = %q, want %q", schema, got, want)
		}
	}
}
