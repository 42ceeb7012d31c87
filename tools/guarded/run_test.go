package guarded

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/tools/danger"
)

// fakeShell is a shell.RunFunc on a fresh interpreter whose programs never
// really run; "wait" waits for the context.
func fakeShell(ctx context.Context, command string, stdout, stderr io.Writer,
	exec func(next interp.ExecHandlerFunc) interp.ExecHandlerFunc,
	_ func(next interp.OpenHandlerFunc) interp.OpenHandlerFunc) (int, error) {
	if command == "wait" {
		<-ctx.Done()
		return 143, nil // the program died of the kill; the context says why
	}
	if exec == nil {
		io.WriteString(stdout, "unguarded\n")
		return 0, nil
	}
	noop := func(interp.ExecHandlerFunc) interp.ExecHandlerFunc {
		return func(context.Context, []string) error { return nil }
	}
	r, err := interp.New(interp.ExecHandlers(exec, noop), interp.StdIO(nil, stdout, stderr))
	if err != nil {
		return 1, err
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil {
		return 2, nil
	}
	if err := r.Run(ctx, f); err != nil {
		return 1, nil
	}
	return 0, nil
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
	if r := run(ctx, Request{Command: "reboot", Workspace: ws, Approved: danger.Dev}, io.Discard); r.Stopped == nil {
		t.Errorf("reboot approved as dev was not stopped: %+v", r)
	}
	if r := run(ctx, Request{Command: "ls; false", Workspace: ws, Approved: danger.Safe}, io.Discard); r.Stopped != nil || r.Err != nil {
		t.Errorf("ls approved as safe: %+v", r)
	}
}
