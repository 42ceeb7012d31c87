//go:build unix

package guarded

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/policy/danger"
	"github.com/qsh-shell/qsh/shell/eval"
)

// shellIn is a ShellFunc on a fresh evaluator in dir with env, whose
// middlewares see what really runs and opens, as the session's do.
func shellIn(dir string, env []string) ShellFunc {
	return func(ctx context.Context, command string, stdout, stderr io.Writer,
		exec func(next eval.ExecHandler) eval.ExecHandler,
		open func(next eval.OpenHandler) eval.OpenHandler) (int, error) {
		opts := []eval.Option{eval.Stdio(nil, stdout, stderr), eval.Dir(dir), eval.Env(env)}
		if exec != nil {
			opts = append(opts, eval.WrapExec(exec))
		}
		if open != nil {
			opts = append(opts, eval.WrapOpen(open))
		}
		r, err := eval.New(opts...)
		if err != nil {
			return 1, err
		}
		return r.RunString(ctx, command, "qsh"), nil
	}
}

// TestSpawn runs programs as a guarded run starts them: in a process
// group of their own, with the non-interactive environment; a script
// without #! is the shell's to run, and its programs are guarded too.
func TestSpawn(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	script := "echo from-script; rm -rf src\n"
	if err := os.WriteFile(filepath.Join(dir, "plain"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "PAGER=less"}
	run := Local(shellIn(dir, env))
	ws := danger.Workspace{Dir: dir, Home: t.TempDir()}
	for _, tc := range []struct {
		command  string
		approved danger.Class
		status   int
		out      string
		stopped  bool
	}{
		{command: "qsh-no-such-command", status: 127, out: "qsh-no-such-command: command not found\n"},
		{command: "./qsh-no-such-file", status: 127, out: "./qsh-no-such-file: no such file or directory\n"},
		{command: "sh -c 'exit 3'", status: 3},
		{command: "sh -c 'kill -TERM $$'", status: 143},
		{command: "printenv PAGER CI", out: "cat\n1\n"},
		{command: "echo in | sh -c 'read -r x; echo got $x'", out: "got in\n"},
		{command: "sh -c 'read -r x; echo [$x] $?'", out: "[] 1\n"},
		{command: "./plain", out: "from-script\n"},
		{command: "./plain", approved: danger.Dev, status: 126, stopped: true,
			out: "from-script\nqsh: qsh refused to run `rm -rf src`"},
	} {
		if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
			t.Fatal(err)
		}
		approved := tc.approved
		if approved == 0 {
			approved = danger.Dangerous // unknown commands, kill
		}
		var out bytes.Buffer
		r := run(context.Background(), Request{Command: tc.command, Workspace: ws, Approved: approved}, &out)
		if r.Err != nil || (r.Stopped != nil) != tc.stopped || r.Status != tc.status {
			t.Errorf("%s: %+v, want status %d\n%s", tc.command, r, tc.status, out.String())
		}
		if got := out.String(); got != tc.out && !(tc.stopped && strings.HasPrefix(got, tc.out)) {
			t.Errorf("%s: printed %q, want %q", tc.command, got, tc.out)
		}
	}
}
