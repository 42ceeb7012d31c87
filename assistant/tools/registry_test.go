package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/shell/guarded"
)

// keys returns a ReadKey that answers with the given keys in order, then
// fails the test if asked again.
func keys(t *testing.T, ks ...rune) (func(context.Context) (rune, error), *int) {
	t.Helper()
	n := new(int)
	return func(ctx context.Context) (rune, error) {
		if *n >= len(ks) {
			t.Errorf("asked for key %d, only %d scripted", *n+1, len(ks))
			return 0, context.Canceled
		}
		k := ks[*n]
		*n++
		return k, nil
	}, n
}

// testRegistry is a registry writing its audit log and backups under a
// temp dir.
func testRegistry(t *testing.T, cfg Config, opts ...Option) (*Registry, string) {
	t.Helper()
	state := t.TempDir()
	opts = append([]Option{AuditLog(filepath.Join(state, "audit.jsonl")), BackupDir(filepath.Join(state, "backups")),
		PermissionsFile(filepath.Join(state, "permissions")), Editor(nil), CheckpointDir(filepath.Join(state, "checkpoints"))}, opts...)
	return NewRegistry(cfg, opts...), state
}

func testEnv(dir string, out *bytes.Buffer) Env {
	return Env{Dir: dir, Out: out}
}

func TestRegistryTools(t *testing.T) {
	for _, tc := range []struct {
		fs, exec, web bool
		want          string
	}{
		{true, true, true, "filesystem execute_command web_search"},
		{true, false, true, "filesystem web_search"},
		{false, false, false, ""},
		{false, false, true, "web_search"},
	} {
		cfg := DefaultConfig()
		cfg.FS, cfg.Exec, cfg.Web = tc.fs, tc.exec, tc.web
		r, _ := testRegistry(t, cfg)
		var names []string
		for _, tl := range r.Tools() {
			names = append(names, tl.Name())
			if tl.Description() == "" {
				t.Errorf("%s has no description", tl.Name())
			}
			var s map[string]any
			if err := json.Unmarshal(tl.Schema(), &s); err != nil || s["type"] != "object" {
				t.Errorf("%s: schema %s: %v", tl.Name(), tl.Schema(), err)
			}
		}
		if got := strings.Join(names, " "); got != tc.want {
			t.Errorf("fs=%v exec=%v web=%v: tools %q, want %q", tc.fs, tc.exec, tc.web, got, tc.want)
		}
	}
}

func TestCallValidates(t *testing.T) {
	r, _ := testRegistry(t, DefaultConfig())
	env := testEnv(t.TempDir(), new(bytes.Buffer))
	for _, tc := range []struct {
		tool, args, want string
	}{
		{"nope", `{}`, `unknown tool "nope"; the tools are "filesystem"`},
		{"filesystem", `{"path":"x"}`, `missing required argument "operation"`},
		{"filesystem", `{"operation":3}`, `argument "operation" must be string, got integer 3`},
		{"filesystem", `{"operation":"read","path":"x","colour":"red"}`, `unknown argument "colour"; the arguments are`},
		{"filesystem", `{"operation":"delete","path":"x"}`, `argument "operation" must be one of "read", "list"`},
		{"filesystem", `{"operation":"read","path":"x","start_line":"ten"}`, `argument "start_line" must be integer, got string "ten"`},
		{"filesystem", `{"operation":"read","path":"x","start_line":1.5}`, `argument "start_line" must be integer, got number`},
		{"filesystem", `{"operation":`, `not valid JSON`},
		{"filesystem", `["read"]`, `must be a JSON object, got array`},
		{"web_search", `{}`, `missing required argument "query"`},
		{"web_search", `null`, `missing required argument "query"`},
		{"web_search", ``, `missing required argument "query"`},
		{"web_search", `{"query":"go","num_results":50}`, `num_results`},
	} {
		res := r.Call(context.Background(), env, tc.tool, json.RawMessage(tc.args))
		if res.Success || !strings.Contains(res.Error, tc.want) {
			t.Errorf("%s %s: got %+v, want error containing %q", tc.tool, tc.args, res, tc.want)
		}
	}
}

func TestAuditLog(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello\n"), 0o644)
	r, state := testRegistry(t, DefaultConfig())
	env := testEnv(dir, new(bytes.Buffer))
	ctx := context.Background()
	r.Call(ctx, env, "filesystem", json.RawMessage(`{"operation":"read","path":"a.txt"}`))
	res := r.Call(ctx, env, "filesystem", json.RawMessage(`{"operation":"write","path":"b.txt","content":"OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwx"}`))
	if res.Class != "dev" || res.Decision != "refused" {
		t.Errorf("the result says class %q, decision %q; want the audit log's", res.Class, res.Decision)
	}
	r.Call(ctx, env, "nope", json.RawMessage(`{"token":"hunter2hunter2"}`))

	b, err := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("sk-abcdefghijklmnopqrstuvwx")) || bytes.Contains(b, []byte("hunter2")) {
		t.Errorf("secret in the audit log:\n%s", b)
	}
	var got []entry
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		var e entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		got = append(got, e)
	}
	want := []struct{ tool, class, decision, outcome string }{
		{"filesystem", "safe", "run", "ok"},
		{"filesystem", "dev", "refused", "failed: not run"},
		{"nope", "", "invalid", "failed: unknown tool"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(got), len(want), b)
	}
	for i, w := range want {
		g := got[i]
		if g.Tool != w.tool || g.Class != w.class || g.Decision != w.decision || !strings.HasPrefix(g.Outcome, w.outcome) || g.Time.IsZero() {
			t.Errorf("line %d: %+v, want %+v", i, g, w)
		}
	}
}

func TestCallDuration(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	clock := func() time.Time { now = now.Add(time.Second); return now }
	r, _ := testRegistry(t, DefaultConfig(), Clock(clock, func(context.Context, time.Duration) error { return nil }))
	res := r.Call(context.Background(), testEnv(t.TempDir(), new(bytes.Buffer)), "filesystem", json.RawMessage(`{"operation":"list"}`))
	if !res.Success || res.Duration != time.Second {
		t.Errorf("got %+v, want success in 1s", res)
	}
}

// TestAuditBeforeRun checks that a command the policy lets run unasked is
// in the audit log before it runs: what it runs may bring down the shell
// that would report its end.
func TestAuditBeforeRun(t *testing.T) {
	r, state := testRegistry(t, DefaultConfig())
	logged := ""
	env := testEnv(t.TempDir(), new(bytes.Buffer))
	env.Run = func(ctx context.Context, req guarded.Request, out io.Writer) guarded.Result {
		b, _ := os.ReadFile(filepath.Join(state, "audit.jsonl"))
		logged = string(b)
		return guarded.Result{Status: 0}
	}
	res := r.Call(context.Background(), env, "execute_command", json.RawMessage(`{"command":"echo hi"}`))
	if !res.Success {
		t.Fatalf("call: %+v", res)
	}
	var e entry
	if err := json.Unmarshal([]byte(logged), &e); err != nil || e.Tool != "execute_command" ||
		e.Outcome != "started" || e.Decision != "run" || !strings.Contains(string(e.Args), "echo hi") {
		t.Fatalf("audit log as the command ran: %q (%v)", logged, err)
	}
	b, _ := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 || !strings.Contains(lines[1], `"outcome":"ok`) {
		t.Errorf("audit log after the run:\n%s", b)
	}
}

// TestCallDurationExcludesDeciding: the time a call's result line shows
// is its work's, not the seconds the user took to answer.
func TestCallDurationExcludesDeciding(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cfg := DefaultConfig()
	cfg.Confirm = ConfirmAll
	r, _ := testRegistry(t, cfg, Clock(func() time.Time { return now }, func(context.Context, time.Duration) error { return nil }))
	env := testEnv(t.TempDir(), new(bytes.Buffer))
	env.ReadKey = func(context.Context) (rune, error) {
		now = now.Add(30 * time.Second) // the user thinks
		return 'y', nil
	}
	env.Run = func(ctx context.Context, req guarded.Request, out io.Writer) guarded.Result {
		now = now.Add(2 * time.Second) // the command works
		return guarded.Result{}
	}
	res := r.Call(context.Background(), env, "execute_command", json.RawMessage(`{"command":"echo hi"}`))
	if !res.Success || res.Duration != 2*time.Second {
		t.Errorf("got %+v, want success in 2s", res)
	}
}
