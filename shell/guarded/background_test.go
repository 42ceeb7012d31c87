//go:build unix

package guarded

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/internal/testtime"
	"github.com/qsh-shell/qsh/policy/danger"
	"github.com/qsh-shell/qsh/policy/sandbox"
)

// lockedBuffer is output written from several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestStart: a background run returns at once and keeps running until its
// line ends (its status told, an `exit` too) or its context does (its
// programs killed); && keeps its meaning; a syntax error ends it at once.
func TestStart(t *testing.T) {
	dir := t.TempDir()
	ws := danger.Workspace{Dir: dir, Home: t.TempDir()}
	run := shellIn(dir, os.Environ())
	wait := func(done <-chan Result) Result {
		t.Helper()
		select {
		case r := <-done:
			return r
		case <-time.After(testtime.Scaled(10 * time.Second)):
			t.Fatal("the background run did not end")
		}
		return Result{}
	}
	tests := []struct {
		line   string
		status int
		out    string
	}{
		{"echo a && echo b; false", 1, "a\nb\n"},
		{"sh -c 'echo from a program'", 0, "from a program\n"},
		{"echo x; exit 3", 3, "x\n"},
		{"true ||", 2, "syntax error"},
	}
	for _, tt := range tests {
		var out lockedBuffer
		r := wait(Start(run, context.Background(), Request{Command: tt.line, Workspace: ws, Approved: danger.Dangerous}, &out))
		if r.Status != tt.status || !strings.Contains(out.String(), tt.out) {
			t.Errorf("%q: %+v, output %q; want status %d, output with %q", tt.line, r, out.String(), tt.status, tt.out)
		}
	}

	// Running until stopped: the program is killed with its group.
	ctx, cancel := context.WithCancel(context.Background())
	var out lockedBuffer
	pidFile := dir + "/pid"
	done := Start(run, ctx, Request{Command: "sh -c 'echo $$ > " + pidFile + "; exec sleep 60'", Workspace: ws, Approved: danger.Dangerous}, &out)
	started := testtime.Until(testtime.Scaled(10*time.Second), func() bool {
		b, err := os.ReadFile(pidFile)
		return err == nil && strings.HasSuffix(string(b), "\n")
	})
	if !started {
		t.Fatalf("the program did not start: %q", out.String())
	}
	select {
	case r := <-done:
		t.Fatalf("ended before it was stopped: %+v %q", r, out.String())
	default:
	}
	cancel()
	r := wait(done)
	if !errors.Is(r.Err, context.Canceled) || out.String() != "" {
		t.Errorf("stopped: %+v, output %q", r, out.String())
	}
}

// TestStartConfined: a confined background run's programs are jailed,
// their output comes as it is printed, and stopping it ends its jail.
func TestStartConfined(t *testing.T) {
	if sandbox.ABI() < 1 {
		t.Skip("Landlock is not available on this kernel")
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home, ws := filepath.Join(root, "home"), filepath.Join(root, "ws")
	os.MkdirAll(home, 0o755)
	os.MkdirAll(ws, 0o755)
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TMPDIR=" + ws}
	p, _ := sandbox.Compute(sandbox.Settings{Mode: sandbox.Workspace, Net: sandbox.NetOff}, sandbox.Place{Dir: ws, Home: home, Environ: env})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out lockedBuffer
	done := Start(shellIn(ws, env), ctx, Request{Command: "sh -c 'echo up; touch ~/escaped; exec sleep 60'", Sandbox: &p,
		Workspace: danger.Workspace{Dir: ws, Home: home}, Approved: danger.Dangerous}, &out)
	if !testtime.Until(testtime.Scaled(10*time.Second), func() bool { return strings.Contains(out.String(), "up\n") }) {
		t.Fatalf("no output from the confined background run: %q", out.String())
	}
	if _, err := os.Stat(filepath.Join(home, "escaped")); err == nil {
		t.Error("the confined background run wrote in the home directory")
	}
	cancel()
	select {
	case r := <-done:
		if !errors.Is(r.Err, context.Canceled) {
			t.Errorf("stopped: %+v", r)
		}
	case <-time.After(testtime.Scaled(10 * time.Second)):
		t.Fatal("the confined background run did not end once stopped")
	}
}
