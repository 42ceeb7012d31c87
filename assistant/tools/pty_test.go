//go:build linux || darwin

package tools

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/term"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/internal/testtime"
)

// ttyKey reads one key from a terminal in raw mode, the way the shell's
// ReadKey does: Ctrl-C arrives as the byte 0x03, not as a signal.
// Each time the terminal is raw, it says so on raw, if not nil.
func ttyKey(tty *os.File, raw chan<- struct{}) func(context.Context) (rune, error) {
	return func(ctx context.Context) (rune, error) {
		old, err := term.MakeRaw(int(tty.Fd()))
		if err != nil {
			return 0, err
		}
		defer term.Restore(int(tty.Fd()), old)
		if raw != nil {
			raw <- struct{}{}
		}
		got := make(chan rune, 1)
		go func() {
			b := make([]byte, 1)
			if n, _ := tty.Read(b); n == 1 {
				got <- rune(b[0])
			}
		}()
		select {
		case k := <-got:
			return k, nil
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}

// TestConfirmThroughPTY answers y, n, a and Ctrl-C on a real terminal.
func TestConfirmThroughPTY(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		needs.Missing(t, "no pty: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	screen := make(chan string, 100)
	go func() {
		r := bufio.NewReader(ptmx)
		var line strings.Builder
		for {
			b, err := r.ReadByte()
			if err != nil {
				close(screen)
				return
			}
			line.WriteByte(b)
			if b == '\n' || strings.HasSuffix(line.String(), "[y/n/a/A] ") {
				screen <- line.String()
				line.Reset()
			}
		}
	}()
	waitPrompt := func(want string) {
		t.Helper()
		timeout := time.After(testtime.Scaled(30 * time.Second))
		for {
			select {
			case s := <-screen:
				if strings.Contains(stripANSI(s), want) {
					return
				}
			case <-timeout:
				t.Fatalf("no prompt %q on the terminal", want)
			}
		}
	}

	dir := t.TempDir()
	r, _ := testRegistry(t, DefaultConfig())
	var ran []string
	raw := make(chan struct{}, 1)
	env := Env{Dir: dir, Out: tty, Terminal: true, ReadKey: ttyKey(tty, raw), Run: recordRun(&ran)}
	type step struct {
		cmd, key string
		ran      int
		canceled bool
	}
	for _, s := range []step{
		{"go build ./...", "y", 1, false},
		{"go build ./...", "n", 1, false},
		{"go test ./...", "a", 2, false},
		{"go test -run X ./...", "", 3, false}, // covered by the a
		{"go run .", "\x03", 3, true},
	} {
		done := make(chan Result, 1)
		go func() { done <- execCall(r, env, s.cmd, 0) }()
		if s.key != "" {
			waitPrompt("⚠ dev  " + s.cmd)
			// Typed once the key is read in raw mode: before, the
			// terminal's own line discipline took Ctrl-C for a signal
			// and the key was lost (2 runs in 10).
			select {
			case <-raw:
			case <-time.After(testtime.Scaled(30 * time.Second)):
				t.Fatalf("%s: no key was read", s.cmd)
			}
			ptmx.WriteString(s.key)
		}
		var res Result
		select {
		case res = <-done:
		case <-time.After(testtime.Scaled(30 * time.Second)):
			t.Fatalf("%s: no result", s.cmd)
		}
		if len(ran) != s.ran || res.Canceled != s.canceled {
			t.Errorf("%s, key %q: ran %q, result %+v", s.cmd, s.key, ran, res)
		}
	}
}
