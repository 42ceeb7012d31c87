package remote

import (
	"bytes"
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/policy/danger"
	"github.com/qsh-shell/qsh/shell/guarded"
	"github.com/qsh-shell/qsh/wire"
)

// pair returns a server reading its end of a pipe, and qsh's end.
func pair(t *testing.T) (*server, *wire.Conn, net.Conn) {
	t.Helper()
	a, b := net.Pipe()
	t.Cleanup(func() { a.Close(); b.Close() })
	s := newServer(wire.NewConn(a), Settings{})
	go s.read(make(chan wire.Message, 1))
	return s, wire.NewConn(b), b
}

func TestRunAsksTheShell(t *testing.T) {
	s, shell, _ := pair(t)
	go func() {
		m, _ := shell.Receive()
		if m.Type != wire.Run || m.Command != "make" || danger.Class(m.Approved) != danger.Dev {
			t.Errorf("got %+v", m)
		}
		shell.Send(wire.Message{Type: wire.Output, ID: m.ID, Data: []byte("building\n")})
		shell.Send(wire.ExitMessage(m.ID, guarded.Result{Status: 2}))
	}()
	var out bytes.Buffer
	r := s.run(context.Background(), guarded.Request{Command: "make", Approved: danger.Dev}, &out)
	if r.Status != 2 || r.Err != nil || out.String() != "building\n" {
		t.Fatalf("got %+v, output %q", r, out.String())
	}
}

func TestRunCancel(t *testing.T) {
	s, shell, _ := pair(t)
	go func() {
		m, _ := shell.Receive()
		c, _ := shell.Receive()
		if c.Type != wire.Cancel || c.ID != m.ID {
			t.Errorf("got %+v, want cancel of run %d", c, m.ID)
		}
		shell.Send(wire.ExitMessage(m.ID, guarded.Result{Status: 130, Err: context.Canceled}))
	}()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	r := s.run(ctx, guarded.Request{Command: "sleep 100"}, new(bytes.Buffer))
	if !errors.Is(r.Err, context.Canceled) {
		t.Fatalf("got %+v", r)
	}
}

func TestRunShellGone(t *testing.T) {
	s, shell, end := pair(t)
	go func() {
		shell.Receive()
		end.Close()
	}()
	r := s.run(context.Background(), guarded.Request{Command: "ls"}, new(bytes.Buffer))
	if r.Err == nil || !strings.Contains(r.Err.Error(), "qsh closed the control channel") {
		t.Fatalf("got %+v", r)
	}
}

func TestCancelBeforeTurn(t *testing.T) {
	a, b := net.Pipe()
	defer b.Close()
	s := newServer(wire.NewConn(a), LoadSettings([]string{"OLLAMA_HOST=http://127.0.0.1:9"}, new(bytes.Buffer)))
	shell := wire.NewConn(b)
	served := make(chan struct{})
	go func() { s.serve(); close(served) }()
	// A Ctrl-C that arrives with the question still ends its turn: no
	// provider is asked (none is set up, and the answer is the cancel).
	shell.Send(wire.Message{Type: wire.Ask, Text: "hi", Dir: t.TempDir()})
	shell.Send(wire.Message{Type: wire.Cancel})
	m, err := shell.Receive()
	for err == nil && m.Type == wire.Prepare { // the jail to open ahead, if the turn got that far
		m, err = shell.Receive()
	}
	if err != nil || m.Type != wire.Done || !m.Canceled {
		t.Fatalf("got %+v, %v", m, err)
	}
	b.Close()
	select {
	case <-served:
	case <-time.After(5 * time.Second):
		t.Fatal("serve did not end when the channel closed")
	}
}
