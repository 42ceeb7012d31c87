package ai

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/assistant/tools"
)

// TestBareQuestionReadOnly checks that a bare ? diagnoses: the model is
// told so, is offered no tool that writes, and what would change
// something is refused without asking; the next question may fix.
func TestBareQuestionReadOnly(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t,
		aitest.Use("execute_command", `{"command": "make -s"}`, 1),
		aitest.Say("The build fails because of a typo; run make after fixing it.", 1),
		aitest.Say("ok", 1))
	cfg := tools.DefaultConfig()
	cfg.Confirm = tools.ConfirmYolo // refused even where dev commands run unasked
	reg := tools.NewRegistry(cfg, tools.AuditLog(""), tools.PermissionsFile(""))
	a := New(providers[0].cfg(srv.URL), reg, noWait)
	rec := []Command{{Line: "make", Dir: t.TempDir(), Start: time.Now(), Status: 2, Output: "error\n"}}
	var out bytes.Buffer
	ran := 0
	env := tools.Env{Run: nil, ReadKey: func(context.Context) (rune, error) {
		ran++
		return 'y', nil
	}}
	if err := a.Ask(context.Background(), Request{Dir: rec[0].Dir, Record: rec, Stdout: &out, Env: env, Environ: []string{}}); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	first := sent(reqs[0])
	if !strings.Contains(first, "This question is a diagnosis") {
		t.Errorf("the system prompt does not say the turn is read-only")
	}
	var fsSchema string
	for _, tl := range reqs[0].Body["tools"].([]any) {
		fn := tl.(map[string]any)["function"].(map[string]any)
		if fn["name"] == "filesystem" {
			fsSchema = strings.Join(strings.Fields(string(mustMarshal(fn["parameters"]))), "")
		}
	}
	if fsSchema == "" || strings.Contains(fsSchema, `"write"`) || strings.Contains(fsSchema, "old_text") {
		t.Errorf("the filesystem tool offered: %s", fsSchema)
	}
	if !strings.Contains(sent(reqs[1]), "only diagnoses") || ran != 0 {
		t.Errorf("make was not refused without asking (asked %d times):\n%s", ran, sent(reqs[1]))
	}
	// A question with words is not read-only.
	a.Ask(context.Background(), Request{Text: "fix it", Dir: rec[0].Dir, Stdout: &out, Env: env, Environ: []string{}})
	if strings.Contains(sent(srv.Requests()[2]), "This question is a diagnosis") {
		t.Errorf("a question with words is read-only")
	}
}

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// TestTakenOver checks that a call the user took over (e at the
// confirmation) ends the turn: no further request, the calls after it
// not made, and the model told both with the next question.
func TestTakenOver(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t,
		aitest.Reply{Calls: []aitest.Call{{Name: "take", Args: `{}`}, {Name: "echo", Args: `{"text":"x"}`}}},
		aitest.Say("ok", 1))
	take := &fakeTool{name: "take", run: func(context.Context, json.RawMessage) tools.Result {
		return tools.Result{Success: true, TakenOver: true, Output: "the user took the command over"}
	}}
	set := newSet(take, echo())
	a := New(providers[0].cfg(srv.URL), set, noWait)
	out, err := ask(t, a, "do it")
	if err != nil || len(srv.Requests()) != 1 || len(set.calls) != 1 {
		t.Fatalf("err %v, %d requests, calls %q", err, len(srv.Requests()), set.calls)
	}
	if !strings.Contains(out, "yours to edit on the prompt line") {
		t.Errorf("screen: %q", out)
	}
	ask(t, a, "next")
	s := sent(srv.Requests()[1])
	if !strings.Contains(s, "the user took the command over") || !strings.Contains(s, "not run: the user took a command over") {
		t.Errorf("the next request:\n%s", s)
	}
}
