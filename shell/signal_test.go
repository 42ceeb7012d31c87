package shell

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/internal/testtime"
)

func catchingNow(s *Shell) bool {
	s.sigMu.Lock()
	defer s.sigMu.Unlock()
	return s.catching != nil
}

// A non-interactive shell catches Ctrl-C only after catchDelay, or as soon
// as it starts a program, and never again once its program is over.
func TestCatchSignalsSoon(t *testing.T) {
	var out bytes.Buffer
	s, err := New(Stdio(nil, &out, &out), Environ([]string{"PATH=" + os.Getenv("PATH")}))
	if err != nil {
		t.Fatal(err)
	}
	stop := s.catchSignalsSoon(time.Hour)
	if catchingNow(s) {
		t.Fatal("catching before the delay")
	}
	f, _ := s.parse("true; x=1", "test")
	if st := s.runFile(context.Background(), f); st != 0 || catchingNow(s) {
		t.Fatalf("builtins only: status %d, catching %v", st, catchingNow(s))
	}
	stop()

	s, _ = New(Stdio(nil, &out, &out), Environ([]string{"PATH=" + os.Getenv("PATH")}))
	stop = s.catchSignalsSoon(time.Millisecond)
	if !testtime.Until(30*time.Second, func() bool { return catchingNow(s) }) {
		t.Fatal("not catching after the delay")
	}
	stop()
	if catchingNow(s) {
		t.Fatal("catching after stop")
	}

	// Stopped before the timer fires: it must not begin catching.
	s, _ = New(Stdio(nil, &out, &out), Environ([]string{"PATH=" + os.Getenv("PATH")}))
	stop = s.catchSignalsSoon(20 * time.Millisecond)
	stop()
	time.Sleep(60 * time.Millisecond)
	if catchingNow(s) {
		t.Fatal("a late timer began catching after stop")
	}

	// A program in the foreground is covered from its start.
	s, _ = New(Stdio(nil, &out, &out), Environ([]string{"PATH=" + os.Getenv("PATH")}))
	stop = s.catchSignalsSoon(time.Hour)
	defer stop()
	f, _ = s.parse("env true", "test")
	fctx, done := s.foreground(context.Background())
	defer done()
	if st := s.runFile(fctx, f); st != 0 || !catchingNow(s) {
		t.Fatalf("after a program: status %d, catching %v", st, catchingNow(s))
	}
}
