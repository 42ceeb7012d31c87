package guarded

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/policy/danger"
	"github.com/qsh-shell/qsh/shell/eval"
)

// guardedShell is an evaluator in dir whose programs and redirections go
// through the danger guard as a guarded run's do; fake, between the
// guard and the shell's own handlers, stands for what runs. stopped
// returns the first refusal.
func guardedShell(t *testing.T, dir string, env []string, ws danger.Workspace, approved danger.Class,
	stdout, stderr io.Writer, fakeExec func(eval.ExecHandler) eval.ExecHandler,
	fakeOpen func(eval.OpenHandler) eval.OpenHandler) (run func(script string), stopped func() error) {
	check, checkOpen := danger.Guard(ws, approved)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	var mu sync.Mutex
	var first error
	stop := func(err error) {
		mu.Lock()
		if first == nil {
			first = err
		}
		mu.Unlock()
		cancel()
	}
	if fakeExec == nil {
		fakeExec = func(next eval.ExecHandler) eval.ExecHandler { return next }
	}
	if fakeOpen == nil {
		fakeOpen = func(next eval.OpenHandler) eval.OpenHandler { return next }
	}
	r, err := eval.New(eval.Dir(dir), eval.Env(env), eval.Stdio(nil, stdout, stderr),
		eval.WrapExec(func(next eval.ExecHandler) eval.ExecHandler { return guardExec(check, stop, fakeExec(next)) }),
		eval.WrapOpen(func(next eval.OpenHandler) eval.OpenHandler { return guardOpen(checkOpen, stop, fakeOpen(next)) }))
	if err != nil {
		t.Fatal(err)
	}
	run = func(script string) { r.RunString(ctx, script, "qsh") }
	stopped = func() error {
		mu.Lock()
		defer mu.Unlock()
		return first
	}
	return run, stopped
}

// TestGuard runs real scripts through the evaluator with the guard: what
// turns out worse than approved once expanded must not run, and stops
// the run.
func TestGuard(t *testing.T) {
	tests := []struct {
		script   string
		approved danger.Class
		stopped  bool
	}{
		{"X=rm; $X -rf ./src", danger.Dev, true},
		{"CMD='rm -rf src'; $CMD", danger.Dev, true},
		{"f() { rm -rf src; }; f", danger.Dev, true},
		{"eval 'rm -rf src'", danger.Dev, true},
		{"shopt -s expand_aliases; alias clean='rm -rf'\nclean src", danger.Dev, true},
		{"a=(rm -r src); \"${a[@]}\"", danger.Dev, true},
		{"cd src && rm -rf ../src", danger.Dev, true},
		{"rm -rf src", danger.Dangerous, false},
		{"X=rm; $X -rf ./build", danger.Dev, false},
		{"touch src/new.txt", danger.Dev, false},
		{"touch src/new.txt", danger.Safe, true},
		{"echo hi > out.txt", danger.Dev, false},
		{"echo hi > out.txt", danger.Safe, true},
		{"echo hi > /dev/null", danger.Safe, false},
		{"ls src > /dev/null", danger.Safe, false},
		{"echo hi >> ~/.qsh-guard-test-rc", danger.Dev, true},
		{"echo hi > /etc/qsh-guard-test", danger.Dangerous, false},
		{"cat /dev/null > /dev/sda", danger.Dangerous, true},
		{"bash -c 'rm -rf src'", danger.Dev, true},
		{"rm -rf /", danger.Dangerous, true},
		// Judged with their pipelines before running: not stopped later.
		{"ls src | xargs touch", danger.Dev, false},
		{"echo ls | bash", danger.Safe, false},
		{"ls src | xargs rm", danger.Dev, true},
		{"env | grep '^GO'", danger.Safe, false},
		{"env", danger.Safe, true},
		// A refusal ends the run: nothing after it runs.
		{"rm -rf src; touch src/after", danger.Dev, true},
		{"echo hi > ~/.bashrc; touch src/after", danger.Dev, true},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "src", "keep.go"), []byte("package src\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			// Home is outside the workspace, as it would be.
			ws := danger.Workspace{Dir: dir, Home: t.TempDir()}
			env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + ws.Home}
			var stdout, stderr bytes.Buffer
			// Programs that could do harm are faked, and files are opened
			// only in dir: the guard is what is under test, and a wrong
			// verdict must not touch the system.
			fake := func(next eval.ExecHandler) eval.ExecHandler {
				return func(ctx context.Context, c *eval.Call) int {
					switch c.Args[0] {
					case "touch", "ls", "cat", "env", "grep":
						return next(ctx, c)
					}
					return 0
				}
			}
			run, stopped := guardedShell(t, dir, env, ws, tt.approved, &stdout, &stderr, fake, inside(dir))
			run(tt.script)
			err := stopped()
			if (err != nil) != tt.stopped {
				t.Fatalf("stopped = %v, want %v\nstdout: %q\nstderr: %q", err, tt.stopped, stdout.String(), stderr.String())
			}
			if err == nil {
				return
			}
			if !strings.HasPrefix(err.Error(), "qsh refused to run `") {
				t.Errorf("refusal %q", err)
			}
			// The refusal is said, once; nothing the command would have
			// printed is.
			if stdout.Len() > 0 || strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), err.Error()) {
				t.Errorf("a refusal's output: %q %q", stdout.String(), stderr.String())
			}
			if _, err := os.Stat(filepath.Join(dir, "src", "keep.go")); err != nil {
				t.Errorf("the refused command changed the workspace: %v", err)
			}
			if _, err := os.Stat(filepath.Join(dir, "src", "after")); err == nil {
				t.Errorf("the run went on after the refusal")
			}
		})
	}
}

// inside lets a test open files only inside dir (and /dev/null); any
// other path is swallowed, so a wrong verdict cannot touch the system.
func inside(dir string) func(eval.OpenHandler) eval.OpenHandler {
	return func(next eval.OpenHandler) eval.OpenHandler {
		return func(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
			if path == "/dev/null" || strings.HasPrefix(path, dir+"/") {
				return next(ctx, path, flag, perm)
			}
			return next(ctx, "/dev/null", flag&^os.O_CREATE, perm)
		}
	}
}

// TestGuardSymlinkedDir: the workspace is given with symlinks resolved
// while the shell's cwd keeps them; files there are still in the workspace.
func TestGuardSymlinkedDir(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		needs.Missing(t, "%v", err)
	}
	var out bytes.Buffer
	run, stopped := guardedShell(t, link, []string{"PATH=" + os.Getenv("PATH")},
		danger.Workspace{Dir: real, Home: "/nonexistent"}, danger.Dev, &out, &out, nil, nil)
	run("echo hi > out.txt && touch made.txt")
	if err := stopped(); err != nil {
		t.Fatalf("a write inside the symlinked workspace was refused: %v\n%s", err, out.String())
	}
	if _, err := os.Stat(filepath.Join(real, "made.txt")); err != nil {
		t.Error(err)
	}
}

// TestGuardWriteThroughLink: a link inside the workspace that points
// outside does not make the write a workspace write.
func TestGuardWriteThroughLink(t *testing.T) {
	ws := t.TempDir()
	outside := filepath.Join(t.TempDir(), "victim.txt")
	if err := os.WriteFile(outside, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(ws, "link")); err != nil {
		needs.Missing(t, "%v", err)
	}
	var out bytes.Buffer
	run, stopped := guardedShell(t, ws, []string{"PATH=" + os.Getenv("PATH")},
		danger.Workspace{Dir: ws, Home: "/nonexistent"}, danger.Dev, &out, &out, nil, nil)
	run("echo pwned > link")
	if err := stopped(); err == nil || !strings.Contains(err.Error(), "qsh refused") {
		t.Fatalf("a write through a link to outside the workspace was let through: %v", err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "keep\n" {
		t.Errorf("the file outside was changed: %q", b)
	}
}
