package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/policy/sandbox"
	"github.com/qsh-shell/qsh/shell/guarded"
)

// fakeJob is a background run a test drives: it writes to out and ends it.
type fakeJob struct {
	req     guarded.Request
	out     io.Writer
	ended   func(guarded.Result)
	stopped bool
}

// TestJobs drives the background tools through the registry with a fake
// shell: the start's result, reads since the last one, wait_for, the
// list, stop_job, and the stop of every job as the conversation ends.
func TestJobs(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Confirm, cfg.Sandbox, cfg.ExecMaxOutput = ConfirmYolo, sandbox.Off, 64
	r, _ := testRegistry(t, cfg)
	var started []*fakeJob
	var screen bytes.Buffer
	env := Env{Dir: t.TempDir(), Out: &screen, Start: func(req guarded.Request, out io.Writer, ended func(guarded.Result)) (func(), error) {
		j := &fakeJob{req: req, out: out, ended: ended}
		started = append(started, j)
		out.Write([]byte("listening\n"))
		return func() {
			if !j.stopped {
				j.stopped = true
				j.ended(guarded.Result{Status: 143, Err: context.Canceled})
			}
		}, nil
	}}
	ctx := context.Background()
	callJSON := func(name string, args map[string]any) Result {
		b, _ := json.Marshal(args)
		return r.Call(ctx, env, name, b)
	}
	for _, tl := range r.Tools() {
		if tl.Name() == "job_output" {
			t.Fatal("job_output offered before a job exists")
		}
	}

	res := callJSON("execute_command", map[string]any{"command": "python3 -m http.server --bind 127.0.0.1", "background": true})
	if !res.Success || !strings.Contains(res.Output, "listening\n[background job 1: running") {
		t.Fatalf("start: %+v", res)
	}
	if len(started) != 1 || !started[0].req.Background || started[0].req.Timeout != 0 {
		t.Fatalf("started %+v", started)
	}
	if !strings.Contains(screen.String(), "[background job 1]") {
		t.Errorf("screen: %q", screen.String())
	}
	if r.lookup("job_output") == nil || r.lookup("stop_job") == nil {
		t.Fatal("the job tools are not offered once a job exists")
	}

	j := started[0]
	if res := callJSON("job_output", map[string]any{"id": 1}); !strings.Contains(res.Output, "[no new output]") {
		t.Errorf("nothing new: %+v", res)
	}
	j.out.Write([]byte("GET / 200\n"))
	if res := callJSON("job_output", map[string]any{"id": 1}); !strings.HasPrefix(res.Output, "GET / 200\n[background job 1 (python3 -m http.server --bind 127.0.0.1): running for") {
		t.Errorf("new output: %+v", res)
	}
	// More than is kept: the model is told how much it missed.
	j.out.Write([]byte(strings.Repeat("x", 200) + "\nready\n"))
	if res := callJSON("job_output", map[string]any{"id": 1, "wait_for": "ready"}); !res.Success || !strings.HasPrefix(res.Output, "[… 143 bytes not kept …]\n") || !strings.Contains(res.Output, "ready\n") {
		t.Errorf("wait_for what came: %+v", res)
	}
	if res := callJSON("job_output", map[string]any{"id": 1, "wait_for": "never", "timeout_seconds": 1}); res.Success || !strings.Contains(res.Output, `"never" did not come within 1s`) {
		t.Errorf("wait_for what does not come: %+v", res)
	}
	if res := callJSON("job_output", map[string]any{}); !strings.Contains(res.Output, "[1]  running for") {
		t.Errorf("the list: %+v", res)
	}
	if res := callJSON("job_output", map[string]any{"id": 7}); res.Success {
		t.Errorf("a job that is not: %+v", res)
	}
	if res := callJSON("stop_job", map[string]any{"id": 1}); !res.Success || !strings.Contains(res.Output, "stopped; everything it started was killed") || !j.stopped {
		t.Errorf("stop_job: %+v", res)
	}

	// The conversation ends: the running ones are stopped, all forgotten.
	callJSON("execute_command", map[string]any{"command": "npm run dev", "background": true})
	var w strings.Builder
	r.Jobs(&w, true)
	if !started[1].stopped || w.String() != "[2]  stopped  npm run dev\n" {
		t.Errorf("end of the conversation: %q, stopped %v", w.String(), started[1].stopped)
	}
	w.Reset()
	r.Jobs(&w, false)
	if w.String() != "no background commands in this conversation\n" {
		t.Errorf("after: %q", w.String())
	}
}
