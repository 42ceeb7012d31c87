package ai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/assistant/tools"
)

// fakeTool is a tool whose behaviour each test scripts.
type fakeTool struct {
	name string
	run  func(ctx context.Context, args json.RawMessage) tools.Result
}

func (f *fakeTool) Name() string        { return f.name }
func (f *fakeTool) Description() string { return "A test tool: " + f.name }
func (f *fakeTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)
}
func (f *fakeTool) Execute(ctx context.Context, env tools.Env, args json.RawMessage) tools.Result {
	return f.run(ctx, args)
}

// fakeSet is a registry over fake tools that records calls.
type fakeSet struct {
	mu    sync.Mutex
	tools []tools.Tool
	calls []string
	envs  []tools.Env
}

func (s *fakeSet) Tools() []tools.Tool { return s.tools }
func (s *fakeSet) Call(ctx context.Context, env tools.Env, name string, args json.RawMessage) tools.Result {
	s.mu.Lock()
	s.calls = append(s.calls, name+" "+string(args))
	s.envs = append(s.envs, env)
	s.mu.Unlock()
	for _, t := range s.tools {
		if t.Name() == name {
			return t.Execute(ctx, env, args)
		}
	}
	return tools.Result{Error: "no such tool"}
}

// echo answers with its text argument.
func echo() *fakeTool {
	return &fakeTool{name: "echo", run: func(ctx context.Context, args json.RawMessage) tools.Result {
		var a struct{ Text string }
		json.Unmarshal(args, &a)
		return tools.Result{Output: "echoed: " + a.Text, Success: true, Duration: time.Millisecond}
	}}
}

func newSet(ts ...tools.Tool) *fakeSet { return &fakeSet{tools: ts} }

type provider struct {
	name  string
	start func(t testing.TB, replies ...aitest.Reply) *aitest.Server
	cfg   func(url string) Config
}

// testTimeout bounds each model request of a test: a safety net, generous
// because QSH_AI_TIMEOUT bounds a whole answer and the test machine may be
// loaded; tests of the timeout set their own.
const testTimeout = 30 * time.Second

var providers = []provider{
	{"openai", aitest.NewOpenAI, func(url string) Config {
		return Config{Provider: "openai", BaseURL: url, OpenAIKey: "sk-test-key-0001", MaxIter: 10, Timeout: testTimeout}
	}},
	{"anthropic", aitest.NewAnthropic, func(url string) Config {
		return Config{Provider: "auto", BaseURL: url, AnthropicKey: "sk-ant-test-key-0001", MaxIter: 10, Timeout: testTimeout}
	}},
}

var noWait = Backoff(func(int, time.Duration) time.Duration { return time.Millisecond })

func ask(t *testing.T, a *Agent, text string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := a.Ask(context.Background(), Request{Text: text, Dir: "/work", Stdout: &out, Environ: []string{}})
	return out.String(), err
}

// messagesText flattens what a request sent, to search it.
func sent(r aitest.Request) string { return string(r.Raw) }

func TestConversation(t *testing.T) {
	t.Parallel()
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			srv := p.start(t,
				aitest.Reply{Text: "Let me check.", Chunks: 3, Calls: []aitest.Call{{Name: "echo", Args: `{"text": "hello from the tool"}`}}, ArgChunks: 9},
				aitest.Say("The tool said hello.", 4),
				aitest.Say("You asked about the tool, and it said hello.", 5),
			)
			set := newSet(echo())
			a := New(p.cfg(srv.URL), set, noWait)
			out, err := ask(t, a, "what does the tool say?")
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"Let me check.", "→ echo text=hello from the tool", "✓ ok", "The tool said hello.\n"} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			if strings.Contains(out, "\x1b") {
				t.Errorf("control codes without a terminal: %q", out)
			}
			if len(set.calls) != 1 || set.calls[0] != `echo {"text": "hello from the tool"}` {
				t.Errorf("calls %q", set.calls)
			}
			if set.envs[0].Dir != "/work" {
				t.Errorf("tool env dir %q", set.envs[0].Dir)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 || !strings.Contains(sent(reqs[1]), "echoed: hello from the tool") {
				t.Fatalf("second request lacks the tool result: %s", sent(reqs[len(reqs)-1]))
			}
			// A follow-up sees the first answer.
			out, err = ask(t, a, "and what did I ask?")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, "it said hello") {
				t.Errorf("follow-up output %q", out)
			}
			last := sent(srv.Requests()[2])
			for _, want := range []string{"what does the tool say?", "The tool said hello.", "and what did I ask?"} {
				if !strings.Contains(last, want) {
					t.Errorf("follow-up request lacks %q", want)
				}
			}
			var status bytes.Buffer
			a.Ask(context.Background(), Request{Text: "/status", Stdout: &status})
			if !strings.Contains(status.String(), "tokens") || strings.Contains(status.String(), "0 in, 0 out") {
				t.Errorf("status:\n%s", status.String())
			}
		})
	}
}

func TestParallelCalls(t *testing.T) {
	t.Parallel()
	for _, quirk := range []string{"index", "noindex", "sameindex"} {
		t.Run(quirk, func(t *testing.T) {
			t.Parallel()
			r := aitest.Reply{Calls: []aitest.Call{{Name: "echo", Args: `{"text":"one"}`}, {Name: "echo", Args: `{"text":"two"}`}}, ArgChunks: 4,
				NoIndex: quirk == "noindex", SameIndex: quirk == "sameindex"}
			srv := aitest.NewOpenAI(t, r, aitest.Say("done", 1))
			set := newSet(echo())
			a := New(providers[0].cfg(srv.URL), set, noWait)
			if _, err := ask(t, a, "both"); err != nil {
				t.Fatal(err)
			}
			if len(set.calls) != 2 || !strings.Contains(set.calls[1], "two") {
				t.Errorf("calls %q", set.calls)
			}
		})
	}
}

func TestCancel(t *testing.T) {
	t.Parallel()
	for _, p := range providers {
		t.Run(p.name+"/stream", func(t *testing.T) {
			t.Parallel()
			srv := p.start(t, aitest.Reply{Text: "I was saying", Hang: true}, aitest.Say("fine", 1))
			a := New(p.cfg(srv.URL), newSet(echo()), noWait)
			ctx, cancel := context.WithCancel(context.Background())
			w := &trigger{on: "saying", fire: cancel}
			start := time.Now()
			err := a.Ask(ctx, Request{Text: "talk", Stdout: w, Environ: []string{}})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("error %v, want context.Canceled", err)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("cancel took %v", d)
			}
			if _, err := ask(t, a, "again"); err != nil {
				t.Fatal(err) // the fake server checks the conversation is valid
			}
			if !strings.Contains(sent(srv.Requests()[1]), "I was saying\\n[stopped here: the user pressed Ctrl-C]") {
				t.Errorf("the partial answer was not kept")
			}
		})
		t.Run(p.name+"/tool", func(t *testing.T) {
			t.Parallel()
			started := make(chan struct{})
			slow := &fakeTool{name: "slow", run: func(ctx context.Context, _ json.RawMessage) tools.Result {
				close(started)
				<-ctx.Done()
				return tools.Result{Error: "interrupted"}
			}}
			srv := p.start(t, aitest.Reply{Calls: []aitest.Call{{Name: "slow", Args: `{}`}, {Name: "echo", Args: `{"text":"x"}`}}}, aitest.Say("ok", 1))
			set := newSet(slow, echo())
			a := New(p.cfg(srv.URL), set, noWait)
			ctx, cancel := context.WithCancel(context.Background())
			go func() { <-started; cancel() }()
			var out bytes.Buffer
			err := a.Ask(ctx, Request{Text: "run", Stdout: &out, Environ: []string{}})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("error %v, want context.Canceled", err)
			}
			if len(set.calls) != 1 {
				t.Errorf("calls after cancel: %q", set.calls)
			}
			if _, err := ask(t, a, "again"); err != nil {
				t.Fatal(err)
			}
			if s := sent(srv.Requests()[1]); !strings.Contains(s, "cancelled") {
				t.Errorf("the cancelled calls were not answered: %s", s)
			}
		})
		t.Run(p.name+"/waiting", func(t *testing.T) {
			t.Parallel()
			// Cancelled once the request is at the server, waiting for
			// the answer's first byte: a timer could fire before the
			// request got there on a busy machine.
			taken := make(chan struct{})
			srv := p.start(t, aitest.Reply{Text: "late", Delay: time.Minute, Taken: taken}, aitest.Say("fine", 1))
			a := New(p.cfg(srv.URL), nil, noWait)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() { <-taken; cancel() }()
			err := a.Ask(ctx, Request{Text: "talk", Stdout: &bytes.Buffer{}, Environ: []string{}})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("error %v", err)
			}
			if _, err := ask(t, a, "again"); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// trigger is a writer that calls fire once it has seen on.
// timeoutOn makes a's QSH_AI_TIMEOUT fire when fire is closed, whatever
// its duration, unless the request ended before.
func timeoutOn(t *testing.T, a *Agent, fire <-chan struct{}) {
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	a.afterFunc = func(_ time.Duration, f func()) *time.Timer {
		timer := time.AfterFunc(time.Hour, f) // stopped when the request ends
		go func() {
			select {
			case <-fire:
				if timer.Stop() {
					f()
				}
			case <-done:
			}
		}()
		return timer
	}
}

type trigger struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	on   string
	fire func()
}

func (w *trigger) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if w.fire != nil && strings.Contains(w.buf.String(), w.on) {
		w.fire()
		w.fire = nil
	}
	return len(p), nil
}

func TestMaxIter(t *testing.T) {
	t.Parallel()
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			call := aitest.Use("echo", `{"text":"again"}`, 2)
			srv := p.start(t, call, call, call, aitest.Say("fine", 1))
			cfg := p.cfg(srv.URL)
			cfg.MaxIter = 3
			set := newSet(echo())
			a := New(cfg, set, noWait)
			_, err := ask(t, a, "loop")
			if err == nil || !strings.Contains(err.Error(), "stopped after 3 model round trips") {
				t.Fatalf("error %v", err)
			}
			if len(set.calls) != 3 {
				t.Errorf("%d calls", len(set.calls))
			}
			if _, err := ask(t, a, "go on"); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestMaxCalls(t *testing.T) {
	t.Parallel()
	var calls []aitest.Call
	for i := range 5 {
		calls = append(calls, aitest.Call{Name: "echo", Args: fmt.Sprintf(`{"text":"%d"}`, i)})
	}
	srv := aitest.NewOpenAI(t, aitest.Reply{Calls: calls}, aitest.Say("ok", 1))
	set := newSet(echo())
	a := New(providers[0].cfg(srv.URL), set, noWait, MaxCalls(3))
	if _, err := ask(t, a, "many"); err != nil {
		t.Fatal(err)
	}
	if len(set.calls) != 3 {
		t.Errorf("%d calls ran, want 3", len(set.calls))
	}
	if !strings.Contains(sent(srv.Requests()[1]), "at most 3 tool calls") {
		t.Errorf("the model was not told about the cap")
	}
}

func TestToolFailures(t *testing.T) {
	t.Parallel()
	failing := &fakeTool{name: "fail", run: func(context.Context, json.RawMessage) tools.Result {
		return tools.Result{Error: "permission denied", Output: "partial"}
	}}
	srv := aitest.NewOpenAI(t,
		aitest.Reply{Calls: []aitest.Call{
			{Name: "echo", Args: `{"text": broken`},
			{Name: "fail", Args: `{}`},
			{Name: "nosuch", Args: `{}`},
		}},
		aitest.Say("I see the problems.", 2))
	a := New(providers[0].cfg(srv.URL), newSet(echo(), failing), noWait)
	out, err := ask(t, a, "try")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"✗ invalid JSON arguments from the model", "✗ failed: permission denied", "✗ unknown tool", "I see the problems."} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	s := sent(srv.Requests()[1])
	for _, want := range []string{"not valid JSON", "error: permission denied", `there is no tool named \"nosuch\"`} {
		if !strings.Contains(s, want) {
			t.Errorf("the model was not told %q:\n%s", want, s)
		}
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	refused := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		return "http://" + ln.Addr().String() + "/v1"
	}()
	tests := []struct {
		name    string
		replies []aitest.Reply
		cfg     func(*Config)
		want    string
		reqs    int
	}{
		{"no key", nil, func(c *Config) { c.OpenAIKey = "" }, "openai: no API key — set OPENAI_API_KEY", 0},
		{"401", []aitest.Reply{aitest.Fail(401, "invalid_api_key", "Incorrect API key")}, nil, "openai: 401 unauthorized — check OPENAI_API_KEY", 1},
		{"404", []aitest.Reply{aitest.Fail(404, "model_not_found", "no model")}, nil, `openai: unknown model "gpt-test" — set QSH_AI_MODEL or switch with ? /model NAME`, 1},
		{"429 retried", []aitest.Reply{{Status: 429, RetryAfter: "0"}, aitest.Fail(429, "", "slow down"), aitest.Say("ok", 1)}, nil, "", 3},
		{"429", []aitest.Reply{aitest.Fail(429, "", "slow down"), aitest.Fail(429, "", "slow down"), aitest.Fail(429, "", "slow down"), aitest.Fail(429, "", "slow down")}, nil, "openai: 429 rate limited (slow down) — wait a minute and ask again", 4},
		{"500 retried", []aitest.Reply{aitest.Fail(500, "", "oops"), aitest.Say("ok", 1)}, nil, "", 2},
		{"503", []aitest.Reply{aitest.Fail(503, "", "down"), aitest.Fail(503, "", "down"), aitest.Fail(503, "", "down"), aitest.Fail(503, "", "down")}, nil, "openai: 503 server error (down) — the provider is having trouble; try again later", 4},
		{"timeout", []aitest.Reply{{Text: "late", Delay: time.Minute}}, func(c *Config) { c.Timeout = 50 * time.Millisecond }, "openai: no answer within 50ms — try again, or raise QSH_AI_TIMEOUT", 1},
		{"stalled stream", []aitest.Reply{{Text: "start", Hang: true}}, func(c *Config) { c.Timeout = 50 * time.Millisecond }, "openai: the answer was stopped after 50ms (QSH_AI_TIMEOUT bounds each answer)", 1},
		{"refused", nil, func(c *Config) { c.BaseURL = refused }, "openai: cannot connect to " + refused, 0},
		{"ollama refused", nil, func(c *Config) {
			c.Provider, c.OpenAIKey, c.BaseURL, c.OllamaHost = "auto", "", "", strings.TrimSuffix(refused, "/v1")
		},
			"ollama: cannot connect to " + refused + " — start ollama", 0},
		{"cut", []aitest.Reply{{Text: "one two three", Chunks: 3, CutAfter: 2}}, nil, "openai: the answer was cut off", 1},
		{"400", []aitest.Reply{aitest.Fail(400, "invalid_value", "messages[1]: bad")}, nil, "openai: 400 bad request: messages[1]: bad", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			replies := slices.Clone(tc.replies)
			w := &trigger{}
			// The timeouts fire once the server holds the request, or once
			// the answer's start is on the screen: by the clock, 50ms on a
			// busy machine may be over before either.
			fire := make(chan struct{})
			timed := true
			switch tc.name {
			case "timeout":
				replies[0].Taken = fire
			case "stalled stream":
				w.on, w.fire = "start", func() { close(fire) }
			default:
				timed = false
			}
			srv := aitest.NewOpenAI(t, replies...)
			cfg := providers[0].cfg(srv.URL)
			cfg.Model = "gpt-test"
			if tc.cfg != nil {
				tc.cfg(&cfg)
			}
			a := New(cfg, nil, noWait)
			if timed {
				timeoutOn(t, a, fire)
			}
			err := a.Ask(context.Background(), Request{Text: "hi", Dir: "/work", Stdout: w, Environ: []string{}})
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("error %v", err)
			case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
				t.Fatalf("error %v\nwant %s", err, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
			if n := len(srv.Requests()); n != tc.reqs {
				t.Errorf("%d requests, want %d", n, tc.reqs)
			}
		})
	}
}

func TestAnthropicErrors(t *testing.T) {
	t.Parallel()
	srv := aitest.NewAnthropic(t, aitest.Fail(401, "authentication_error", "invalid x-api-key"))
	a := New(providers[1].cfg(srv.URL), nil, noWait)
	_, err := ask(t, a, "hi")
	if err == nil || err.Error() != "anthropic: 401 unauthorized — check ANTHROPIC_API_KEY" {
		t.Fatalf("error %v", err)
	}
	srv = aitest.NewAnthropic(t, aitest.Reply{Text: "partial", StreamError: "Overloaded"}, aitest.Reply{Text: "partial", StreamError: "Overloaded"})
	a = New(providers[1].cfg(srv.URL), nil, noWait)
	out, err := ask(t, a, "hi")
	if err == nil || !strings.HasPrefix(err.Error(), "anthropic: server error (Overloaded)") {
		t.Fatalf("error %v", err)
	}
	if len(srv.Requests()) != 1 || !strings.Contains(out, "partial") {
		t.Errorf("an error after streamed text is not retried: %d requests, output %q", len(srv.Requests()), out)
	}
}

func TestFenced(t *testing.T) {
	t.Parallel()
	answer := "I will look.\n```tool\n{\"name\": \"echo\", \"args\": {\"text\": \"fenced hi\"}, \"reason\": \"test\"}\n```\n" +
		"```tool\n{\"name\": \"echo\", \"args\": {bad}}\n```\n"
	srv := aitest.NewOpenAI(t, aitest.Say(answer, 23), aitest.Say("The tool said fenced hi.", 3))
	cfg := providers[0].cfg(srv.URL)
	cfg.ToolProtocol = "fenced"
	set := newSet(echo())
	a := New(cfg, set, noWait)
	out, err := ask(t, a, "use the tool")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "```tool") || strings.Contains(out, `"name"`) {
		t.Errorf("the tool block was shown:\n%s", out)
	}
	for _, want := range []string{"I will look.", "→ echo text=fenced hi", "✗ malformed tool block", "The tool said fenced hi."} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if len(set.calls) != 1 {
		t.Errorf("calls %q", set.calls)
	}
	reqs := srv.Requests()
	if _, ok := reqs[0].Body["tools"]; ok {
		t.Errorf("fenced request sent native tools")
	}
	first := sent(reqs[0])
	if !strings.Contains(first, "```tool") || !strings.Contains(first, "echo") {
		t.Errorf("system prompt does not teach the blocks")
	}
	second := sent(reqs[1])
	for _, want := range []string{"Result of the echo call (ok):\\necho", "echoed: fenced hi", "not valid JSON"} {
		if !strings.Contains(second, want) {
			t.Errorf("second request lacks %q:\n%s", want, second)
		}
	}
	if strings.Contains(second, "tool_call") {
		t.Errorf("fenced conversation uses native tool messages")
	}
}

func TestCommands(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Say("one", 1), aitest.Say("two", 1))
	a := New(providers[0].cfg(srv.URL), newSet(echo()), noWait)
	out, _ := ask(t, a, "/help")
	if !strings.Contains(out, "? /reset") {
		t.Errorf("help: %q", out)
	}
	out, _ = ask(t, a, "/status")
	for _, want := range []string{"provider  openai", "model     gpt-5-mini", "base URL  " + srv.URL, "tools     echo", "api key   from OPENAI_API_KEY"} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "sk-test") {
		t.Errorf("status shows the key")
	}
	if out, _ = ask(t, a, "/model gpt-other"); !strings.Contains(out, "gpt-other") {
		t.Errorf("model: %q", out)
	}
	ask(t, a, "first")
	if m := srv.Requests()[0].Body["model"]; m != "gpt-other" {
		t.Errorf("model sent %v", m)
	}
	ask(t, a, "/reset")
	ask(t, a, "second")
	if s := sent(srv.Requests()[1]); strings.Contains(s, "first") {
		t.Errorf("reset kept the conversation: %s", s)
	}
	if len(srv.Requests()) != 2 {
		t.Errorf("commands reached the model")
	}
}

func TestContextAndSecrets(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Say("because", 1), aitest.Say("yes", 1))
	a := New(providers[0].cfg(srv.URL), nil, noWait, Clock(func() time.Time { return time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC) }))
	t0 := time.Date(2026, 11, 22, 2, 0, 0, 0, time.UTC)
	rec := []Command{
		{Line: "make", Dir: "/src", Start: t0, Duration: 1500 * time.Millisecond, Status: 2, Output: "cc: error: token ghp_abcdefghijklmnopqrstuvwxyz0123456789 rejected\n"},
	}
	env := []string{"MY_TOKEN=supersecretvalue"}
	var out bytes.Buffer
	err := a.Ask(context.Background(), Request{Dir: "/src", Record: rec, Stdout: &out, Environ: env})
	if err != nil {
		t.Fatal(err)
	}
	s := sent(srv.Requests()[0])
	for _, want := range []string{"$ make", "exit 2, 1.5s", "cwd: /src", "2026-11-22 03:00", "failed with exit status 2", "[REDACTED]", "shell: qsh"} {
		if !strings.Contains(s, want) {
			t.Errorf("request lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "ghp_") {
		t.Errorf("a key reached the model")
	}
	rec = append(rec, Command{Line: "echo supersecretvalue", Start: t0.Add(time.Minute), Status: 0})
	err = a.Ask(context.Background(), Request{Text: "and now?", Dir: "/src", Record: rec, Stdout: &out, Environ: env})
	if err != nil {
		t.Fatal(err)
	}
	msgs := srv.Requests()[1].Body["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)["content"].(string)
	if strings.Contains(last, "$ make") || !strings.Contains(last, "$ echo [REDACTED:MY_TOKEN]") {
		t.Errorf("second context should hold only the new command, redacted:\n%s", last)
	}
}

func TestBareQuestionWithoutRecord(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t)
	a := New(providers[0].cfg(srv.URL), nil, noWait)
	if _, err := ask(t, a, ""); err == nil || !strings.Contains(err.Error(), "run a command first") {
		t.Fatalf("error %v", err)
	}
}

func TestTerminal(t *testing.T) {
	t.Parallel()
	text := "Run this:\n```sh\ngo build ./...\n```\nThen test."
	srv := aitest.NewOpenAI(t, aitest.Say(text, 9), aitest.Say(text, 9))
	a := New(providers[0].cfg(srv.URL), nil, noWait)
	var out bytes.Buffer
	if err := a.Ask(context.Background(), Request{Text: "build?", Stdout: &out, Terminal: true, Environ: []string{}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "\x1b[36mgo b") {
		t.Errorf("code is not coloured: %q", out.String())
	}
	cfg := providers[0].cfg(srv.URL)
	cfg.NoColor = "1"
	a = New(cfg, nil, noWait)
	out.Reset()
	if err := a.Ask(context.Background(), Request{Text: "build?", Stdout: &out, Terminal: true, Environ: []string{}}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "\x1b[36m") {
		t.Errorf("NO_COLOR output has colour: %q", out.String())
	}
}

// TestPermissionsCommand checks that `? /permissions` reaches the tools'
// rules with the question's directory and arguments, without a request.
func TestPermissionsCommand(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t)
	var got []string
	a := New(providers[0].cfg(srv.URL), newSet(echo()), noWait, Permissions(func(w io.Writer, dir, args string) error {
		got = append(got, dir+"|"+args)
		fmt.Fprintln(w, "the rules")
		return nil
	}))
	var out strings.Builder
	if err := a.Ask(context.Background(), Request{Text: "/permissions revoke 2", Dir: "/src", Stdout: &out}); err != nil || out.String() != "the rules\n" {
		t.Errorf("out %q, err %v", out.String(), err)
	}
	if len(got) != 1 || got[0] != "/src|revoke 2" {
		t.Errorf("called with %q", got)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests", n)
	}
	b := New(providers[0].cfg(srv.URL), nil, noWait)
	out.Reset()
	b.Ask(context.Background(), Request{Text: "/permissions", Stdout: &out})
	if !strings.Contains(out.String(), "no permissions") {
		t.Errorf("without tools: %q", out.String())
	}
}
