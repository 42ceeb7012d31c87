package ai

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/assistant/ai/chat"
)

func TestThousands(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{0: "0", 12: "12", 999: "999", 1000: "1,000", 1234567: "1,234,567", -45000: "-45,000"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestDescribeUsage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cfg  Config
		u    tally
		want string
	}{
		{Config{}, tally{in: 1234, out: 56}, "1,234 in · 56 out tokens"},
		{Config{}, tally{in: 10, out: 2, estimated: true}, "≈10 in · ≈2 out tokens"},
		{Config{PriceIn: 3, PriceOut: 15}, tally{in: 1000, out: 100}, "1,000 in · 100 out tokens · $0.0045"},
		{Config{PriceIn: 3}, tally{in: 2_000_000}, "2,000,000 in · 0 out tokens · $6.00"},
	} {
		if got := tc.cfg.describe(tc.u); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.u, got, tc.want)
		}
	}
}

func TestCounted(t *testing.T) {
	t.Parallel()
	req := chat.Request{System: strings.Repeat("s", 400), Messages: []chat.Message{{Role: chat.RoleUser, Text: strings.Repeat("q", 40)}}}
	if got := counted(req, chat.Reply{Text: "hi", Usage: chat.Usage{Input: 7, Output: 3}}); got != (tally{in: 7, out: 3}) {
		t.Errorf("reported counts: %+v", got)
	}
	if got := counted(req, chat.Reply{Text: strings.Repeat("a", 80)}); got != (tally{in: 110, out: 20, estimated: true}) {
		t.Errorf("estimated counts: %+v", got)
	}
}

// TestUsage checks the counts a server reports: one dim line per turn on
// a terminal, the session's in /status with the cost, and the budget that
// stops the next turn without a request.
func TestUsage(t *testing.T) {
	t.Parallel()
	ps := append(providers[:len(providers):len(providers)], provider{"ollama",
		func(t testing.TB, replies ...aitest.Reply) *aitest.Server {
			return aitest.NewOllama(t, aitest.Ollama{}, replies...)
		},
		ollamaConfig})
	for _, p := range ps {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			srv := p.start(t,
				aitest.Reply{Calls: []aitest.Call{{Name: "echo", Args: `{"text": "x"}`}}, Usage: aitest.Usage{Input: 1000, Output: 20}},
				aitest.Reply{Text: "done", Chunks: 1, Usage: aitest.Usage{Input: 1100, Output: 30}},
				aitest.Say("never", 1))
			cfg := p.cfg(srv.URL)
			cfg.PriceIn, cfg.PriceOut, cfg.BudgetTokens = 2, 10, 2000
			a := New(cfg, newSet(echo()), noWait)
			var out bytes.Buffer
			if err := a.Ask(context.Background(), Request{Text: "go", Stdout: &out, Terminal: true, Environ: []string{}}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), "\x1b[2m2,100 in · 50 out tokens · $0.0047\x1b[0m\n") {
				t.Errorf("no usage line for the turn: %q", out.String())
			}
			status, _ := ask(t, a, "/status")
			if !strings.Contains(status, "tokens    2,100 in · 50 out tokens · $0.0047 this session · budget 2,000, 0 left") {
				t.Errorf("status:\n%s", status)
			}
			_, err := ask(t, a, "more")
			if err == nil || !strings.Contains(err.Error(), "token budget spent: 2,150 of 2,000 tokens used this session (QSH_AI_BUDGET_TOKENS)") {
				t.Errorf("over the budget: %v", err)
			}
			if n := len(srv.Requests()); n != 2 {
				t.Errorf("%d requests, want 2: the budget did not stop the turn", n)
			}
			// Without a terminal, no usage line: the answer alone.
			if out, _ := ask(t, a, "/status"); strings.Contains(out, "\x1b") {
				t.Errorf("control codes: %q", out)
			}
		})
	}
}
