package ai

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/assistant/ai/chat"
)

// BenchmarkRoundTrip measures one model round trip through the loop
// against the fake server on loopback: request, stream, tool call, result.
// It bounds the loop's own overhead from above.
func BenchmarkRoundTrip(b *testing.B) {
	srv := aitest.NewOpenAI(b)
	a := New(providers[0].cfg(srv.URL), newSet(echo()), noWait)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%20 == 0 {
			// Keep the conversation, and so each request, a steady size.
			a.Ask(ctx, Request{Text: "/reset", Stdout: io.Discard})
		}
		srv.Push(aitest.Use("echo", `{"text":"hello"}`, 3), aitest.Say("done", 2))
		if err := a.Ask(ctx, Request{Text: "go", Stdout: io.Discard, Environ: []string{}}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N)/1e6, "ms/roundtrip")
}

// BenchmarkTokenLatency measures the time from the server sending a piece
// of text to that text reaching the writer: the server sends each piece
// only once the writer got the one before, so each iteration is one
// send-to-screen trip.
func BenchmarkTokenLatency(b *testing.B) {
	gate := make(chan struct{}, 1)
	srv := aitest.NewOpenAI(b)
	a := New(providers[0].cfg(srv.URL), nil, noWait)
	w := &gateWriter{gate: gate}
	srv.Push(aitest.Reply{Text: strings.Repeat("x", b.N+1), Chunks: b.N + 1, Gate: gate})
	b.ResetTimer()
	if err := a.Ask(context.Background(), Request{Text: "go", Stdout: w, Environ: []string{}}); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/token")
}

type gateWriter struct{ gate chan struct{} }

func (w *gateWriter) Write(p []byte) (int, error) {
	select {
	case w.gate <- struct{}{}:
	default:
	}
	return len(p), nil
}

// BenchmarkFirstToken measures a question's time to its first streamed
// byte, with a fresh agent each time (clients made on the first question).
func BenchmarkFirstToken(b *testing.B) {
	srv := aitest.NewOpenAI(b)
	var total time.Duration
	for i := 0; i < b.N; i++ {
		srv.Push(aitest.Say("hello", 1))
		a := New(providers[0].cfg(srv.URL), nil, noWait)
		w := &firstWriter{}
		start := time.Now()
		if err := a.Ask(context.Background(), Request{Text: "go", Stdout: w, Environ: []string{}}); err != nil {
			b.Fatal(err)
		}
		total += w.at.Sub(start)
	}
	b.ReportMetric(float64(total.Nanoseconds())/float64(b.N)/1e6, "ms/first-token")
}

type firstWriter struct{ at time.Time }

func (w *firstWriter) Write(p []byte) (int, error) {
	if w.at.IsZero() {
		w.at = time.Now()
	}
	return len(p), nil
}

// BenchmarkLoopOverhead measures the loop alone, without HTTP: a stream
// function that answers at once with a tool call, then with text.
func BenchmarkLoopOverhead(b *testing.B) {
	a := New(Config{Provider: "openai", OpenAIKey: "sk-bench-key", MaxIter: 10}, newSet(echo()), noWait)
	a.init()
	n := 0
	a.stream = func(ctx context.Context, req chat.Request, text func(string)) (chat.Reply, error) {
		n++
		if n%2 == 1 {
			return chat.Reply{Calls: []chat.Call{{ID: "c", Name: "echo", Args: `{"text":"hi"}`}}, Usage: chat.Usage{Input: 10, Output: 5}}, nil
		}
		text("done")
		return chat.Reply{Text: "done", Usage: chat.Usage{Input: 10, Output: 5}}, nil
	}
	rec := []Command{{Line: "make", Start: time.Now(), Status: 2, Output: strings.Repeat("error: x\n", 200)}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%20 == 0 {
			a.msgs, a.since = nil, time.Time{}
		}
		if err := a.Ask(context.Background(), Request{Text: "go", Stdout: io.Discard, Record: rec, Environ: os.Environ()}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N)/1e6, "ms/roundtrip")
}
