package mcp

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/internal/testtime"
)

// alive reports whether pid is a process that has not exited (a zombie
// waiting for a parent that does not reap counts as exited).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}

func TestChildHoldsStdout(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		needs.Missing(t, "needs /proc")
	}
	m := newManager(t, Servers(stdio(t, "a", "forks")))
	list, warnings := m.Tools(context.Background())
	if len(warnings) > 0 {
		t.Fatal(warnings)
	}
	pid, err := strconv.Atoi(call(t, find(t, list, "mcp_a_child"), `{}`).Output)
	if err != nil || !alive(pid) {
		t.Fatalf("child pid %d: %v", pid, err)
	}

	// The server dies; its child keeps stdout open, yet the call ends.
	start := time.Now()
	res := call(t, find(t, list, "mcp_a_crash"), `{}`)
	if d := time.Since(start); d > testtime.Scaled(20*time.Second) || !strings.Contains(res.Error, "stopped during the call") {
		t.Errorf("crash after %v = %+v", d, res)
	}
	// The next turn starts a new one; Close stops it with its child.
	list, _ = m.Tools(context.Background())
	pid2, _ := strconv.Atoi(call(t, find(t, list, "mcp_a_child"), `{}`).Output)
	m.Close()
	waitFor(t, func() bool { return !alive(pid2) })
	// The first child was killed with its group when the crash was noticed.
	waitFor(t, func() bool { return !alive(pid) })
}

func TestStubbornServer(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		needs.Missing(t, "needs /proc")
	}
	m := New(Confirm(nil), Servers(stdio(t, "a", "stubborn")), StopTimeout(100*time.Millisecond))
	list, warnings := m.Tools(context.Background())
	if len(warnings) > 0 {
		t.Fatal(warnings)
	}
	pid, err := strconv.Atoi(call(t, find(t, list, "mcp_a_child"), `{}`).Output)
	if err != nil || !alive(pid) {
		t.Fatalf("server pid %d: %v", pid, err)
	}
	start := time.Now()
	m.Close()
	if d := time.Since(start); d > testtime.Scaled(10*time.Second) {
		t.Errorf("Close took %v with a 100ms stop timeout", d)
	}
	waitFor(t, func() bool { return !alive(pid) })
}
