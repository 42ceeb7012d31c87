package ai

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/assistant/ai/chat"
)

// question is a question with a context block of commands, each printing
// out bytes.
func question(text string, out int, cmds ...string) chat.Message {
	var rec []Command
	for i, c := range cmds {
		rec = append(rec, Command{Line: c, Start: time.Unix(int64(i+1), 0), Output: strings.Repeat(c+" out\n", out/(len(c)+5))})
	}
	return chat.Message{Role: chat.RoleUser, Text: contextBlock("linux", "/d", time.Unix(0, 0), rec, time.Time{}) + "\n" + text}
}

func TestDropOutput(t *testing.T) {
	t.Parallel()
	text := question("why?", 400, "aaa", "bbb").Text
	one, ok := dropOutput(text, len(text))
	if !ok || strings.Contains(one, "aaa out") || !strings.Contains(one, "$ aaa\n  exit 0, 0s\n"+outputGone+"$ bbb") || !strings.HasSuffix(one, "</context>\n\nwhy?") {
		t.Fatalf("first drop:\n%s", one)
	}
	// The last output keeps its end when it can.
	two, ok := dropOutput(one, 200)
	if !ok || !strings.Contains(two, "  output (end):\n  | […]\n  | bbb out\n") || len(one)-len(two) < 200 || len(one)-len(two) > 260 {
		t.Fatalf("second drop (%d bytes less):\n%s", len(one)-len(two), two)
	}
	three, ok := dropOutput(two, 10_000)
	if !ok || strings.Contains(three, "bbb out") || strings.Count(three, outputGone) != 2 {
		t.Fatalf("third drop:\n%s", three)
	}
	if _, ok := dropOutput(three, 10); ok {
		t.Errorf("nothing left to drop, but ok")
	}
	// Text after the block is never touched.
	q := "<context>\n</context>\n\nsee   output (end):\n  | x\n"
	if _, ok := dropOutput(q, 100); ok {
		t.Errorf("dropped from the question's own text")
	}
}

func TestFit(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("result line\n", 300)
	msgs := []chat.Message{
		question("first?", 1500, "old1", "old2"),
		{Role: chat.RoleAssistant, Text: "first answer"},
		question("second?", 1500, "mid1"),
		{Role: chat.RoleAssistant, Calls: []chat.Call{{ID: "c1", Name: "echo", Args: `{}`}}},
		{Role: chat.RoleTool, CallID: "c1", Text: "mid result"},
		{Role: chat.RoleAssistant, Text: "second answer"},
		question("third?", 1500, "new1", "new2"),
		{Role: chat.RoleAssistant, Calls: []chat.Call{{ID: "c2", Name: "echo", Args: `{}`}}},
		{Role: chat.RoleTool, CallID: "c2", Text: big},
	}
	system := strings.Repeat("s", 900)
	// Sizes at 3 bytes a token: the system prompt ≈301, the old and new
	// questions ≈1523 with both outputs (≈816 with one, ≈109 with none),
	// the middle one ≈816, the big result ≈1209; 5133 in all.
	for _, tc := range []struct {
		window int
		want   cuts
		first  string // the first question kept
		newest string // what is left of the newest command's output
	}{
		{100_000, cuts{}, "first?", "whole"},
		{4800, cuts{outputs: 2}, "first?", "whole"},
		{4000, cuts{outputs: 3}, "first?", "whole"},
		{3650, cuts{outputs: 3, turns: 1}, "second?", "whole"},
		{3500, cuts{outputs: 3, turns: 2}, "third?", "whole"},
		{3000, cuts{outputs: 4, turns: 2}, "third?", "whole"},
		{2600, cuts{outputs: 5, turns: 2}, "third?", "end"},
		{1800, cuts{outputs: 5, turns: 2, results: 1}, "third?", "none"},
		{300, cuts{outputs: 5, turns: 2, results: 1}, "third?", "none"},
	} {
		w := window{tokens: tc.window, ratio: 3}
		req := chat.Request{System: system, Messages: msgs, MaxTokens: 400}
		got := w.fit(&req, 6)
		if got != tc.want {
			t.Errorf("window %d: cut %+v, want %+v", tc.window, got, tc.want)
		}
		if req.System != system {
			t.Errorf("window %d: the system prompt changed", tc.window)
		}
		if q := req.Messages[0].Text; !strings.HasSuffix(q, tc.first) {
			t.Errorf("window %d: starts with %q, want %q", tc.window, q[len(q)-8:], tc.first)
		}
		current := req.Messages[len(req.Messages)-3].Text
		if !strings.HasSuffix(current, "third?") {
			t.Fatalf("window %d: this turn's question is gone", tc.window)
		}
		newest := "none"
		switch {
		case strings.Contains(current, "  | […]\n  | new2 out"):
			newest = "end"
		case strings.Contains(current, "new2 out"):
			newest = "whole"
		}
		if newest != tc.newest || tc.want.outputs >= 4 && strings.Contains(current, "new1 out") {
			t.Errorf("window %d: the newest output is kept %s, want %s:\n%s", tc.window, newest, tc.newest, current)
		}
		size := w.estimate(len(system))
		for _, m := range req.Messages {
			size += w.estimate(len(m.Text)+len(fmt.Sprint(m.Calls))) + msgTokens
		}
		if tc.window >= 1800 && size+req.MaxTokens > tc.window+10 {
			t.Errorf("window %d: the prompt is ≈%d tokens, with %d for the answer", tc.window, size, req.MaxTokens)
		}
		if req.MaxTokens > 400 || req.MaxTokens < min(400, tc.window/4) {
			t.Errorf("window %d: answer limit %d", tc.window, req.MaxTokens)
		}
		if len(msgs[8].Text) != len(big) || !strings.Contains(msgs[0].Text, "old1 out") {
			t.Fatalf("fit changed the conversation it was given")
		}
	}
}

func TestCutsString(t *testing.T) {
	for c, want := range map[cuts]string{
		{outputs: 1}:                       "a command's output",
		{outputs: 3, turns: 1}:             "the output of 3 commands, the oldest question",
		{turns: 2, results: 1}:             "the 2 oldest questions, part of a tool's result",
		{outputs: 1, turns: 1, results: 2}: "a command's output, the oldest question, part of 2 tools' results",
	} {
		if got := c.String(); got != want {
			t.Errorf("%+v: %q, want %q", c, got, want)
		}
	}
}

// TestWindowOllama checks that the agent learns the window from Ollama,
// fits its prompts to it, and says so when the server reports a prompt as
// long as the window (Ollama then cut its start).
func TestWindowOllama(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOllama(t, aitest.Ollama{Window: 2048},
		aitest.Say("Fine.", 1),
		aitest.Reply{Text: "Hm.", Usage: aitest.Usage{Input: 2048, Output: 2}},
		aitest.Say("Again.", 1))
	cfg := ollamaConfig(srv.URL)
	cfg.Model = "llama3.2"
	a := New(cfg, newSet(echo()), noWait)
	status, _ := ask(t, a, "/status")
	if !strings.Contains(status, "window    not known yet") {
		t.Errorf("/status before a question:\n%s", status)
	}
	var rec []Command
	for i, c := range []string{"seq 1 5000", "ls -l /usr/bin"} {
		rec = append(rec, Command{Line: c, Start: time.Unix(int64(i+1), 0), Output: strings.Repeat(fmt.Sprintf("%s line %d\n", c, i), 150)})
	}
	var out strings.Builder
	if err := a.Ask(t.Context(), Request{Text: "what now", Record: rec, Stdout: &out, Environ: []string{}}); err != nil {
		t.Fatal(err)
	}
	// Before the model ran, Ollama's default was a guess; once it has
	// answered, /api/ps says 2048.
	if a.window.tokens != 2048 || !strings.Contains(a.window.from, "the num_ctx it runs with") {
		t.Errorf("window %+v", a.window)
	}
	first := sent(srv.Requests()[0])
	if !strings.Contains(first, "seq 1 5000 line 0") || !strings.Contains(first, "ls -l /usr/bin line 1") {
		t.Errorf("the first question, with a 4096 guess, lost output it had room for")
	}
	out.Reset()
	if err := a.Ask(t.Context(), Request{Text: "and now", Record: rec, Stdout: &out, Environ: []string{}}); err != nil {
		t.Fatal(err)
	}
	second := srv.Requests()[1]
	body := sent(second)
	if strings.Contains(body, "seq 1 5000 line 0") || !strings.Contains(body, "output: left out to fit the model's context window") {
		t.Errorf("the older output was not left out for a 2048 window")
	}
	if !strings.Contains(body, systemPrompt[:60]) || second.Body["tools"] == nil {
		t.Errorf("the system prompt or the tools were cut")
	}
	if n := second.Body["max_tokens"].(float64); n > 2048/2 || n < 2048/4 {
		t.Errorf("max_tokens %v for a 2048 window", n)
	}
	for _, want := range []string{
		"(to fit llama3.2's 2,048-token window, left out ",
		"(the prompt filled all 2,048 tokens of llama3.2's window, so the server cut its start",
	} {
		if strings.Count(out.String(), want) != 1 {
			t.Errorf("the answer lacks %q once:\n%s", want, out.String())
		}
	}
	ratio := a.window.ratio
	ask(t, a, "again")
	if a.window.ratio >= 3 || ratio >= 3 {
		t.Errorf("a cut prompt did not make the estimates more cautious: %v", ratio)
	}
	if status, _ := ask(t, a, "/status"); !strings.Contains(status, "window    2,048 tokens (from Ollama: the num_ctx it runs with)") {
		t.Errorf("/status:\n%s", status)
	}
}

// TestWindowSet checks QSH_AI_CONTEXT_TOKENS, for servers that do not
// tell their window.
func TestWindowSet(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Say("ok", 1))
	cfg := providers[0].cfg(srv.URL)
	cfg.ContextTokens = 1000
	a := New(cfg, nil, noWait)
	rec := []Command{{Line: "make", Start: time.Unix(1, 0), Output: strings.Repeat("error: x\n", 400)}}
	var out strings.Builder
	if err := a.Ask(t.Context(), Request{Text: "why", Record: rec, Stdout: &out, Environ: []string{}}); err != nil {
		t.Fatal(err)
	}
	if r := srv.Requests()[0]; len(r.Raw) > 3000 || r.Body["max_tokens"].(float64) > 1000/4+50 {
		t.Errorf("a %d-byte request, max_tokens %v, for a 1000-token window", len(r.Raw), r.Body["max_tokens"])
	}
	if status, _ := ask(t, a, "/status"); !strings.Contains(status, "window    1,000 tokens (QSH_AI_CONTEXT_TOKENS)") {
		t.Errorf("/status:\n%s", status)
	}
}
