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
	var out syncBuffer
	s := newScreen(&out, true, false)
	s.spin()
	time.Sleep(200 * time.Millisecond)
	s.Text("hi")
	s.End()
	got := out.String()
	if !strings.HasSuffix(got, "\x1b[1D\x1b[Khi\n") {
		t.Errorf("the spinner was not erased before the text: %q", got)
	}
	if strings.Count(got, "\x1b[1D") < 2 {
		t.Errorf("the spinner did not turn: %q", got)
	}
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
