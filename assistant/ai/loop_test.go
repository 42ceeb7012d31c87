package ai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/assistant/ai/chat"
	"github.com/qsh-shell/qsh/assistant/tools"
)

func TestTrim(t *testing.T) {
	t.Parallel()
	q := func(s string) chat.Message { return chat.Message{Role: chat.RoleUser, Text: s} }
	r := func(s string) chat.Message { return chat.Message{Role: chat.RoleAssistant, Text: s} }
	call := chat.Message{Role: chat.RoleAssistant, Calls: []chat.Call{{ID: "1", Name: "x", Args: strings.Repeat("a", 50)}}}
	res := chat.Message{Role: chat.RoleTool, CallID: "1", Text: strings.Repeat("r", 50)}
	msgs := []chat.Message{q("q1"), call, res, r("a1"), q("q2"), r("a2"), q("q3"), call, res, r("a3")}
	tests := []struct {
		max   int
		first string
		n     int
	}{
		{1000, "q1", 10},
		{150, "q2", 6},
		{108, "q2", 6},
		{107, "q3", 4},
		{1, "q3", 4}, // the last question always stays
	}
	for _, tc := range tests {
		got := trim(msgs, tc.max)
		if len(got) != tc.n || got[0].Text != tc.first {
			t.Errorf("trim(%d): %d messages from %q, want %d from %q", tc.max, len(got), got[0].Text, tc.n, tc.first)
		}
	}
}

func TestToolOutputAndSecrets(t *testing.T) {
	t.Parallel()
	noisy := &fakeTool{name: "noisy"}
	srv := aitest.NewOpenAI(t, aitest.Use("noisy", `{}`, 1), aitest.Say("done", 1))
	set := newSet(noisy)
	a := New(providers[0].cfg(srv.URL), set, noWait)
	var out bytes.Buffer
	noisy.run = func(ctx context.Context, _ json.RawMessage) tools.Result {
		set.envs[0].Out.Write([]byte("compiling…"))
		return tools.Result{Output: "password is hunter2hunter2, key sk-ant-api03-abcdefghijklmnopqrstuv", Success: true}
	}
	err := a.Ask(context.Background(), Request{Text: "go", Stdout: &out, Environ: []string{"DB_PASSWORD=hunter2hunter2"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "compiling…\n  ✓ ok") {
		t.Errorf("the end line does not start its own line:\n%s", out.String())
	}
	s := sent(srv.Requests()[1])
	if strings.Contains(s, "hunter2") || strings.Contains(s, "sk-ant-") || !strings.Contains(s, "[REDACTED:DB_PASSWORD]") {
		t.Errorf("tool result secrets reached the model:\n%s", s)
	}
}

func TestFailedTurnIsDropped(t *testing.T) {
	t.Parallel()
	srv := aitest.NewAnthropic(t, aitest.Fail(401, "authentication_error", "bad key"), aitest.Say("hello", 1))
	a := New(providers[1].cfg(srv.URL), nil, noWait)
	if _, err := ask(t, a, "first try"); err == nil {
		t.Fatal("no error")
	}
	if _, err := ask(t, a, "second try"); err != nil {
		t.Fatal(err)
	}
	if s := sent(srv.Requests()[1]); strings.Contains(s, "first try") {
		t.Errorf("the failed question was kept: %s", s)
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Reply{Status: 429, RetryAfter: "60"})
	// Cancelled as the backoff begins: a timer could fire before the 429
	// came back on a busy machine.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var waited time.Duration
	a := New(providers[0].cfg(srv.URL), nil, Backoff(func(_ int, after time.Duration) time.Duration {
		waited = after
		cancel()
		return after
	}))
	start := time.Now()
	err := a.Ask(ctx, Request{Text: "hi", Stdout: &bytes.Buffer{}, Environ: []string{}})
	if !errors.Is(err, context.Canceled) || time.Since(start) > 30*time.Second {
		t.Fatalf("error %v after %v", err, time.Since(start))
	}
	if waited != time.Minute {
		t.Errorf("Retry-After not honoured: backoff got %v", waited)
	}
}

func TestDefaultBackoff(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		attempt int
		after   time.Duration
		want    time.Duration
	}{
		{0, 0, 500 * time.Millisecond},
		{2, 0, 2 * time.Second},
		{10, 0, 20 * time.Second},
		{0, 3 * time.Second, 3 * time.Second},
		{0, time.Hour, 20 * time.Second},
	} {
		if got := defaultBackoff(tc.attempt, tc.after); got != tc.want {
			t.Errorf("defaultBackoff(%d, %v) = %v, want %v", tc.attempt, tc.after, got, tc.want)
		}
	}
}

// A Ctrl-C at a confirmation comes back as a Canceled result, not through
// ctx; the turn must end there, run no later call, and leave a
// conversation the next question can continue.
func TestCanceledResultEndsTurn(t *testing.T) {
	t.Parallel()
	ran := 0
	confirm := &fakeTool{name: "confirm", run: func(ctx context.Context, _ json.RawMessage) tools.Result {
		ran++
		return tools.Result{Canceled: true, Error: "cancelled at the prompt"}
	}}
	two := aitest.Reply{Calls: []aitest.Call{{Name: "confirm", Args: `{}`}, {Name: "confirm", Args: `{}`}}}
	srv := aitest.NewOpenAI(t, two, aitest.Say("fine", 1))
	a := New(providers[0].cfg(srv.URL), newSet(confirm), noWait)
	if _, err := ask(t, a, "do it"); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if ran != 1 {
		t.Errorf("the tool ran %d times, want 1: the second call must not run after a cancel", ran)
	}
	if _, err := ask(t, a, "next"); err != nil {
		t.Fatalf("the conversation is unusable after a cancel: %v", err)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests, want 2 (no round trip after the cancel)", n)
	}
}

// preparedSet is a tool set that, like the MCP servers, gets ready at the
// start of each turn and reports on itself in /status.
type preparedSet struct {
	*fakeSet
	prepared int
}

func (p *preparedSet) Prepare(ctx context.Context) []string {
	p.prepared++
	return []string{"mcp: server \"broken\" failed: exit status 1"}
}

func (p *preparedSet) Status(tools.Env) []string { return []string{"mcp: demo: running, 2 tools"} }

func TestToolSetPrepareAndStatus(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Say("hi", 1))
	set := &preparedSet{fakeSet: newSet(echo())}
	a := New(providers[0].cfg(srv.URL), set, noWait)
	out, err := ask(t, a, "/status")
	if err != nil || !strings.Contains(out, "mcp: demo: running, 2 tools") {
		t.Errorf("/status = %q, %v; want the tool set's lines", out, err)
	}
	if set.prepared != 0 {
		t.Errorf("/status prepared the tools; only questions should")
	}
	out, err = ask(t, a, "hello")
	if err != nil {
		t.Fatal(err)
	}
	if set.prepared != 1 || !strings.Contains(out, `server "broken" failed`) {
		t.Errorf("prepared %d times, output %q; want once, with the warning shown", set.prepared, out)
	}
}

// TestBoundedAnswers checks that every request carries an output limit,
// that an answer stopped by it says so, and that QSH_AI_TIMEOUT bounds a
// whole answer, not only the pauses in it (a model streamed for 75 s with
// QSH_AI_TIMEOUT=8s).
func TestBoundedAnswers(t *testing.T) {
	t.Parallel()
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			srv := p.start(t,
				aitest.Reply{Text: "Counting: ", Forever: true},
				aitest.Reply{Text: "Again: ", Forever: true, IgnoreLimit: true},
				aitest.Say("You saw words.", 1))
			cfg := p.cfg(srv.URL)
			cfg.MaxOutput = 20
			a := New(cfg, nil, noWait)
			out, err := ask(t, a, "count")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, "word20 \n(the answer stopped at its limit of 20 tokens, QSH_AI_MAX_OUTPUT_TOKENS") || strings.Contains(out, "word21") {
				t.Errorf("the limited answer:\n%s", out)
			}
			if n := srv.Requests()[0].Body["max_tokens"]; n != float64(20) {
				t.Errorf("max_tokens %v, want 20", n)
			}
			a.cfg.Timeout = 300 * time.Millisecond
			a.cfg.MaxOutput = 1 << 20 // the timeout's to stop (see TestAnswerPastItsLimit)
			// The timeout fires once the answer streams: by the clock,
			// 300ms on a busy machine may be over before its first word.
			fire := make(chan struct{})
			timeoutOn(t, a, fire)
			w := &trigger{on: "Again: word1 ", fire: func() { close(fire) }}
			start := time.Now()
			err = a.Ask(context.Background(), Request{Text: "count again", Dir: "/work", Stdout: w, Environ: []string{}})
			out = w.buf.String()
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("the endless answer took %v after its timeout", d)
			}
			a.afterFunc = time.AfterFunc
			want := string(p.name) + ": the answer was stopped after 300ms (QSH_AI_TIMEOUT bounds each answer) — what came is kept"
			if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(out, "Again: word1 ") {
				t.Fatalf("error %v, output:\n%s", err, out)
			}
			if _, err := ask(t, a, "what did you say?"); err != nil {
				t.Fatal(err)
			}
			if last := sent(srv.Requests()[2]); !strings.Contains(last, "Again: word1 ") || !strings.Contains(last, "[stopped here: QSH_AI_TIMEOUT]") {
				t.Errorf("the stopped answer is not kept in the conversation:\n%s", last)
			}
		})
	}
}

// TestAnswerPastItsLimit: a server that ignores the output limit the
// request sets is stopped by the client, which keeps what came and says
// so; the answer's tool calls, cut, are not made.
func TestAnswerPastItsLimit(t *testing.T) {
	t.Parallel()
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			srv := p.start(t,
				aitest.Reply{Text: "Counting: ", Forever: true, IgnoreLimit: true},
				aitest.Say("You saw words.", 1))
			cfg := p.cfg(srv.URL)
			cfg.MaxOutput = 50
			a := New(cfg, nil, noWait)
			out, err := ask(t, a, "count")
			if err != nil {
				t.Fatal(err)
			}
			const note = "(the answer went past its limit of 50 tokens, QSH_AI_MAX_OUTPUT_TOKENS, which the server did not keep to: qsh stopped reading it"
			if !strings.Contains(out, "Counting: word1 ") || !strings.Contains(out, note) || len(out) > limitBytesPerToken*50+len(note)+200 {
				t.Errorf("%d bytes of output:\n%s", len(out), out)
			}
			if _, err := ask(t, a, "what did you say?"); err != nil {
				t.Fatal(err)
			}
			if last := sent(srv.Requests()[1]); !strings.Contains(last, "[stopped here: the answer went past QSH_AI_MAX_OUTPUT_TOKENS]") {
				t.Errorf("the stopped answer is not kept in the conversation:\n%s", last)
			}
		})
	}
}

// TestStreamEndsEarly checks a server that ends the stream cleanly in the
// middle of an answer (Ollama killed mid-answer): one line, and what was
// shown is kept.
func TestStreamEndsEarly(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Reply{Text: "The first half of", Chunks: 4, EndAfter: 3}, aitest.Say("ok", 1))
	a := New(providers[0].cfg(srv.URL), nil, noWait)
	out, err := ask(t, a, "tell me")
	if err == nil || err.Error() != "openai: the answer was cut off (the stream ended before the answer did) — ask again" {
		t.Errorf("error %v", err)
	}
	if !strings.HasSuffix(out, "\n") || !strings.Contains(out, "The first") {
		t.Errorf("output %q", out)
	}
	ask(t, a, "go on")
	if last := sent(srv.Requests()[1]); !strings.Contains(last, "[stopped here: the answer broke off]") {
		t.Errorf("the broken answer is not kept:\n%s", last)
	}
}

// TestCapped: a message past maxMessage keeps its beginning and end, and
// arguments past it become {}.
func TestCapped(t *testing.T) {
	big := "BEGIN" + strings.Repeat("x", 3*maxMessage) + "END"
	m := capped(chat.Message{Role: chat.RoleAssistant, Text: big, Calls: []chat.Call{{Name: "a", Args: `{"x":"` + big + `"}`}, {Name: "b", Args: "{}"}}})
	if len(m.Text) > maxMessage || !strings.HasPrefix(m.Text, "BEGIN") || !strings.HasSuffix(m.Text, "END") || !strings.Contains(m.Text, "bytes cut …]") {
		t.Errorf("text of %d bytes: %.40q…", len(m.Text), m.Text)
	}
	if m.Calls[0].Args != "{}" || m.Calls[1].Args != "{}" {
		t.Errorf("calls %+v", m.Calls)
	}
	small := chat.Message{Role: chat.RoleUser, Text: "hi"}
	if got := capped(small); got.Text != "hi" {
		t.Errorf("a small message changed: %q", got.Text)
	}
}
