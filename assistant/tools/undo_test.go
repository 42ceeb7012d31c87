package tools

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/policy/sandbox"
)

func TestRemoteEffect(t *testing.T) {
	for cmd, want := range map[string]string{
		"git push origin main":            "pushes to a remote",
		"git -C sub push":                 "pushes to a remote",
		"make && git push --force":        "pushes to a remote",
		"npm publish --access public":     "publishes a package",
		"cargo publish":                   "publishes a crate",
		"kubectl apply -f k8s/":           "changes a cluster",
		"terraform apply -auto-approve":   "changes infrastructure",
		"psql -c 'drop table x'":          "may change a database",
		"ssh host rm -rf /tmp/x":          "runs on another machine",
		"rsync -a dist/ host:/srv/":       "copies to or from another machine",
		"curl -X POST https://x/api":      "may change something on a server",
		"curl --data @f https://x":        "may change something on a server",
		"sudo docker push img":            "pushes an image",
		"git commit -m push":              "",
		"git status":                      "",
		"curl -o out https://example.com": "",
		"curl -X GET https://x":           "",
		"rsync -a src/ dst/":              "",
		"sed -i s/a/b/ f":                 "",
		"echo 'git push'":                 "",
	} {
		if got := remoteEffect(cmd); got != want {
			t.Errorf("%s: %q, want %q", cmd, got, want)
		}
	}
}

// TestUndoCommand runs a command through execute_command, then `? /undo`:
// the summary, the y, the file back; a second one has nothing to undo.
func TestUndoCommand(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("old\n"), 0o644)
	cfg := DefaultConfig()
	cfg.Confirm, cfg.Sandbox = ConfirmYolo, sandbox.Off
	r, _ := testRegistry(t, cfg)
	var out bytes.Buffer
	env := testEnv(dir, &out)
	env.Run = testRun(dir)
	res := r.Call(context.Background(), env, "execute_command", []byte(`{"command": "echo new > a.txt; echo x > b.txt"}`))
	if !strings.Contains(res.Output, "[checkpoint: this changed 2 paths; the user can undo it with `? /undo`") {
		t.Fatalf("result: %+v", res)
	}
	var w bytes.Buffer
	if err := r.Checkpoints(&w, env); err != nil || !strings.Contains(w.String(), "  1  just now  echo new > a.txt; echo x > b.txt  (2 paths)") {
		t.Errorf("? /checkpoints: %v\n%s", err, w.String())
	}
	w.Reset()
	env.ReadKey, _ = keys(t, 'y')
	if err := r.Undo(context.Background(), &w, env, ""); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{" a.txt | 2 +-\n", " b.txt | remove (file the run made)\n", "restore? [y/n] y\n", "restored 2 paths"} {
		if !strings.Contains(w.String(), s) {
			t.Errorf("? /undo lacks %q:\n%s", s, w.String())
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "old\n" || exists(filepath.Join(dir, "b.txt")) {
		t.Errorf("a.txt %q after undo; b.txt there: %v", b, exists(filepath.Join(dir, "b.txt")))
	}
	if err := r.Undo(context.Background(), &w, env, ""); err == nil || !strings.Contains(err.Error(), "nothing to undo") {
		t.Errorf("second undo: %v", err)
	}
}

// TestUndoToolAsks: the model's undo is asked about even in yolo mode,
// refused in a read-only turn and with no terminal, and done on y.
func TestUndoToolAsks(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("old\n"), 0o644)
	cfg := DefaultConfig()
	cfg.Confirm, cfg.Sandbox = ConfirmYolo, sandbox.Off
	r, _ := testRegistry(t, cfg)
	var out bytes.Buffer
	env := testEnv(dir, &out)
	env.Run = testRun(dir)
	r.Call(context.Background(), env, "execute_command", []byte(`{"command": "echo new > a.txt"}`))
	if res := r.Call(context.Background(), env, "undo", []byte(`{}`)); res.Success || !strings.Contains(res.Error, "no terminal") {
		t.Errorf("undo with nobody to ask: %+v", res)
	}
	ro := env
	ro.ReadOnly = true
	ro.ReadKey, _ = keys(t)
	if res := r.Call(context.Background(), ro, "undo", []byte(`{}`)); res.Success {
		t.Errorf("undo in a read-only turn: %+v", res)
	}
	env.ReadKey, _ = keys(t, 'n')
	if res := r.Call(context.Background(), env, "undo", []byte(`{}`)); res.Success || !res.Declined {
		t.Errorf("undo declined: %+v", res)
	}
	env.ReadKey, _ = keys(t, 'y')
	out.Reset()
	res := r.Call(context.Background(), env, "undo", []byte(`{"steps": 1}`))
	if !res.Success || !strings.Contains(out.String(), "a.txt | 2 +-") {
		t.Errorf("undo: %+v\n%s", res, out.String())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "old\n" {
		t.Errorf("a.txt %q", b)
	}
}
