package ai

import (
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
)

// ollamaConfig points an agent at a fake Ollama.
func ollamaConfig(url string) Config {
	return Config{Provider: "ollama", BaseURL: url, Model: "smol", MaxIter: 10, Timeout: testTimeout}
}

const fencedEcho = "Looking.\n```tool\n{\"name\": \"echo\", \"args\": {\"text\": \"via a block\"}}\n```\n"

// TestToolsRefusedFallBack checks protocol auto: a model whose server
// refuses tools gets the same question again with ```tool blocks, is kept
// on them for the session, and the user is told once.
func TestToolsRefusedFallBack(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOllama(t, aitest.Ollama{NoTools: true},
		aitest.Say(fencedEcho, 5), aitest.Say("It said via a block.", 2), aitest.Say("Still fenced.", 1))
	set := newSet(echo())
	a := New(ollamaConfig(srv.URL), set, noWait)
	out, err := ask(t, a, "use the tool")
	if err != nil {
		t.Fatal(err)
	}
	line := "(smol does not support tools, so they are described in its prompt as ```tool blocks from now on this session)\n"
	if strings.Count(out, line) != 1 || !strings.Contains(out, "→ echo text=via a block") || !strings.Contains(out, "It said via a block.") {
		t.Errorf("output:\n%s", out)
	}
	if len(set.calls) != 1 {
		t.Errorf("calls %q", set.calls)
	}
	out, err = ask(t, a, "again")
	if err != nil || strings.Contains(out, "does not support tools") {
		t.Errorf("second question: %v\n%s", err, out)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4 (refused, fenced, fenced, fenced)", len(reqs))
	}
	if _, ok := reqs[0].Body["tools"]; !ok {
		t.Errorf("auto did not try native tools first")
	}
	for i, r := range reqs[1:] {
		if _, ok := r.Body["tools"]; ok || !strings.Contains(sent(r), "```tool") {
			t.Errorf("request %d after the refusal is not fenced: %s", i+1, sent(r))
		}
	}
	if !strings.Contains(sent(reqs[1]), "use the tool") || strings.Count(sent(reqs[1]), "use the tool") != 1 {
		t.Errorf("the refused question is not asked again once: %s", sent(reqs[1]))
	}
	status, _ := ask(t, a, "/status")
	if !strings.Contains(status, "protocol  fenced: smol does not support tools (auto)") {
		t.Errorf("/status:\n%s", status)
	}
	// Another model is tried with native tools again.
	ask(t, a, "/model other")
	srv.Push(aitest.Say("native again", 1))
	ask(t, a, "hi")
	if r := srv.Requests()[4]; r.Body["model"] != "other" || r.Body["tools"] == nil {
		t.Errorf("the other model is not asked with tools: %s", sent(r))
	}
}

// TestToolsRefusedCompatible checks the refusals of llama.cpp's server,
// a 500 that must not be retried as it is.
func TestToolsRefusedCompatible(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Fail(500, "server_error", "tools param requires --jinja flag"), aitest.Say("Fine.", 1))
	a := New(providers[0].cfg(srv.URL), newSet(echo()), noWait)
	out, err := ask(t, a, "hi")
	if err != nil || !strings.Contains(out, "does not support tools") || !strings.Contains(out, "Fine.") {
		t.Errorf("%v\n%s", err, out)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

// TestToolsRefusedForced checks that QSH_AI_TOOL_PROTOCOL=native does not
// switch, and says what to do.
func TestToolsRefusedForced(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOllama(t, aitest.Ollama{NoTools: true})
	cfg := ollamaConfig(srv.URL)
	cfg.ToolProtocol = ProtocolNative
	a := New(cfg, newSet(echo()), noWait)
	_, err := ask(t, a, "hi")
	want := "ollama: smol takes no tools here (registry.ollama.ai/library/smol:latest does not support tools) — set QSH_AI_TOOL_PROTOCOL=auto or fenced"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v\nwant %s", err, want)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}
