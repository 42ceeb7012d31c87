package wire

import (
	"context"
	"errors"
	"io"
	"net"
	"reflect"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/policy/danger"
	"github.com/qsh-shell/qsh/policy/sandbox"
	"github.com/qsh-shell/qsh/shell/guarded"
)

func TestRoundTrip(t *testing.T) {
	a, b := net.Pipe()
	ca, cb := NewConn(a), NewConn(b)
	msgs := []Message{
		{Type: Ask, Text: "why", Dir: "/w", Environ: []string{"A=1"}, Terminal: true, Keys: true,
			Record: []Command{{Line: "make", Dir: "/w", Start: time.Unix(5, 0).UTC(), Duration: time.Second, Status: 2, Output: "err"}}},
		RunMessage(1, guarded.Request{Command: "ls", Workspace: danger.Workspace{Dir: "/w", Home: "/h"}, Approved: danger.Dev, Timeout: time.Minute}),
		{Type: Output, ID: 1, Data: []byte("not utf-8: \xff\xfe\n")},
		ExitMessage(1, guarded.Result{Status: 3}),
		{Type: Done, Error: "no provider"},
	}
	go func() {
		for _, m := range msgs {
			if err := ca.Send(m); err != nil {
				t.Error(err)
			}
		}
		a.Close()
	}()
	for i, want := range msgs {
		got, err := cb.Receive()
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("message %d: got %+v, %v; want %+v", i, got, err, want)
		}
	}
	if _, err := cb.Receive(); err != io.EOF {
		t.Fatalf("after close: %v, want EOF", err)
	}
}

func TestRequestRoundTrip(t *testing.T) {
	req := guarded.Request{Command: "rm x", Workspace: danger.Workspace{Dir: "/w", Home: "/h"}, Approved: danger.Dangerous, Timeout: 2 * time.Second,
		Sandbox: &sandbox.Policy{Mode: sandbox.Workspace, Write: []string{"/w", "/tmp"}, Deny: []string{"/h/.ssh"}, Home: "/h"}}
	if got := RunMessage(4, req).Request(); !reflect.DeepEqual(got, req) {
		t.Fatalf("got %+v, want %+v", got, req)
	}
	bg := guarded.Request{Command: "python3 -m http.server", Approved: danger.Dev, Background: true}
	if got := RunMessage(6, bg).Request(); !reflect.DeepEqual(got, bg) {
		t.Fatalf("got %+v, want %+v", got, bg)
	}
	handed := guarded.Result{Status: 1, HandedOff: []string{"sudo true"}}
	if got := ExitMessage(7, handed).Result(); !reflect.DeepEqual(got, handed) {
		t.Fatalf("got %+v, want %+v", got, handed)
	}
	post := guarded.Request{Command: "gofmt -l x.go", Unguarded: true}
	if got := RunMessage(5, post).Request(); !reflect.DeepEqual(got, post) {
		t.Fatalf("got %+v, want %+v", got, post)
	}
}

func TestResultErrors(t *testing.T) {
	for _, tc := range []struct {
		in   guarded.Result
		want error // errors.Is target, or nil for none
		text string
	}{
		{guarded.Result{Status: 0}, nil, ""},
		{guarded.Result{Status: 130, Err: context.Canceled}, context.Canceled, ""},
		{guarded.Result{Status: 143, Err: context.DeadlineExceeded}, context.DeadlineExceeded, ""},
		{guarded.Result{Status: 1, Err: errors.New("boom")}, nil, "boom"},
		{guarded.Result{Status: 1, Stopped: errors.New("refused rm -rf /")}, nil, ""},
		{guarded.Result{Status: 1, Denied: []string{"sandbox: write to ~/.bashrc denied"}}, nil, ""},
	} {
		got := ExitMessage(9, tc.in).Result()
		if got.Status != tc.in.Status || !reflect.DeepEqual(got.Denied, tc.in.Denied) {
			t.Errorf("%+v: status %d", tc.in, got.Status)
		}
		if (got.Stopped == nil) != (tc.in.Stopped == nil) || got.Stopped != nil && got.Stopped.Error() != tc.in.Stopped.Error() {
			t.Errorf("%+v: stopped %v", tc.in, got.Stopped)
		}
		switch {
		case tc.want != nil && !errors.Is(got.Err, tc.want):
			t.Errorf("%+v: err %v, want %v", tc.in, got.Err, tc.want)
		case tc.text != "" && (got.Err == nil || got.Err.Error() != tc.text):
			t.Errorf("%+v: err %v, want %q", tc.in, got.Err, tc.text)
		case tc.want == nil && tc.text == "" && got.Err != nil:
			t.Errorf("%+v: err %v, want none", tc.in, got.Err)
		}
	}
}
