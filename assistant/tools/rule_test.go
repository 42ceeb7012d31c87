package tools

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/policy/danger"
)

func TestRuleCovers(t *testing.T) {
	run := func(cmd string, c danger.Class) ask {
		return ask{kind: kindRun, verdict: danger.Verdict{Class: c}, subject: cmd}
	}
	read := func(path string, c danger.Class) ask {
		return ask{kind: kindRead, verdict: danger.Verdict{Class: c}, subject: "list " + path, id: "list " + path, path: path}
	}
	write := func(path string, c danger.Class) ask {
		return ask{kind: kindWrite, verdict: danger.Verdict{Class: c}, subject: "write " + path, id: "write " + path + " 0123", path: path}
	}
	callOf := func(tool string, c danger.Class) ask {
		return ask{kind: kindCall, verdict: danger.Verdict{Class: c}, subject: tool + " {}", tool: tool}
	}
	for _, tc := range []struct {
		name string
		rule Rule
		q    ask
		want bool
	}{
		{"command words", Rule{Kind: kindRun, Command: "go vet", Class: danger.Dev}, run("go vet ./...", danger.Dev), true},
		{"command words, options first", Rule{Kind: kindRun, Command: "go vet", Class: danger.Dev}, run("go vet -v ./pkg", danger.Dev), true},
		{"another subcommand", Rule{Kind: kindRun, Command: "go vet", Class: danger.Dev}, run("go test ./...", danger.Dev), false},
		{"worse class", Rule{Kind: kindRun, Command: "go vet", Class: danger.Safe}, run("go vet ./...", danger.Dev), false},
		{"compound line", Rule{Kind: kindRun, Command: "go vet", Class: danger.Dev}, run("go vet ./... && rm -rf x", danger.Dangerous), false},
		{"exact", Rule{Kind: kindRun, Exact: "git push --force", Class: danger.Dangerous}, run("git push --force", danger.Dangerous), true},
		{"exact, other text", Rule{Kind: kindRun, Exact: "git push --force", Class: danger.Dangerous}, run("git push --force origin", danger.Dangerous), false},
		{"never blocked", Rule{Kind: kindRun, Exact: "rm -rf ~", Class: danger.Dangerous}, run("rm -rf ~", danger.Blocked), false},
		{"kind differs", Rule{Kind: kindRun, Exact: "list /x", Class: danger.Dev}, read("/x", danger.Dev), false},
		{"read under", Rule{Kind: kindRead, Under: "/usr/share", Class: danger.Dev}, read("/usr/share/doc", danger.Dev), true},
		{"read the dir", Rule{Kind: kindRead, Under: "/usr/share", Class: danger.Dev}, read("/usr/share", danger.Dev), true},
		{"read a sibling", Rule{Kind: kindRead, Under: "/usr/share", Class: danger.Dev}, read("/usr/shared", danger.Dev), false},
		{"read contents is worse", Rule{Kind: kindRead, Under: "/usr/share", Class: danger.Dev}, read("/usr/share/doc", danger.Dangerous), false},
		{"write in the project", Rule{Kind: kindWrite, Under: "/w", Class: danger.Dev}, write("/w/a/b.go", danger.Dev), true},
		{"write outside", Rule{Kind: kindWrite, Under: "/w", Class: danger.Dev}, write("/w2/b.go", danger.Dev), false},
		{"write exact", Rule{Kind: kindWrite, Exact: "write /etc/x 0123", Class: danger.Dangerous}, write("/etc/x", danger.Dangerous), true},
		{"tool", Rule{Kind: kindCall, Tool: "fetch", Class: danger.Dev}, callOf("fetch", danger.Dev), true},
		{"other tool", Rule{Kind: kindCall, Tool: "fetch", Class: danger.Dev}, callOf("fetcher", danger.Dev), false},
		{"empty rule", Rule{Kind: kindRun, Class: danger.Dev}, run("ls", danger.Safe), false},
	} {
		if got := tc.rule.covers(tc.q); got != tc.want {
			t.Errorf("%s: %v covers %q = %v, want %v", tc.name, tc.rule, tc.q.subject, got, tc.want)
		}
	}
}

func TestRuleFor(t *testing.T) {
	for _, tc := range []struct {
		cmd   string
		class danger.Class
		want  string // String() of the rule, "" for none
	}{
		{"go vet ./...", danger.Dev, "run `go vet …` (up to dev)"},
		{"ls -la", danger.Safe, "run `ls …`"},
		{"git push --force", danger.Dangerous, "run exactly `git push --force` (up to dangerous)"},
		{"bash -c 'make'", danger.Dev, "run exactly `bash -c 'make'` (up to dev)"},
		{"rm -rf /", danger.Blocked, ""},
	} {
		r := ruleFor(tc.cmd, danger.Verdict{Class: tc.class})
		got := ""
		if r != nil {
			got = r.String()
		}
		if got != tc.want {
			t.Errorf("ruleFor(%q) = %q, want %q", tc.cmd, got, tc.want)
		}
	}
}

func TestSavedRules(t *testing.T) {
	ctx := context.Background()
	state := t.TempDir()
	file := filepath.Join(state, "config", "qsh", "permissions")
	project := t.TempDir()
	os.Mkdir(filepath.Join(project, ".git"), 0o755)
	sub := filepath.Join(project, "cmd")
	os.Mkdir(sub, 0o755)
	other := t.TempDir()
	vet := func() ask {
		v := danger.Verdict{Class: danger.Dev, Reasons: []string{"runs the Go toolchain"}}
		return ask{kind: kindRun, verdict: v, subject: "go vet ./...", verb: "run", rule: ruleFor("go vet ./...", v)}
	}

	r1, _ := testRegistry(t, DefaultConfig(), PermissionsFile(file))
	out := new(bytes.Buffer)
	rk, n := keys(t, 'A')
	c := &call{}
	if ok, _ := r1.approve(ctx, Env{Dir: project, Out: out, ReadKey: rk, Question: "vet\nit"}, vet(), c); !ok || c.decision != decAlways || *n != 1 {
		t.Fatalf("A: ok=%v decision=%q", ok, c.decision)
	}
	if !strings.Contains(out.String(), "run? [y/n/a/A] A: always in "+project) {
		t.Errorf("prompt: %q", out)
	}
	b, _ := os.ReadFile(file)
	if !strings.HasPrefix(string(b), "# qsh's saved permissions") || !strings.Contains(string(b), "project="+project+` kind=run command="go vet" class=dev made=`) || !strings.Contains(string(b), `from="vet it"`) {
		t.Errorf("the file:\n%s", b)
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}

	// Another session, in the project (a subdirectory is the same git
	// work tree): no question. In another project: a question.
	r2, _ := testRegistry(t, DefaultConfig(), PermissionsFile(file))
	rk, n = keys(t, 'n')
	for _, dir := range []string{project, sub} {
		if ok, _ := r2.approve(ctx, Env{Dir: dir, Out: new(bytes.Buffer), ReadKey: rk}, vet(), &call{}); !ok || *n != 0 {
			t.Errorf("in %s: ok=%v, asked %d times", dir, ok, *n)
		}
	}
	if ok, _ := r2.approve(ctx, Env{Dir: other, Out: new(bytes.Buffer), ReadKey: rk}, vet(), &call{}); ok || *n != 1 {
		t.Errorf("another project: ok=%v, asked %d times", ok, *n)
	}

	// ? /permissions lists it; revoke removes it from the file.
	list := new(bytes.Buffer)
	r2.Permissions(list, sub, "")
	if !strings.Contains(list.String(), "  1  run `go vet …` (up to dev)") || !strings.Contains(list.String(), `from "vet it"`) {
		t.Errorf("list:\n%s", list)
	}
	list.Reset()
	r2.Permissions(list, other, "")
	if !strings.Contains(list.String(), "no permissions") || !strings.Contains(list.String(), "1 more rule saved for other projects") {
		t.Errorf("list elsewhere:\n%s", list)
	}
	if err := r2.Permissions(new(bytes.Buffer), project, "revoke 2"); err == nil {
		t.Error("revoke 2 of 1 worked")
	}
	if err := r2.Permissions(list, project, "revoke 1"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(file); strings.Contains(string(b), "go vet") || !strings.HasPrefix(string(b), "# qsh's saved") {
		t.Errorf("after revoke:\n%s", b)
	}
	rk, n = keys(t, 'n')
	if ok, _ := r1.approve(ctx, Env{Dir: project, Out: new(bytes.Buffer), ReadKey: rk}, vet(), &call{}); ok || *n != 1 {
		t.Errorf("after revoke: ok=%v, asked %d times", ok, *n)
	}
}

func TestSessionRules(t *testing.T) {
	ctx := context.Background()
	r, _ := testRegistry(t, DefaultConfig())
	dir := t.TempDir()
	rk, _ := keys(t, 'a')
	v := danger.Verdict{Class: danger.Dev}
	q := ask{kind: kindRun, verdict: v, subject: "go test ./...", verb: "run", rule: ruleFor("go test ./...", v)}
	r.approve(ctx, Env{Dir: dir, Out: new(bytes.Buffer), ReadKey: rk, Question: "test it"}, q, &call{})
	out := new(bytes.Buffer)
	r.Permissions(out, dir, "")
	if !strings.Contains(out.String(), "this session (a):\n  1  run `go test …` (up to dev)") || !strings.Contains(out.String(), `from "test it"`) {
		t.Errorf("list:\n%s", out)
	}
	out.Reset()
	r.Permissions(out, dir, "clear")
	if out.String() != "forgot 1 rule of this session (saved ones stay: ? /permissions revoke N)\n" {
		t.Errorf("clear: %q", out)
	}
	if err := r.Permissions(out, dir, "frobnicate"); err == nil {
		t.Error("a bad argument was taken")
	}
}

// TestCorruptPermissions checks that a file qsh cannot read is said in one
// line, once, and allows nothing; A then does not overwrite it.
func TestCorruptPermissions(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "permissions")
	dir := t.TempDir()
	bad := "project=" + projectOf(dir) + " kind=run command=\"go vet\" class=dev\nproject=" + projectOf(dir) + " kind=run command=\"bash\" class=dev\n"
	os.WriteFile(file, []byte(bad), 0o600)
	r, _ := testRegistry(t, DefaultConfig(), PermissionsFile(file))
	v := danger.Verdict{Class: danger.Dev}
	q := ask{kind: kindRun, verdict: v, subject: "go vet ./...", verb: "run", rule: ruleFor("go vet ./...", v)}
	out := new(bytes.Buffer)
	rk, n := keys(t, 'n', 'A')
	if ok, _ := r.approve(ctx, Env{Dir: dir, Out: out, ReadKey: rk}, q, &call{}); ok || *n != 1 {
		t.Errorf("a corrupt file allowed the call")
	}
	if ok, _ := r.approve(ctx, Env{Dir: dir, Out: out, ReadKey: rk}, q, &call{}); !ok {
		t.Errorf("A did not allow it for the session")
	}
	s := out.String()
	if strings.Count(s, "saved permissions ignored") != 1 || !strings.Contains(s, "line 2: command=\"bash\"") {
		t.Errorf("screen:\n%s", s)
	}
	if !strings.Contains(s, "A: not saved (") || !strings.Contains(s, "allowed for this session") {
		t.Errorf("A on a corrupt file:\n%s", s)
	}
	if b, _ := os.ReadFile(file); string(b) != bad {
		t.Errorf("the corrupt file was changed:\n%s", b)
	}
}

// TestPermissionsFileProtected checks that the filesystem tool treats
// qsh's own configuration as dangerous even inside the workspace: the
// model must not widen its own permissions.
func TestPermissionsFileProtected(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, ".config", "qsh", "permissions")
	r, _ := testRegistry(t, DefaultConfig(), PermissionsFile(file))
	out := new(bytes.Buffer)
	rk, _ := keys(t, 'n')
	res := fsCall(t, r, Env{Dir: dir, Out: out, ReadKey: rk}, `{"operation":"write","path":".config/qsh/permissions","content":"project=/ kind=run command=\"go vet\" class=dev\n"}`)
	if res.Success || !strings.Contains(out.String(), "⚠ dangerous  write .config/qsh/permissions   (changes qsh's own configuration") {
		t.Errorf("%+v\n%s", res, out)
	}
}
