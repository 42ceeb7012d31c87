package guarded

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/policy/danger"
	"github.com/qsh-shell/qsh/shell/eval"
)

// fakeShell is a shell.RunFunc on a fresh evaluator whose own handler
// runs no program (the middlewares may); "wait" waits for the context.
func fakeShell(ctx context.Context, command string, stdout, stderr io.Writer,
	exec func(next eval.ExecHandler) eval.ExecHandler,
	_ func(next eval.OpenHandler) eval.OpenHandler) (int, error) {
	if command == "wait" {
		<-ctx.Done()
		return 143, nil // the program died of the kill; the context says why
	}
	if exec == nil {
		io.WriteString(stdout, "unguarded\n")
		return 0, nil
	}
	noop := func(eval.ExecHandler) eval.ExecHandler {
		return func(context.Context, *eval.Call) int { return 0 }
	}
	r, err := eval.New(eval.WrapExec(noop), eval.WrapExec(exec), eval.Stdio(nil, stdout, stderr))
	if err != nil {
		return 1, err
	}
	return r.RunString(ctx, command, "qsh"), nil
}

func TestLocal(t *testing.T) {
	run := Local(fakeShell)
	ws := danger.Workspace{Dir: t.TempDir(), Home: t.TempDir()}
	ctx := context.Background()

	r := run(ctx, Request{Command: "wait", Timeout: 20 * time.Millisecond}, io.Discard)
	if !errors.Is(r.Err, context.DeadlineExceeded) {
		t.Errorf("timeout: %+v", r)
	}
	var out bytes.Buffer
	if r := run(ctx, Request{Command: "anything", Unguarded: true}, &out); r.Err != nil || out.String() != "unguarded\n" {
		t.Errorf("unguarded: %+v %q", r, out.String())
	}
	out.Reset()
	if r := run(ctx, Request{Command: "reboot; echo after", Workspace: ws, Approved: danger.Dev}, &out); r.Stopped == nil || r.Err != nil {
		t.Errorf("reboot approved as dev was not stopped: %+v", r)
	}
	if want := "qsh: qsh refused to run `reboot`"; !strings.HasPrefix(out.String(), want) || strings.Contains(out.String(), "after") {
		t.Errorf("reboot's refusal printed %q, want %q… and nothing after", out.String(), want)
	}
	if r := run(ctx, Request{Command: "ls; false", Workspace: ws, Approved: danger.Safe}, io.Discard); r.Stopped != nil || r.Err != nil {
		t.Errorf("ls approved as safe: %+v", r)
	}
}
