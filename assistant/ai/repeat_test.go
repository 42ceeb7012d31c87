package ai

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/assistant/tools"
)

// TestRepeatedDeclined checks a model that makes a declined call again:
// the user is not asked again, and the third time the turn ends.
func TestRepeatedDeclined(t *testing.T) {
	t.Parallel()
	rm := &fakeTool{name: "rm", run: func(context.Context, json.RawMessage) tools.Result {
		return tools.Result{Error: "the user declined: rm -rf build was not done", Declined: true}
	}}
	rmCall := aitest.Use("rm", `{"text": "build"}`, 2)
	srv := aitest.NewOpenAI(t, rmCall, aitest.Use("rm", `{ "text":"build" }`, 1), rmCall, aitest.Say("All right.", 1))
	set := newSet(rm)
	a := New(providers[0].cfg(srv.URL), set, noWait)
	out, err := ask(t, a, "clean up")
	want := "gpt-5-mini is looping: it made the same call (text=build) 3 times in this turn, so the turn stops here"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v\nwant %s", err, want)
	}
	if len(set.calls) != 1 {
		t.Errorf("the tool ran (the user was asked) %d times, want once", len(set.calls))
	}
	for _, want := range []string{"✗ declined before in this turn: not asked again", "✗ made again and again: the turn stops"} {
		if !strings.Contains(out, want) {
			t.Errorf("the screen lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(sent(srv.Requests()[2]), "the user already declined this exact call in this turn") {
		t.Errorf("the model is not told why the call was not made")
	}
	// The conversation stays valid: every call has its answer.
	if _, err := ask(t, a, "and now?"); err != nil {
		t.Fatal(err)
	}
}

// TestRepeatedRead checks that a read made again is answered from its
// first result, until a call that may change something.
func TestRepeatedRead(t *testing.T) {
	t.Parallel()
	reads := 0
	list := &fakeTool{name: "list", run: func(context.Context, json.RawMessage) tools.Result {
		reads++
		return tools.Result{Output: "a.txt", Success: true, ReadOnly: true}
	}}
	write := &fakeTool{name: "write", run: func(context.Context, json.RawMessage) tools.Result {
		return tools.Result{Output: "written", Success: true}
	}}
	listCall := aitest.Use("list", `{"text": "."}`, 1)
	srv := aitest.NewOpenAI(t, listCall, listCall, aitest.Use("write", `{"text": "b.txt"}`, 1), listCall, aitest.Say("Done.", 1))
	a := New(providers[0].cfg(srv.URL), newSet(list, write), noWait)
	out, err := ask(t, a, "look")
	if err != nil {
		t.Fatal(err)
	}
	if reads != 2 {
		t.Errorf("list ran %d times, want 2 (first, and after the write)", reads)
	}
	if strings.Count(out, "✓ the same as before: its earlier result") != 1 {
		t.Errorf("screen:\n%s", out)
	}
	results := sent(srv.Requests()[2])
	if !strings.Contains(results, "a.txt\\n[the same call as before in this turn, answered with its earlier result; do not make it again]") {
		t.Errorf("the repeated read's answer: %s", results)
	}
}

// TestInvalidCallsEndTheTurn: a model that keeps making calls that cannot
// be made (a tool that does not exist, arguments that are not JSON, that
// do not fit the tool) is told what was wrong twice; the third call in a
// row ends the turn, rather than every round trip going to it. A call
// that could be made starts the count again.
func TestInvalidCallsEndTheTurn(t *testing.T) {
	t.Parallel()
	strict := &fakeTool{name: "strict", run: func(_ context.Context, args json.RawMessage) tools.Result {
		if !strings.Contains(string(args), "text") {
			return tools.Result{Error: `missing required argument "text"`, Invalid: true}
		}
		return tools.Result{Output: "done", Success: true}
	}}
	srv := aitest.NewOpenAI(t,
		aitest.Use("nosuch", `{}`, 1),
		aitest.Use("strict", `{"text": "ok"}`, 1), // a good one: the count starts again
		aitest.Use("nosuch", `{}`, 1),
		aitest.Use("strict", `{"text": `, 1),
		aitest.Use("strict", `{"other": 1}`, 1),
		aitest.Say("never asked for", 1))
	a := New(providers[0].cfg(srv.URL), newSet(strict), noWait)
	out, err := ask(t, a, "go")
	want := "gpt-5-mini keeps making calls that cannot be made (3 in a row"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v\nwant %s", err, want)
	}
	if n := len(srv.Requests()); n != 5 {
		t.Errorf("%d requests, want 5", n)
	}
	for _, want := range []string{"✗ unknown tool", "✗ invalid JSON arguments from the model"} {
		if !strings.Contains(out, want) {
			t.Errorf("the screen lacks %q:\n%s", want, out)
		}
	}
	// The conversation stays valid: every call has its answer.
	srv.Push(aitest.Say("ok", 1))
	if _, err := ask(t, a, "and now?"); err != nil {
		t.Fatal(err)
	}
}
