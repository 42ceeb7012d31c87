package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/policy/danger"
)

func TestReadOnlyTurn(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Confirm = ConfirmYolo
	r, _ := testRegistry(t, cfg)
	ctx := context.Background()
	for _, tc := range []struct {
		q    ask
		ok   bool
		keys int // asked
	}{
		{ask{kind: kindRun, verdict: danger.Verdict{Class: danger.Safe}, subject: "ls"}, true, 0},
		{ask{kind: kindRun, verdict: danger.Verdict{Class: danger.Dev}, subject: "make"}, false, 0},
		{ask{kind: kindRun, verdict: danger.Verdict{Class: danger.Dangerous}, subject: "rm -r x"}, false, 0},
		{ask{kind: kindWrite, verdict: danger.Verdict{Class: danger.Dev}, subject: "write a.txt"}, false, 0},
		{ask{kind: kindCall, verdict: danger.Verdict{Class: danger.Dev}, subject: "mcp_x_y {}"}, false, 0},
		// Reads change nothing: asked about as usual.
		{ask{kind: kindRead, verdict: danger.Verdict{Class: danger.Dangerous}, subject: "read ~/.ssh/config"}, true, 1},
	} {
		rk, n := keys(t, 'y')
		ok, res := r.approve(ctx, Env{ReadOnly: true, Out: new(bytes.Buffer), ReadKey: rk}, tc.q, &call{})
		if ok != tc.ok || *n != tc.keys {
			t.Errorf("%s: ok=%v asked=%d, want %v %d (%s)", tc.q.subject, ok, *n, tc.ok, tc.keys, res.Error)
		}
		if !ok && !strings.Contains(res.Error, "only diagnoses") {
			t.Errorf("%s: %s", tc.q.subject, res.Error)
		}
	}
	// What the model is offered.
	r.Add(&fakeAdded{name: "mcp_x_y"})
	var names []string
	for _, tl := range ReadOnly(r.Tools()) {
		names = append(names, tl.Name())
		if tl.Name() == "filesystem" {
			var s struct {
				Properties map[string]struct {
					Enum []string `json:"enum"`
				} `json:"properties"`
			}
			json.Unmarshal(tl.Schema(), &s)
			if ops := strings.Join(s.Properties["operation"].Enum, " "); ops != "read list exists metadata search" {
				t.Errorf("read-only filesystem operations: %s", ops)
			}
		}
	}
	if got := strings.Join(names, " "); got != "filesystem execute_command web_search" {
		t.Errorf("read-only tools: %s", got)
	}
	// The registry's own filesystem tool keeps write and edit.
	if !strings.Contains(string(r.lookup("filesystem").Schema()), `"edit"`) {
		t.Error("ReadOnly changed the registry's tool")
	}
}

type fakeAdded struct{ name string }

func (f *fakeAdded) Name() string            { return f.name }
func (f *fakeAdded) Description() string     { return "x" }
func (f *fakeAdded) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (f *fakeAdded) Execute(context.Context, Env, json.RawMessage) Result {
	return Result{Success: true}
}
