package tools

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExecTakeOver checks e at execute_command: the command goes to the
// shell's next prompt line, nothing runs, the turn is to end.
func TestExecTakeOver(t *testing.T) {
	r, state := testRegistry(t, DefaultConfig())
	out := new(bytes.Buffer)
	rk, _ := keys(t, 'x', 'e')
	var handed []string
	env := Env{Dir: t.TempDir(), Out: out, ReadKey: rk, Edit: func(c string) error { handed = append(handed, c); return nil }}
	env.Run = nil // nothing may run
	res := execCall(r, env, "touch made-by-edit.txt", 0)
	if !res.TakenOver || !res.Success || !strings.Contains(res.Output, "took the command over") {
		t.Errorf("result %+v", res)
	}
	if len(handed) != 1 || handed[0] != "touch made-by-edit.txt" {
		t.Errorf("handed %q", handed)
	}
	if !strings.Contains(out.String(), "run? [y/n/a/A/e] e\n") {
		t.Errorf("prompt %q", out)
	}
	log, _ := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if !strings.Contains(string(log), `"decision":"edited"`) {
		t.Errorf("audit: %s", log)
	}
	// Without a prompt to hand it to, e is not offered.
	out.Reset()
	rk, _ = keys(t, 'e', 'n')
	execCall(r, Env{Dir: t.TempDir(), Out: out, ReadKey: rk}, "touch x", 0)
	if !strings.Contains(out.String(), "run? [y/n/a/A] n\n") {
		t.Errorf("prompt without Edit %q", out)
	}
}

// TestWriteInEditor checks e at a write: the proposed content opens in the
// user's editor and what they save is written, with a backup; the model
// is told what they changed. An editor that fails writes nothing.
func TestWriteInEditor(t *testing.T) {
	dir := workspace(t, map[string]string{"a.txt": "old\n"})
	var opened []string
	editor := func(ctx context.Context, editor, path string, environ []string) error {
		opened = append(opened, editor)
		b, _ := os.ReadFile(path)
		if string(b) == "fail\n" {
			return errors.New("exit status 1")
		}
		return os.WriteFile(path, append(b, "and mine\n"...), 0o600)
	}
	r, state := testRegistry(t, DefaultConfig(), Editor(editor))
	out := new(bytes.Buffer)
	rk, _ := keys(t, 'e', 'e')
	env := Env{Dir: dir, Out: out, ReadKey: rk, Environ: []string{"EDITOR=nano", "VISUAL=vim -f"}}
	res := fsCall(t, r, env, `{"operation":"write","path":"a.txt","content":"new\n"}`)
	if !res.Success || !strings.Contains(res.Output, "The user edited your content") || !strings.Contains(res.Output, "+and mine") {
		t.Fatalf("%+v", res)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "new\nand mine\n" {
		t.Errorf("a.txt is %q", b)
	}
	if backups, _ := filepath.Glob(filepath.Join(state, "backups", "*", dir, "a.txt")); len(backups) != 1 {
		t.Errorf("backups %v", backups)
	}
	if len(opened) != 1 || opened[0] != "vim -f" {
		t.Errorf("opened with %q, want $VISUAL", opened)
	}
	if !strings.Contains(out.String(), "write? [y/n/a/A/e] e\n") {
		t.Errorf("prompt %q", out)
	}
	res = fsCall(t, r, env, `{"operation":"write","path":"b.txt","content":"fail\n"}`)
	if res.Success || !strings.Contains(res.Error, "left it without saving") || exists(filepath.Join(dir, "b.txt")) {
		t.Errorf("a failed editor: %+v", res)
	}
}

func TestEditorFor(t *testing.T) {
	r, _ := testRegistry(t, DefaultConfig(), Editor(runEditor))
	rk := func(context.Context) (rune, error) { return 0, nil }
	for _, tc := range []struct {
		env  Env
		want string
	}{
		{Env{ReadKey: rk, Environ: []string{"EDITOR=nano", "VISUAL=code -w"}}, "code -w"},
		{Env{ReadKey: rk, Environ: []string{"EDITOR=nano", "VISUAL="}}, "nano"},
		{Env{Environ: []string{"EDITOR=nano"}}, ""}, // no terminal
	} {
		if got := r.editorFor(tc.env); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.env.Environ, got, tc.want)
		}
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
