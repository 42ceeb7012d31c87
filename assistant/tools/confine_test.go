package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/policy/sandbox"
	"github.com/qsh-shell/qsh/shell/guarded"
)

// sandboxHome makes a home directory with a secret and an rc file, and a
// workspace beside it with a Makefile whose target writes at home: HOME is
// the new one for the test (it must not run in parallel).
func sandboxHome(t *testing.T) (home, ws string) {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home, ws = filepath.Join(root, "home"), filepath.Join(root, "ws")
	for name, content := range map[string]string{
		"home/.bashrc":      "# rc\n",
		"home/.ssh/id_rsa":  "KEY-SECRET-42\n",
		"ws/Makefile":       "all:\n\t@touch $(HOME)/pwned; echo made > built.txt\n",
		"ws/.git/HEAD":      "ref: refs/heads/main\n",
		"tmp/.keep":         "",
		"home/.cache/.keep": "",
	} {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(content), 0o644)
	}
	t.Setenv("HOME", home)
	t.Setenv("TMPDIR", filepath.Join(root, "tmp"))
	return home, ws
}

func requireSandbox(t *testing.T) {
	t.Helper()
	if _, err := sandbox.Support(); err != nil {
		needs.Missing(t, "%v", err)
	}
}

// audited is the last line of the audit log under state.
func audited(t *testing.T, state string) entry {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var e entry
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &e); err != nil {
		t.Fatalf("audit log %q: %v", b, err)
	}
	return e
}

// TestExecSandbox checks which runs are confined: dev and safe commands
// however approved (y, a, yolo), a dangerous one approved with a; not a
// dangerous one approved with y, nor anything with the sandbox off.
func TestExecSandbox(t *testing.T) {
	requireSandbox(t)
	home, ws := sandboxHome(t)
	pwned := filepath.Join(home, "pwned")
	for _, tc := range []struct {
		name       string
		confirm    ConfirmMode
		mode       sandbox.Mode
		command    string
		unconfined bool
		keys       []rune
		prompt     string // on the confirmation line
		wrote      bool   // pwned was written
		sandbox    string // in the audit log
	}{
		{name: "dev, y", confirm: ConfirmSensitive, command: "make -s", keys: []rune{'y'},
			prompt: ")  sandboxed  undo: yes  run? [y/n/a/A]", sandbox: "workspace"},
		{name: "dev, yolo", confirm: ConfirmYolo, command: "make -s", sandbox: "workspace"},
		{name: "dangerous, a", confirm: ConfirmSensitive, command: "touch ~/pwned", keys: []rune{'a'},
			prompt: "unconfined (a/A: sandboxed)  undo: only in the workspace (runs unconfined)  run? [y/n/a/A]", sandbox: "workspace"},
		{name: "dangerous, y", confirm: ConfirmYolo, command: "touch ~/pwned", keys: []rune{'y'},
			wrote: true, sandbox: "unconfined"},
		{name: "asked unconfined, y", confirm: ConfirmYolo, command: "make -s", unconfined: true, keys: []rune{'y'},
			prompt: "asks to run outside the sandbox)  unconfined  undo: only in the workspace (runs unconfined)  run? [y/n] ", wrote: true, sandbox: "unconfined"},
		{name: "readonly", confirm: ConfirmYolo, mode: sandbox.ReadOnly, command: "make -s", sandbox: "readonly"},
		{name: "off", confirm: ConfirmSensitive, mode: sandbox.Off, command: "make -s", keys: []rune{'y'},
			prompt: ")  run? [y/n/a/A]", wrote: true}, // no word: as before the sandbox
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(pwned)
			os.Remove(filepath.Join(ws, "built.txt"))
			cfg := DefaultConfig()
			cfg.Confirm = tc.confirm
			if tc.mode != "" {
				cfg.Sandbox = tc.mode
			}
			r, state := testRegistry(t, cfg)
			rk, n := keys(t, tc.keys...)
			out := new(bytes.Buffer)
			env := Env{Dir: ws, Out: out, ReadKey: rk, Run: testRun(ws), Environ: os.Environ()}
			args, _ := json.Marshal(execParams{Command: tc.command, Unconfined: tc.unconfined})
			res := r.Call(context.Background(), env, "execute_command", args)
			if *n != len(tc.keys) {
				t.Errorf("%d keys read, want %d:\n%s", *n, len(tc.keys), out)
			}
			if tc.prompt != "" && !strings.Contains(out.String(), tc.prompt) {
				t.Errorf("the prompt lacks %q:\n%s", tc.prompt, out)
			}
			if _, err := os.Stat(pwned); (err == nil) != tc.wrote {
				t.Errorf("~/pwned written: %v, want %v\n%s", err == nil, tc.wrote, res.Output)
			}
			denied := "sandbox: write to ~/pwned denied"
			if got := strings.Contains(res.Output, denied); got == tc.wrote {
				t.Errorf("the result says %q: %v\n%s", denied, got, res.Output)
			}
			e := audited(t, state)
			if e.Sandbox != tc.sandbox {
				t.Errorf("audit: sandbox %q, want %q", e.Sandbox, tc.sandbox)
			}
			if !tc.wrote && (len(e.Denied) == 0 || e.Denied[0] != denied) {
				t.Errorf("audit: denied %q", e.Denied)
			}
			if tc.command == "make -s" && tc.mode != sandbox.ReadOnly {
				if b, _ := os.ReadFile(filepath.Join(ws, "built.txt")); string(b) != "made\n" {
					t.Errorf("the build's write in the workspace: %q", b)
				}
			}
		})
	}
}

// TestExecNoSandbox checks a system that cannot confine: commands run as
// before, and the first one says so, once.
func TestExecNoSandbox(t *testing.T) {
	_, ws := sandboxHome(t)
	cfg := DefaultConfig()
	cfg.Confirm = ConfirmYolo
	r, state := testRegistry(t, cfg, SandboxSupport(func() (string, error) {
		return "", errors.New("Landlock is not available")
	}))
	out := new(bytes.Buffer)
	env := Env{Dir: ws, Out: out, Run: testRun(ws), Environ: os.Environ()}
	for range 2 {
		if res := execCall(r, env, "make -s", 0); !res.Success {
			t.Fatalf("%+v", res)
		}
	}
	if n := strings.Count(out.String(), "Landlock is not available: the assistant's commands run unconfined"); n != 1 {
		t.Errorf("said %d times:\n%s", n, out)
	}
	if e := audited(t, state); e.Sandbox != "unconfined" {
		t.Errorf("audit: %+v", e)
	}
	if got := r.Status(env); !strings.Contains(strings.Join(got, "\n"), "commands run unconfined") {
		t.Errorf("status: %q", got)
	}
}

// TestFSSandbox checks that the filesystem tool, which the kernel does
// not confine, holds itself to the policy.
func TestFSSandbox(t *testing.T) {
	requireSandbox(t)
	home, ws := sandboxHome(t)
	key := filepath.Join(home, ".ssh/id_rsa")
	for _, tc := range []struct {
		name, args string
		keys       []rune
		ok         bool
		has        string // in the output or the error
	}{
		{"read a key, y", `{"operation":"read","path":"` + key + `"}`, []rune{'y'}, true, "KEY-SECRET-42"},
		{"read a key, a", `{"operation":"read","path":"` + key + `"}`, []rune{'a'}, false, "sandbox: access to ~/.ssh/id_rsa denied (it holds secrets)"},
		{"list a secret directory", `{"operation":"list","path":"` + filepath.Dir(key) + `"}`, []rune{'y'}, true, "id_rsa"},
		{"write at home from home, a", `{"operation":"write","path":"` + filepath.Join(home, "notes.txt") + `","content":"x"}`, []rune{'a'}, false, "sandbox: write to ~/notes.txt denied"},
		{"write in the workspace", `{"operation":"write","path":"new.txt","content":"x"}`, []rune{'y'}, true, "created new.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, state := testRegistry(t, DefaultConfig())
			rk, _ := keys(t, tc.keys...)
			dir := ws
			if strings.Contains(tc.name, "from home") {
				dir = home
			}
			env := Env{Dir: dir, Out: new(bytes.Buffer), ReadKey: rk, Environ: os.Environ()}
			res := fsCall(t, r, env, tc.args)
			if res.Success != tc.ok || !strings.Contains(res.Output+res.Error, tc.has) {
				t.Errorf("%s: %+v, want ok %v with %q", tc.args, res, tc.ok, tc.has)
			}
			if e := audited(t, state); !tc.ok && len(e.Denied) != 1 {
				t.Errorf("audit: %+v", e)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(home, "notes.txt")); err == nil {
		t.Errorf("~/notes.txt was written")
	}
}

// TestPostEditSandbox checks that the post-edit hook runs confined: the
// file it checks came from the model.
func TestPostEditSandbox(t *testing.T) {
	requireSandbox(t)
	home, ws := sandboxHome(t)
	cfg := DefaultConfig()
	cfg.PostEdit = `touch "$HOME/pwned-hook"; echo hook-ran {file}`
	r, _ := testRegistry(t, cfg)
	rk, _ := keys(t, 'y')
	env := Env{Dir: ws, Out: new(bytes.Buffer), ReadKey: rk, Run: testRun(ws), Environ: os.Environ()}
	res := fsCall(t, r, env, `{"operation":"write","path":"new.txt","content":"x"}`)
	if !res.Success || !strings.Contains(res.Output, "hook-ran "+filepath.Join(ws, "new.txt")) {
		t.Errorf("%+v", res)
	}
	if _, err := os.Stat(filepath.Join(home, "pwned-hook")); err == nil {
		t.Errorf("the post-edit hook wrote at home")
	}
}

// TestExpectedIsTheRunsPolicy: the policy the assistant sends ahead for a
// question (Expected) is, field for field, the one its first confined
// command is sent with, so qsh's jail opened ahead is the one it uses.
func TestExpectedIsTheRunsPolicy(t *testing.T) {
	requireSandbox(t)
	_, ws := sandboxHome(t)
	cfg := DefaultConfig()
	cfg.Confirm = ConfirmYolo
	r, _ := testRegistry(t, cfg)
	env := Env{Dir: ws, Out: new(bytes.Buffer), Environ: os.Environ()}
	want, ok := r.Expected(env)
	if !ok {
		t.Fatal("Expected: not confining")
	}
	var got *sandbox.Policy
	env.Run = func(ctx context.Context, req guarded.Request, out io.Writer) guarded.Result {
		got = req.Sandbox
		return guarded.Result{}
	}
	args, _ := json.Marshal(execParams{Command: "make -s"})
	r.Call(context.Background(), env, "execute_command", args)
	if got == nil || !reflect.DeepEqual(*got, want) {
		t.Errorf("run's policy %+v\nexpected %+v", got, want)
	}
	r.cfg.Sandbox = sandbox.Off
	if _, ok := r.Expected(env); ok {
		t.Error("Expected with the sandbox off")
	}
}
