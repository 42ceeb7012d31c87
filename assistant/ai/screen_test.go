package ai

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestScreenCode(t *testing.T) {
	t.Parallel()
	text := "See:\n```go\nfmt.Println(1)\n```\nok `inline` and ``double``\n"
	want := "See:\n{d}```go{}\n{c}fmt.Println(1){}\n{d}```{}\nok {c}inline{} and {c}double{}\n"
	for i := 0; i <= len(text); i++ {
		var out bytes.Buffer
		s := newScreen(&out, true, true)
		s.Text(text[:i])
		s.Text(text[i:])
		s.End()
		if got := tags(t, out.String()); got != want {
			t.Fatalf("split at %d:\n got %q\nwant %q", i, got, want)
		}
	}
}

func TestScreenPlain(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	s := newScreen(&out, false, true)
	s.spin()
	s.Text("```sh\nls\n```")
	s.ToolStart("execute_command", `{"command":"ls -l\nwc"}`)
	s.ToolEnd(true, "ok", 2048, 1500*time.Millisecond)
	s.ToolEnd(false, "failed: exit 1", 10, time.Millisecond)
	s.End()
	want := "```sh\nls\n```\n→ execute_command ls -l wc\n  ✓ ok · 2.0 KB · 1.5s\n  ✗ failed: exit 1 · 10 B · 1ms\n"
	if out.String() != want {
		t.Errorf("got %q\nwant %q", out.String(), want)
	}
}

func TestSpinner(t *testing.T) {
	t.Parallel()
	w := &frames{drawn: make(chan struct{}, 64)}
	s := newScreen(w, true, false)
	s.Text("text")
	s.spin()
	for range 2 {
		select {
		case <-w.drawn:
		case <-time.After(10 * time.Second):
			t.Fatalf("the spinner did not turn: %q", w.String())
		}
	}
	s.Text(" more")
	s.End()
	got := w.String()
	// Drawn after the saved cursor, erased by going back to it, so that
	// what the terminal echoed after it (^C) goes too.
	if !strings.HasPrefix(got, "text\x1b7 ⠋\x1b8\x1b[K ⠙") || !strings.HasSuffix(got, "\x1b8\x1b[K more\n") {
		t.Errorf("spinner %q", got)
	}
}

// frames is a terminal that tells when a spinner frame is drawn.
type frames struct {
	syncBuffer
	drawn chan struct{}
}

func (f *frames) Write(p []byte) (int, error) {
	if strings.ContainsAny(string(p), strings.Join(spinFrames, "")) {
		select {
		case f.drawn <- struct{}{}:
		default:
		}
	}
	return f.syncBuffer.Write(p)
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestSummarize(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"operation":"read","path":"go.mod"}`:     "read go.mod",
		`{"command":"go build ./...","timeout":5}`: "go build ./...",
		`{"query":"golang sse"}`:                   "golang sse",
		`{"b":"2","a":"1"}`:                        "a=1",
		`{}`:                                       "",
		`not json`:                                 "not json",
		`{"command":"` + strings.Repeat("x", 100) + `"}`: strings.Repeat("x", 79) + "…",
	} {
		if got := summarize(in); got != want {
			t.Errorf("summarize(%s) = %q, want %q", in, got, want)
		}
	}
}
