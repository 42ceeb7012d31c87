package ai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/assistant/tools"
)

// refuser is a tool the policy refuses, as the registry does a dangerous
// call with nobody to ask.
func refuser() *fakeTool {
	return &fakeTool{name: "echo", run: func(ctx context.Context, args json.RawMessage) tools.Result {
		return tools.Result{Error: "not run: there is no terminal to ask on", Class: "dangerous", Decision: "refused"}
	}}
}

func decode(t *testing.T, out string) []Event {
	t.Helper()
	var evs []Event
	for line := range strings.Lines(out) {
		var e Event
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("not JSON: %q (%v)", line, err)
		}
		evs = append(evs, e)
	}
	return evs
}

func TestEvents(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		tool   *fakeTool
		status int
		reason string
	}{
		{"answered", echo(), StatusAnswered, "answered"},
		{"refused", refuser(), StatusRefused, "refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := aitest.NewOpenAI(t,
				aitest.Reply{Text: "Checking.", Chunks: 2, Calls: []aitest.Call{{Name: "echo", Args: `{"text": "hi"}`}}},
				aitest.Say("Done.", 1))
			a := New(providers[0].cfg(srv.URL), newSet(tc.tool), noWait)
			var out, screen bytes.Buffer
			err := a.Ask(context.Background(), Request{Text: "go", Dir: "/work", Stdout: &screen, Environ: []string{}, Events: &out})
			var ended *Ended
			if tc.status == 0 && err != nil || tc.status != 0 && (!errors.As(err, &ended) || ended.Status != tc.status) {
				t.Fatalf("err %v, want status %d", err, tc.status)
			}
			if screen.Len() > 0 {
				t.Errorf("rendered %q", screen.String())
			}
			evs := decode(t, out.String())
			var types []string
			for _, e := range evs {
				types = append(types, e.Type)
			}
			if got := strings.Join(types, " "); got != "text tool_call tool_result text usage end" {
				t.Fatalf("events %s:\n%s", got, out.String())
			}
			call, end := evs[1], evs[len(evs)-1]
			if call.Name != "echo" || string(call.Args) != `{"text":"hi"}` || tc.status != 0 && (call.Class != "dangerous" || call.Decision != "refused") {
				t.Errorf("tool_call %+v", call)
			}
			if end.Reason != tc.reason || end.Status == nil || *end.Status != tc.status {
				t.Errorf("end %s", out.String())
			}
		})
	}
}

func TestEventsFailure(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Fail(401, "invalid_api_key", "bad key"))
	a := New(providers[0].cfg(srv.URL), nil, noWait)
	var out bytes.Buffer
	err := a.Ask(context.Background(), Request{Text: "go", Dir: "/work", Environ: []string{}, Events: &out})
	var ended *Ended
	if !errors.As(err, &ended) || ended.Status != StatusFailed {
		t.Fatalf("err %v", err)
	}
	evs := decode(t, out.String())
	if e := evs[len(evs)-1]; e.Type != "end" || e.Reason != "error" || !strings.Contains(e.Error, "401") {
		t.Errorf("events %s", out.String())
	}
}

// TestTurnEndHook: the hook hears how each turn ended, not a /command's;
// a failing one is one line.
func TestTurnEndHook(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Say("Hi.", 1))
	var got []tools.HookPayload
	a := New(providers[0].cfg(srv.URL), nil, noWait, TurnEnd(func(ctx context.Context, env tools.Env, p tools.HookPayload) error {
		got = append(got, p)
		return errors.New("the turn-end hook (QSH_AI_HOOK_TURN_END) failed: boom")
	}))
	out, err := ask(t, a, "hello")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ask(t, a, "/status"); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Question != "hello" || got[0].Reason != "answered" || got[0].Dir != "/work" {
		t.Errorf("payloads %+v", got)
	}
	if !strings.HasSuffix(out, "the turn-end hook (QSH_AI_HOOK_TURN_END) failed: boom\n") {
		t.Errorf("output %q", out)
	}
}

// TestEventsSuggestion: a headless ?? line gives its command as an event.
func TestEventsSuggestion(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Say("```sh\nrm -r src\n```", 1))
	a := New(providers[0].cfg(srv.URL), nil, noWait)
	var out bytes.Buffer
	err := a.Ask(context.Background(), Request{Text: "delete src", Dir: t.TempDir(), Environ: []string{}, Suggest: true, Events: &out})
	if err != nil {
		t.Fatal(err)
	}
	evs := decode(t, out.String())
	if len(evs) != 3 || evs[0].Type != "suggestion" || evs[0].Command != "rm -r src" || evs[0].Class != "dangerous" || evs[2].Type != "end" {
		t.Errorf("events:\n%s", out.String())
	}
}
