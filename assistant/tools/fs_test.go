package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/policy/danger"
	"github.com/qsh-shell/qsh/shell/guarded"
)

// workspace makes a directory with files (path → content).
func workspace(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func fsCall(t *testing.T, r *Registry, env Env, args string) Result {
	t.Helper()
	return r.Call(context.Background(), env, "filesystem", json.RawMessage(args))
}

func TestFSRead(t *testing.T) {
	dir := workspace(t, map[string]string{
		"a.txt":    "one\ntwo\nthree\nfour\n",
		"empty":    "",
		"bin.png":  "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
		"latin1":   "caf\xe9 au lait\n",
		"big.txt":  strings.Repeat("0123456789\n", 20),
		"sub/b.go": "package sub\n",
	})
	cfg := DefaultConfig()
	cfg.FSMaxSize = 100
	r, _ := testRegistry(t, cfg)
	env := testEnv(dir, new(bytes.Buffer))
	for _, tc := range []struct {
		args, out, err string
	}{
		{`{"operation":"read","path":"a.txt"}`, "one\ntwo\nthree\nfour\n", ""},
		{`{"operation":"read","path":"./sub/../a.txt"}`, "one\ntwo\nthree\nfour\n", ""},
		{`{"operation":"read","path":"empty"}`, "(empty file)", ""},
		{`{"operation":"read","path":"a.txt","start_line":2,"end_line":3}`, "a.txt lines 2-3:\ntwo\nthree\n", ""},
		{`{"operation":"read","path":"a.txt","start_line":3}`, "a.txt lines 3-4:\nthree\nfour\n", ""},
		{`{"operation":"read","path":"a.txt","start_line":9}`, "", "the file has 4 lines; start_line 9 is past the end"},
		{`{"operation":"read","path":"a.txt","start_line":3,"end_line":2}`, "", "end_line 2 is before start_line 3"},
		{`{"operation":"read","path":"bin.png"}`, "", "bin.png: binary file (image/png, 16 bytes); the filesystem tool reads text only"},
		{`{"operation":"read","path":"latin1"}`, "", "binary file (not UTF-8: text/plain"},
		{`{"operation":"read","path":"big.txt"}`, "", "the file is 220 bytes, over the limit of 100 (QSH_AI_FS_MAX_SIZE)"},
		{`{"operation":"read","path":"big.txt","start_line":19}`, "big.txt lines 19-20:\n0123456789\n0123456789\n", ""},
		{`{"operation":"read","path":"sub"}`, "", "it is a directory"},
		{`{"operation":"read","path":"missing"}`, "", "missing: no such file or directory"},
		{`{"operation":"read"}`, "", `missing required argument "path"`},
	} {
		res := fsCall(t, r, env, tc.args)
		if tc.err != "" {
			if res.Success || !strings.Contains(res.Error, tc.err) {
				t.Errorf("%s: got %+v, want error %q", tc.args, res, tc.err)
			}
			continue
		}
		if !res.Success || res.Output != tc.out {
			t.Errorf("%s: got %+v, want output %q", tc.args, res, tc.out)
		}
	}
	// A range of a big file stops at the size limit, and says so.
	res := fsCall(t, r, env, `{"operation":"read","path":"big.txt","start_line":1,"end_line":20}`)
	if !res.Success || !res.Truncated || !strings.Contains(res.Output, "cut at 100 bytes") {
		t.Errorf("big range: %+v", res)
	}
}

// TestFSRefusals: whatever leads outside the workspace or to secrets is
// asked about, and refused when nobody can be asked, in every mode.
func TestFSRefusals(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("PRIVATE KEY\n"), 0o600)
	outside := filepath.Join(t.TempDir(), "outside.txt")
	os.WriteFile(outside, []byte("OUTSIDE\n"), 0o644)

	dir := workspace(t, map[string]string{
		".env":            "API_TOKEN=xyz\n",
		"config/db.pem":   "-----BEGIN-----\n",
		"aws/credentials": "[default]\n",
	})
	os.Symlink(outside, filepath.Join(dir, "link.txt"))
	os.Symlink(filepath.Join(home, ".ssh", "id_ed25519"), filepath.Join(dir, "notes.txt"))
	ws := filepath.Join(dir, "a", "b")
	os.MkdirAll(ws, 0o755)

	for _, mode := range []ConfirmMode{ConfirmYolo, ConfirmSensitive, ConfirmAll} {
		cfg := DefaultConfig()
		cfg.Confirm = mode
		r, _ := testRegistry(t, cfg)
		for _, tc := range []struct{ dir, path, why string }{
			{ws, "../../../outside.txt", "outside the workspace"},
			{dir, "../../../../../../../../../../etc/passwd", "outside the workspace"},
			{dir, "link.txt", "outside the workspace"},
			{dir, ".env", "may hold secrets"},
			{dir, "config/db.pem", "may hold secrets"},
			{dir, "aws/credentials", "may hold secrets"},
			{dir, "~/.ssh/id_ed25519", ".ssh"},
			{dir, "notes.txt", ".ssh"},
			{dir, "/etc/shadow", "password file"},
		} {
			// Nobody to ask: refused, and the model is told why.
			out := new(bytes.Buffer)
			env := testEnv(tc.dir, out)
			res := fsCall(t, r, env, `{"operation":"read","path":"`+tc.path+`"}`)
			if res.Success || !strings.Contains(res.Error, "no terminal to ask on") || !strings.Contains(res.Error, tc.why) {
				t.Errorf("%s: read %s: got %+v, want a refusal naming %q", mode, tc.path, res, tc.why)
			}
			// Someone to ask who says no.
			rk, n := keys(t, 'n')
			env.ReadKey = rk
			res = fsCall(t, r, env, `{"operation":"read","path":"`+tc.path+`"}`)
			if res.Success || !strings.Contains(res.Error, "the user declined") || *n != 1 {
				t.Errorf("%s: read %s with n: got %+v", mode, tc.path, res)
			}
			if !strings.Contains(out.String(), "⚠ dangerous") || !strings.Contains(out.String(), "read? [y/n/a]") {
				t.Errorf("%s: read %s: prompt %q", mode, tc.path, out)
			}
		}
	}

	// With a yes, the file is read.
	r, _ := testRegistry(t, DefaultConfig())
	rk, _ := keys(t, 'y')
	env := Env{Dir: dir, Out: new(bytes.Buffer), ReadKey: rk}
	if res := fsCall(t, r, env, `{"operation":"read","path":"~/.ssh/id_ed25519"}`); res.Output != "PRIVATE KEY\n" {
		t.Errorf("read after y: %+v", res)
	}
}

func TestFSList(t *testing.T) {
	dir := workspace(t, map[string]string{
		"main.go":         "package main\n",
		"README.md":       "hi\n",
		"cmd/x/x.go":      "package x\n",
		"build/out.go":    "package out\n",
		".git/HEAD":       "ref\n",
		".gitignore":      "build/\n*.log\n",
		"debug.log":       "log\n",
		"docs/guide/a.md": "a\n",
	})
	os.Symlink("main.go", filepath.Join(dir, "link.go"))
	r, _ := testRegistry(t, DefaultConfig())
	env := testEnv(dir, new(bytes.Buffer))

	res := fsCall(t, r, env, `{"operation":"list","path":"."}`)
	for _, want := range []string{"file          13  main.go", "dir            -  cmd/", "link           -  link.go -> main.go", "debug.log"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("list: missing %q in\n%s", want, res.Output)
		}
	}
	res = fsCall(t, r, env, `{"operation":"list","recursive":true,"glob":"*.go"}`)
	got := res.Output
	for _, want := range []string{"main.go", "cmd/x/x.go", "link.go"} {
		if !strings.Contains(got, want) {
			t.Errorf("recursive *.go: missing %q in\n%s", want, got)
		}
	}
	for _, not := range []string{"build/out.go", "README.md", ".git", "debug.log"} {
		if strings.Contains(got, not) {
			t.Errorf("recursive *.go: %q should not be in\n%s", not, got)
		}
	}
	res = fsCall(t, r, env, `{"operation":"list","recursive":true,"glob":"docs/**/*.md"}`)
	if strings.TrimSpace(res.Output) != "file           2  docs/guide/a.md" {
		t.Errorf("docs/**/*.md: %q", res.Output)
	}
	if res := fsCall(t, r, env, `{"operation":"list","path":"nope"}`); res.Success {
		t.Errorf("list of a missing dir succeeded: %+v", res)
	}
}

func TestFSExistsMetadata(t *testing.T) {
	dir := workspace(t, map[string]string{"a.txt": "abc"})
	r, _ := testRegistry(t, DefaultConfig())
	env := testEnv(dir, new(bytes.Buffer))
	if res := fsCall(t, r, env, `{"operation":"exists","path":"a.txt"}`); !strings.HasPrefix(res.Output, "yes: file") {
		t.Errorf("exists a.txt: %+v", res)
	}
	if res := fsCall(t, r, env, `{"operation":"exists","path":"b.txt"}`); res.Output != "no: b.txt does not exist" {
		t.Errorf("exists b.txt: %+v", res)
	}
	res := fsCall(t, r, env, `{"operation":"metadata","path":"a.txt"}`)
	for _, want := range []string{"type: file", "size: 3", "mode: -rw-r--r--", "modified: 20"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("metadata: missing %q in %q", want, res.Output)
		}
	}
}

func TestFSSearch(t *testing.T) {
	dir := workspace(t, map[string]string{
		"main.go":     "package main\n\nfunc main() {\n\tTODO()\n}\n",
		"lib/lib.go":  "package lib\n// TODO: more\n",
		"lib/lib.txt": "TODO in text\n",
		"vendor/v.go": "TODO vendored\n",
		".gitignore":  "vendor/\n",
		".git/config": "TODO git\n",
		".env":        "TODO=secret\n",
		"blob.bin":    "TODO\x00\x01",
		"many.txt":    strings.Repeat("TODO\n", 20),
	})
	r, _ := testRegistry(t, DefaultConfig())
	env := testEnv(dir, new(bytes.Buffer))

	res := fsCall(t, r, env, `{"operation":"search","pattern":"TODO","glob":"*.go"}`)
	want := "lib/lib.go:2: // TODO: more\nmain.go:4: \tTODO()\n"
	if res.Output != want {
		t.Errorf("search *.go:\n%s\nwant\n%s", res.Output, want)
	}
	res = fsCall(t, r, env, `{"operation":"search","pattern":"TODO()","literal":true,"context":1}`)
	if !strings.Contains(res.Output, "main.go-3- func main() {\nmain.go:4: \tTODO()\nmain.go-5- }\n") {
		t.Errorf("search with context:\n%s", res.Output)
	}
	res = fsCall(t, r, env, `{"operation":"search","pattern":"TODO","max_results":5}`)
	if !res.Truncated || strings.Count(res.Output, ": TODO") > 5 || !strings.Contains(res.Output, "stopped at 5 matches") {
		t.Errorf("search capped:\n%+v", res)
	}
	for _, not := range []string{"vendor", ".git/", "blob.bin", ".env:"} {
		if strings.Contains(res.Output, not) {
			t.Errorf("search: %q should be skipped:\n%s", not, res.Output)
		}
	}
	if res := fsCall(t, r, env, `{"operation":"search","pattern":"nothing-like-this"}`); res.Output != "no matches\n[skipped 1 file(s) that may hold secrets; read one by name if you must, the user will be asked]\n" {
		t.Errorf("no matches: %q", res.Output)
	}
	if res := fsCall(t, r, env, `{"operation":"search","pattern":"(unclosed"}`); res.Success || !strings.Contains(res.Error, "set literal to true") {
		t.Errorf("bad regexp: %+v", res)
	}
}

func TestFSWrite(t *testing.T) {
	dir := workspace(t, map[string]string{"a.txt": "old\n"})
	os.Chmod(filepath.Join(dir, "a.txt"), 0o640)
	r, state := testRegistry(t, DefaultConfig())
	out := new(bytes.Buffer)
	rk, n := keys(t, 'y', 'n', '\r', 'y')
	env := Env{Dir: dir, Out: out, ReadKey: rk}

	res := fsCall(t, r, env, `{"operation":"write","path":"a.txt","content":"new\n"}`)
	if !res.Success || !strings.Contains(res.Output, "-old\n+new\n") || !strings.Contains(res.Output, "previous version is saved at "+filepath.Join(state, "backups")) {
		t.Fatalf("write: %+v", res)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "new\n" {
		t.Errorf("a.txt is %q", b)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "a.txt")); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 kept", fi.Mode())
	}
	backups, _ := filepath.Glob(filepath.Join(state, "backups", "*", dir, "a.txt"))
	if len(backups) != 1 {
		t.Fatalf("backups: %v", backups)
	}
	if b, _ := os.ReadFile(backups[0]); string(b) != "old\n" {
		t.Errorf("backup holds %q", b)
	}
	prompt := out.String()
	if !strings.Contains(prompt, "⚠ dev  write a.txt   (changes a file in this project)  "+r.where(danger.Dev, true)+"  undo: yes\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\nwrite? [y/n/a/A] y\n") {
		t.Errorf("prompt:\n%s", prompt)
	}

	// n and Enter refuse; nothing changes.
	for range 2 {
		res = fsCall(t, r, env, `{"operation":"write","path":"b.txt","content":"x"}`)
		if res.Success || !strings.Contains(res.Error, "the user declined") {
			t.Errorf("declined write: %+v", res)
		}
		if _, err := os.Stat(filepath.Join(dir, "b.txt")); err == nil {
			t.Errorf("b.txt written after a no")
		}
	}
	// A new file.
	res = fsCall(t, r, env, `{"operation":"write","path":"b.txt","content":"x"}`)
	if !res.Success || !strings.HasPrefix(res.Output, "created b.txt (1 bytes)\n") {
		t.Errorf("create: %+v", res)
	}
	if *n != 4 {
		t.Errorf("%d keys read, want 4", *n)
	}
	// Writing into a missing directory makes it.
	rk, _ = keys(t, 'y')
	env.ReadKey = rk
	if res := fsCall(t, r, env, `{"operation":"write","path":"no/such/dir/c.txt","content":"x"}`); !res.Success {
		t.Errorf("write into missing dir: %+v", res)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "no/such/dir/c.txt")); string(b) != "x" {
		t.Errorf("no/such/dir/c.txt holds %q", b)
	}
}

func TestFSWriteYoloAndAlways(t *testing.T) {
	dir := workspace(t, nil)
	outside := t.TempDir()
	cfg := DefaultConfig()
	cfg.Confirm = ConfirmYolo
	r, _ := testRegistry(t, cfg)
	env := Env{Dir: dir, Out: new(bytes.Buffer)}
	// yolo: a change in the workspace runs without asking.
	if res := fsCall(t, r, env, `{"operation":"write","path":"a.txt","content":"x"}`); !res.Success {
		t.Errorf("yolo write: %+v", res)
	}
	// but not outside it.
	if res := fsCall(t, r, env, `{"operation":"write","path":"`+outside+`/a.txt","content":"x"}`); res.Success {
		t.Errorf("yolo write outside the workspace ran without asking: %+v", res)
	}

	// sensitive: "a" for a change in the workspace covers later ones
	// there, but not one outside it.
	r, _ = testRegistry(t, DefaultConfig())
	rk, n := keys(t, 'a', 'n')
	env.ReadKey = rk
	for _, f := range []string{"b.txt", "c.txt", "sub/../d.txt"} {
		if res := fsCall(t, r, env, `{"operation":"write","path":"`+f+`","content":"x"}`); !res.Success {
			t.Errorf("write %s after a: %+v", f, res)
		}
	}
	if *n != 1 {
		t.Errorf("asked %d times, want once", *n)
	}
	if res := fsCall(t, r, env, `{"operation":"write","path":"`+outside+`/a.txt","content":"x"}`); res.Success || *n != 2 {
		t.Errorf("write outside after a: %+v (asked %d times)", res, *n)
	}
}

// TestFSWriteInterrupted: when writing the new content fails half-way the
// old file is intact and no temp file is left behind.
func TestFSWriteInterrupted(t *testing.T) {
	dir := workspace(t, map[string]string{"a.txt": "precious\n"})
	cfg := DefaultConfig()
	cfg.Confirm = ConfirmYolo
	r, _ := testRegistry(t, cfg)
	fst := r.lookup("filesystem").(*filesystem)
	fst.write = func(w io.Writer, b []byte) error {
		w.Write(b[:len(b)/2])
		return errors.New("disk full")
	}
	res := fsCall(t, r, Env{Dir: dir}, `{"operation":"write","path":"a.txt","content":"replacement text\n"}`)
	if res.Success || !strings.Contains(res.Error, "not written, the file is unchanged: disk full") {
		t.Errorf("interrupted write: %+v", res)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "precious\n" {
		t.Errorf("a.txt is %q after a failed write", b)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
}

func TestFSEdit(t *testing.T) {
	const src = "package main\n\nfunc a() {\n\treturn\n}\n\nfunc b() {\n\treturn\n}\n"
	dir := workspace(t, map[string]string{"m.go": src})
	cfg := DefaultConfig()
	cfg.Confirm = ConfirmYolo
	cfg.PostEdit = "lint {file}"
	r, _ := testRegistry(t, cfg)
	var ran []string
	env := Env{Dir: dir, Run: func(ctx context.Context, req guarded.Request, out io.Writer) guarded.Result {
		ran = append(ran, req.Command)
		io.WriteString(out, "m.go:3: lint says hi\n")
		return guarded.Result{Status: 1}
	}}
	for _, tc := range []struct{ old, new, err string }{
		{"\treturn\n", "\treturn nil\n", "old_text occurs 2 times (at lines 4, 8)"},
		{"func c()", "x", "old_text was not found (0 matches); read the file"},
		{"func  a() {\n  return", "x", "0 matches); the text is there with different whitespace"},
		{"", "x", "old_text is empty"},
	} {
		args, _ := json.Marshal(map[string]string{"operation": "edit", "path": "m.go", "old_text": tc.old, "new_text": tc.new})
		res := fsCall(t, r, env, string(args))
		if res.Success || !strings.Contains(res.Error, tc.err) {
			t.Errorf("edit %q: %+v, want %q", tc.old, res, tc.err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "m.go")); string(b) != src || len(ran) != 0 {
		t.Fatalf("failed edits changed the file or ran post-edit: %q %v", b, ran)
	}
	res := fsCall(t, r, env, `{"operation":"edit","path":"m.go","old_text":"func b() {\n\treturn\n","new_text":"func b() error {\n\treturn nil\n"}`)
	wantDiff := "--- a/m.go\n+++ b/m.go\n@@ -4,6 +4,6 @@\n \treturn\n }\n \n-func b() {\n-\treturn\n+func b() error {\n+\treturn nil\n }\n"
	if !res.Success || !strings.Contains(res.Output, wantDiff) {
		t.Errorf("edit: %+v\nwant diff\n%s", res, wantDiff)
	}
	want := "lint " + realPath(filepath.Join(dir, "m.go"))
	if len(ran) != 1 || ran[0] != want || !strings.Contains(res.Output, "[post-edit: "+want+" → exit 1]\nm.go:3: lint says hi\n") {
		t.Errorf("post-edit: ran %q, output %q", ran, res.Output)
	}
	if res := fsCall(t, r, env, `{"operation":"edit","path":"nope.go","old_text":"a","new_text":"b"}`); !strings.Contains(res.Error, "no such file; use write") {
		t.Errorf("edit missing: %+v", res)
	}
}

func TestFSDryRun(t *testing.T) {
	dir := workspace(t, map[string]string{"a.txt": "a\n"})
	cfg := DefaultConfig()
	cfg.DryRun = true
	r, _ := testRegistry(t, cfg)
	res := fsCall(t, r, Env{Dir: dir}, `{"operation":"edit","path":"a.txt","old_text":"a","new_text":"b"}`)
	if !res.Success || !strings.Contains(res.Output, "dry run (QSH_AI_DRY_RUN): would edit a.txt") || !strings.Contains(res.Output, "-a\n+b\n") {
		t.Errorf("dry run: %+v", res)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "a\n" {
		t.Errorf("dry run changed the file: %q", b)
	}
}

func TestFSWriteOff(t *testing.T) {
	cfg := DefaultConfig()
	cfg.FSWrite = false
	r, _ := testRegistry(t, cfg)
	s := string(r.lookup("filesystem").Schema())
	if strings.Contains(s, `"write"`) || strings.Contains(s, `"edit"`) || strings.Contains(s, "old_text") {
		t.Errorf("schema offers writes: %s", s)
	}
	res := fsCall(t, r, Env{Dir: t.TempDir()}, `{"operation":"write","path":"a"}`)
	if res.Success || !strings.Contains(res.Error, `must be one of`) {
		t.Errorf("write with QSH_AI_FS_WRITE=false: %+v", res)
	}
}
