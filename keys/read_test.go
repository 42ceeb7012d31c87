package keys

import (
	"context"
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/term"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/internal/testtime"
)

// openPTY opens a pseudo-terminal, its slave raw if asked, closed when
// the test ends.
func openPTY(t *testing.T, raw bool) (ptmx, tty *os.File) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		needs.Missing(t, "no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ptmx.Close(); tty.Close() })
	if raw {
		if _, err := term.MakeRaw(int(tty.Fd())); err != nil {
			t.Fatal(err)
		}
	}
	return ptmx, tty
}

func TestRead(t *testing.T) {
	// Raw from the start: in cooked mode the line discipline would take
	// the Ctrl-C written below as a signal before Read sees it.
	ptmx, tty := openPTY(t, true)
	ctx := context.Background()

	ptmx.Write([]byte("y"))
	if r, err := Read(ctx, tty); r != 'y' || err != nil {
		t.Fatalf("Read = %q, %v", r, err)
	}
	ptmx.Write([]byte("é"))
	if r, err := Read(ctx, tty); r != 'é' || err != nil {
		t.Fatalf("Read = %q, %v", r, err)
	}
	ptmx.Write([]byte{3})
	if _, err := Read(ctx, tty); !errors.Is(err, context.Canceled) {
		t.Fatalf("Ctrl-C: %v", err)
	}
	ctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := Read(ctx, tty); !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > testtime.Scaled(10*time.Second) {
		t.Fatalf("cancelled read: %v after %v", err, time.Since(start))
	}
	// Nothing was left reading: the next key goes to the next reader.
	ptmx.Write([]byte("n"))
	if r, err := Read(context.Background(), tty); r != 'n' || err != nil {
		t.Fatalf("Read after cancel = %q, %v", r, err)
	}
}

// TestReadEarlyCtrlD checks that a Ctrl-D typed while the terminal was
// still cooked, which the line discipline turns into an end of input,
// reads as io.EOF, not as a key.
func TestReadEarlyCtrlD(t *testing.T) {
	ptmx, tty := openPTY(t, false)
	ptmx.Write([]byte{4})
	// The line discipline takes input on a worker: wait until it has
	// made the end of input readable, as it has by the time a person's
	// key press meets the raw mode.
	waitReadable(t, tty)
	if r, err := Read(context.Background(), tty); !errors.Is(err, io.EOF) {
		t.Fatalf("Read = %q, %v; want io.EOF", r, err)
	}
}

// TestReadSequence checks that a key sending an escape sequence (an
// arrow, Alt with a letter) reads as one Unknown key, none of its bytes
// left for the next read, where "[A" would be two keys (A: always); and
// that Esc alone is still Esc.
func TestReadSequence(t *testing.T) {
	ptmx, tty := openPTY(t, true)
	ctx := context.Background()
	for _, seq := range []string{"\x1b[A", "\x1bOP", "\x1by", "\x1b[1;5C"} {
		ptmx.Write([]byte(seq))
		if r, err := Read(ctx, tty); r != Unknown || err != nil {
			t.Errorf("%q: Read = %q, %v; want Unknown", seq, r, err)
		}
		ptmx.Write([]byte("n"))
		if r, err := Read(ctx, tty); r != 'n' || err != nil {
			t.Fatalf("after %q: Read = %q, %v; want 'n'", seq, r, err)
		}
	}
	ptmx.Write([]byte{0x1b})
	if r, err := Read(ctx, tty); r != 0x1b || err != nil {
		t.Errorf("Esc: Read = %q, %v", r, err)
	}
}

// TestDiscard checks that keys typed before a question was shown are
// dropped, a cooked line without its Enter or keys typed raw, and the
// next one is read.
func TestDiscard(t *testing.T) {
	for _, raw := range []bool{false, true} {
		ptmx, tty := openPTY(t, raw)
		ptmx.Write([]byte("yy"))
		// The line discipline takes input on a worker: the keys are
		// readable raw; cooked, they are not before an Enter, but the
		// echo says the line discipline holds them.
		if raw {
			waitReadable(t, tty)
		}
		var echo []byte
		for !raw && len(echo) < 2 {
			waitReadable(t, ptmx)
			b := make([]byte, 2-len(echo))
			n, err := ptmx.Read(b)
			if err != nil {
				t.Fatal(err)
			}
			echo = append(echo, b[:n]...)
		}
		Discard(tty)
		ptmx.Write([]byte("n"))
		if r, err := Read(context.Background(), tty); r != 'n' || err != nil {
			t.Fatalf("raw %v: Read after Discard = %q, %v; want 'n'", raw, r, err)
		}
	}
}

// waitReadable waits until f has input.
func waitReadable(t *testing.T, f *os.File) {
	t.Helper()
	if !ready(int(f.Fd()), testtime.Scaled(10*time.Second)) {
		t.Fatalf("%s never became readable", f.Name())
	}
}
