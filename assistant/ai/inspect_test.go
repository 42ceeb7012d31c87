package ai

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
)

func TestShowContext(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Say("because", 1))
	a := New(providers[0].cfg(srv.URL), newSet(echo()), noWait)
	t0 := time.Now()
	rec := []Command{{Line: "make", Start: t0, Duration: time.Second, Status: 2, Output: "error: MY_TOKEN is supersecretvalue\n"}}
	env := []string{"MY_TOKEN=supersecretvalue"}
	var out bytes.Buffer
	a.Ask(context.Background(), Request{Text: "/context", Dir: "/src", Record: rec, Stdout: &out, Environ: env})
	for _, want := range []string{"<context>\n", "cwd: /src\n", "$ make\n  exit 2, 1s\n", "  | error: MY_TOKEN is [REDACTED:MY_TOKEN]\n",
		"the system prompt and 1 tools ≈", "the conversation so far (0 messages) ≈0"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("/context lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "supersecretvalue") {
		t.Errorf("/context shows a secret:\n%s", out.String())
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("/context made %d requests", n)
	}
	// After a question, the command is no longer new, and the
	// conversation has grown.
	if err := a.Ask(context.Background(), Request{Text: "why", Dir: "/src", Record: rec, Stdout: &out, Environ: env}); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	a.Ask(context.Background(), Request{Text: "/context", Dir: "/src", Record: rec, Stdout: &out, Environ: env})
	if s := out.String(); strings.Contains(s, "$ make") || !strings.Contains(s, "(no commands since the last question)") || !strings.Contains(s, "(2 messages)") {
		t.Errorf("/context after a question:\n%s", s)
	}
	out.Reset()
	a.Ask(context.Background(), Request{Text: "/context", Stdout: &out, NoContext: true})
	if !strings.Contains(out.String(), "QSH_AI_CONTEXT is off") {
		t.Errorf("/context with the context off:\n%s", out.String())
	}
}
