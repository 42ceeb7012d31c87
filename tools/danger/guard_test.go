package danger

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// TestGuard runs real scripts through an interp.Runner with the guard's
// middlewares: what turns out worse than approved must not run.
func TestGuard(t *testing.T) {
	tests := []struct {
		script   string
		approved Class
		stopped  bool
	}{
		{"X=rm; $X -rf ./src", Dev, true},
		{"CMD='rm -rf src'; $CMD", Dev, true},
		{"f() { rm -rf src; }; f", Dev, true},
		{"eval 'rm -rf src'", Dev, true},
		{"shopt -s expand_aliases; alias clean='rm -rf'\nclean src", Dev, true},
		{"a=(rm -r src); \"${a[@]}\"", Dev, true},
		{"cd src && rm -rf ../src", Dev, true},
		{"rm -rf src", Dangerous, false},
		{"X=rm; $X -rf ./build", Dev, false},
		{"touch src/new.txt", Dev, false},
		{"touch src/new.txt", Safe, true},
		{"echo hi > out.txt", Dev, false},
		{"echo hi > out.txt", Safe, true},
		{"echo hi > /dev/null", Safe, false},
		{"ls src > /dev/null", Safe, false},
		{"echo hi >> ~/.qsh-guard-test-rc", Dev, true},
		{"echo hi > /etc/qsh-guard-test", Dangerous, false},
		{"cat /dev/null > /dev/sda", Dangerous, true},
		{"bash -c 'rm -rf src'", Dev, true},
		{"rm -rf /", Dangerous, true},
		// Judged with their pipelines before running: not stopped later.
		{"ls src | xargs touch", Dev, false},
		{"echo ls | bash", Safe, false},
		{"ls src | xargs rm", Dev, true},
		{"env | grep '^GO'", Safe, false},
		{"env", Safe, true},
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
			ws := Workspace{Dir: dir, Home: filepath.Join(dir, "home")}
			exec, open := Guard(ws, tt.approved)
			// The programs of a pipeline write stderr at the same time.
			var stdout, stderr lockedBuffer
			// Programs that could do harm are faked: the guard is what is
			// under test, and a wrong verdict must not touch the system.
			fake := func(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
				return func(ctx context.Context, args []string) error {
					switch args[0] {
					case "touch", "ls", "cat", "env", "grep":
						return next(ctx, args)
					}
					return nil
				}
			}
			baseOpen := interp.DefaultOpenHandler()
			r, err := interp.New(
				interp.Dir(dir),
				interp.Env(nil),
				interp.StdIO(nil, &stdout, &stderr),
				interp.ExecHandlers(exec, fake),
				interp.OpenHandler(open(sandboxOpen(dir, baseOpen))),
			)
			if err != nil {
				t.Fatal(err)
			}
			f, err := syntax.NewParser().Parse(strings.NewReader(tt.script), "")
			if err != nil {
				t.Fatal(err)
			}
			err = r.Run(context.Background(), f)
			stopped := err != nil && strings.Contains(err.Error(), "qsh refused")
			if stopped != tt.stopped {
				t.Fatalf("stopped = %v (err %v), want %v", stopped, err, tt.stopped)
			}
			if stopped {
				if stdout.Len() > 0 || stderr.Len() > 0 {
					t.Errorf("a refusal wrote output: %q %q", stdout.String(), stderr.String())
				}
				if _, err := os.Stat(filepath.Join(dir, "src", "keep.go")); err != nil {
					t.Errorf("the refused command changed the workspace: %v", err)
				}
			}
		})
	}
}

// sandboxOpen lets the test open files only inside dir (and /dev/null);
// any other path is swallowed, so a wrong verdict cannot touch the system.
func sandboxOpen(dir string, next interp.OpenHandlerFunc) interp.OpenHandlerFunc {
	return func(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
		p := path
		if !filepath.IsAbs(p) {
			p = filepath.Join(interp.HandlerCtx(ctx).Dir, p)
		}
		if p == "/dev/null" || strings.HasPrefix(p, dir+"/") {
			return next(ctx, path, flag, perm)
		}
		return next(ctx, "/dev/null", flag&^os.O_CREATE, perm)
	}
}

// TestGuardSymlinkedDir: the workspace is given with symlinks resolved
// while the shell's cwd keeps them; files there are still in the workspace.
func TestGuardSymlinkedDir(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	exec, open := Guard(Workspace{Dir: real, Home: "/nonexistent"}, Dev)
	r, err := interp.New(interp.Dir(link), interp.ExecHandlers(exec), interp.OpenHandler(open(interp.DefaultOpenHandler())))
	if err != nil {
		t.Fatal(err)
	}
	f, _ := syntax.NewParser().Parse(strings.NewReader("echo hi > out.txt && touch made.txt"), "")
	if err := r.Run(context.Background(), f); err != nil {
		t.Fatalf("a write inside the symlinked workspace was refused: %v", err)
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
		t.Skip(err)
	}
	exec, open := Guard(Workspace{Dir: ws, Home: "/nonexistent"}, Dev)
	r, err := interp.New(interp.Dir(ws), interp.ExecHandlers(exec), interp.OpenHandler(open(interp.DefaultOpenHandler())))
	if err != nil {
		t.Fatal(err)
	}
	f, _ := syntax.NewParser().Parse(strings.NewReader("echo pwned > link"), "")
	err = r.Run(context.Background(), f)
	if err == nil || !strings.Contains(err.Error(), "qsh refused") {
		t.Fatalf("a write through a link to outside the workspace was let through: %v", err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "keep\n" {
		t.Errorf("the file outside was changed: %q", b)
	}
}

// lockedBuffer is a bytes.Buffer that several programs may write at once.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Len()
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
