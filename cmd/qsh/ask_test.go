package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/shell/eval"

	"github.com/qsh-shell/qsh/policy/danger"
	"github.com/qsh-shell/qsh/shell"
	"github.com/qsh-shell/qsh/shell/guarded"
	"github.com/qsh-shell/qsh/wire"
)

// fakeAssistant is a scripted qsh-assistant: the question's text says what
// it does.
func fakeAssistant() {
	conn := wire.NewConn(os.NewFile(3, "control"))
	for {
		m, err := conn.Receive()
		if err != nil {
			os.Exit(0)
		}
		switch m.Text {
		case "run":
			// Runs a command and reports what came back.
			conn.Send(wire.RunMessage(1, guarded.Request{Command: "echo hi", Approved: danger.Safe}))
			var out bytes.Buffer
			for {
				r, _ := conn.Receive()
				if r.Type == wire.Output {
					out.Write(r.Data)
					continue
				}
				conn.Send(wire.Message{Type: wire.Done, Error: fmt.Sprintf("ran: %q status %d", out.String(), r.Status)})
				break
			}
		case "hang":
			// Runs a command that never ends; Ctrl-C must end the turn.
			conn.Send(wire.RunMessage(1, guarded.Request{Command: "sleep forever", Approved: danger.Safe}))
			var canceled, exited bool
			for !canceled || !exited {
				r, err := conn.Receive()
				if err != nil {
					os.Exit(1)
				}
				canceled = canceled || r.Type == wire.Cancel
				exited = exited || r.Type == wire.Exit && r.Canceled
			}
			conn.Send(wire.Message{Type: wire.Done, Canceled: true})
		case "die":
			os.Exit(7)
		case "pid":
			conn.Send(wire.Message{Type: wire.Done, Error: fmt.Sprint(os.Getpid())})
		}
	}
}

// fakeRun is a shell.RunFunc: "echo hi" prints hi and exits 3, anything
// else waits for the context.
func fakeRun(ctx context.Context, command string, stdout, stderr io.Writer,
	_ func(next eval.ExecHandler) eval.ExecHandler,
	_ func(next eval.OpenHandler) eval.OpenHandler) (int, error) {
	if command == "echo hi" {
		io.WriteString(stdout, "hi\n")
		return 3, nil
	}
	<-ctx.Done()
	return 130, ctx.Err()
}

func fakeHelper(t *testing.T) *assistant {
	t.Helper()
	path, err := exec.LookPath("qsh-fake-assistant")
	if err != nil {
		t.Fatal(err)
	}
	a := &assistant{path: path, environ: os.Environ(), stdout: io.Discard, stderr: io.Discard}
	t.Cleanup(a.close)
	return a
}

func question(text string) shell.Question {
	return shell.Question{Text: text, Dir: os.TempDir(), Run: fakeRun}
}

func TestAssistantRuns(t *testing.T) {
	t.Parallel()
	a := fakeHelper(t)
	err := a.ask(context.Background(), question("run"))
	if err == nil || err.Error() != `ran: "hi\n" status 3` {
		t.Fatalf("got %v", err)
	}
	// The same process answers the next question.
	pid := a.cmd.Process.Pid
	if err := a.ask(context.Background(), question("pid")); err == nil || err.Error() != fmt.Sprint(pid) {
		t.Fatalf("second question answered by %v, want pid %d", err, pid)
	}
}

func TestAssistantCancel(t *testing.T) {
	t.Parallel()
	a := fakeHelper(t)
	ctx, cancel := context.WithCancel(context.Background())
	// Ctrl-C once the assistant's command runs, however long the
	// assistant took to start.
	q := question("hang")
	var start time.Time
	q.Run = func(ctx context.Context, command string, stdout, stderr io.Writer,
		exec func(next eval.ExecHandler) eval.ExecHandler,
		open func(next eval.OpenHandler) eval.OpenHandler) (int, error) {
		start = time.Now()
		cancel()
		return fakeRun(ctx, command, stdout, stderr, exec, open)
	}
	if err := a.ask(ctx, q); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > stopWait {
		t.Fatalf("cancel took %v", d)
	}
	if a.cmd == nil || a.gone() {
		t.Fatal("the assistant did not live through Ctrl-C")
	}
}

func TestAssistantDiesMidTurn(t *testing.T) {
	t.Parallel()
	a := fakeHelper(t)
	err := a.ask(context.Background(), question("die"))
	if err == nil || !strings.Contains(err.Error(), "the assistant exited in the middle of the answer (exit status 7)") {
		t.Fatalf("got %v", err)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Fatalf("not one line: %q", err)
	}
	// The shell goes on, and the next question starts a new assistant.
	if err := a.ask(context.Background(), question("pid")); err == nil || a.cmd == nil || err.Error() != fmt.Sprint(a.cmd.Process.Pid) {
		t.Fatalf("after a crash: %v", err)
	}
}

func TestAssistantMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	a := &assistant{environ: os.Environ(), stdout: io.Discard, stderr: io.Discard}
	defer a.close()
	err := a.ask(context.Background(), question("why"))
	if err == nil || err.Error() != "the assistant program qsh-assistant is not installed next to qsh or on PATH (reinstall qsh: ./install.sh)" {
		t.Fatalf("got %v", err)
	}
}
