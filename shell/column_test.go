package shell

import (
	"bytes"
	"io"
	"strings"
	"sync/atomic"
	"testing"
)

func TestStartOfLine(t *testing.T) {
	got := startOfLine(5)
	if want := "\x1b[7m%\x1b[27m    \r\x1b[K"; got != want {
		t.Fatalf("startOfLine(5) = %q, want %q", got, want)
	}
}

// TestAnswering: with the cursor put in column 1, readline's cursor query
// is answered from the input once, not sent; otherwise, or while a read
// waits for the terminal, it goes to the terminal.
func TestAnswering(t *testing.T) {
	var screen bytes.Buffer
	in := &lineInput{f: strings.NewReader("")}
	var column1 atomic.Bool
	w := answering{Writer: &screen, in: in, column1: &column1}

	io.WriteString(w, cursorQuery) // column not known: ask
	column1.Store(true)
	io.WriteString(w, " \b")
	io.WriteString(w, cursorQuery) // answered here
	io.WriteString(w, cursorQuery) // once only
	if got, want := screen.String(), cursorQuery+" \b"+cursorQuery; got != want {
		t.Errorf("sent to the terminal %q, want %q", got, want)
	}
	reply, _ := io.ReadAll(in)
	if string(reply) != column1Reply {
		t.Errorf("input %q, want %q", reply, column1Reply)
	}

	screen.Reset()
	column1.Store(true)
	in.mu.Lock()
	in.reading = true // a Read waits for a key: the answer would come after it
	in.mu.Unlock()
	io.WriteString(w, cursorQuery)
	if screen.String() != cursorQuery {
		t.Errorf("with a read under way the query should go to the terminal; sent %q", screen.String())
	}
}
