package shell

import (
	"sync"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/internal/testtime"
)

// fakeClock is a [clock] that moves only when a test advances it, so that
// what waits lookupWait does so at the test's word, however busy the
// machine.
type fakeClock struct {
	mu     sync.Mutex
	t      time.Time
	timers []*fakeTimer
	made   int // timers made in all: a wait began
}

type fakeTimer struct {
	at   time.Time
	c    chan time.Time
	done bool // fired or stopped
}

func newFakeClock() *fakeClock { return &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }

func (c *fakeClock) clock() *clock { return &clock{now: c.now, after: c.after} }

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) after(d time.Duration) (<-chan time.Time, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ft := &fakeTimer{at: c.t.Add(d), c: make(chan time.Time, 1)}
	c.timers = append(c.timers, ft)
	c.made++
	return ft.c, func() {
		c.mu.Lock()
		ft.done = true
		c.mu.Unlock()
	}
}

// advance moves the clock on by d, firing the timers due.
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	for _, ft := range c.timers {
		if !ft.done && !ft.at.After(c.t) {
			ft.done = true
			ft.c <- c.t
		}
	}
}

// awaitTimers waits until n timers have been made in all: the code under
// test has begun its nth wait.
func (c *fakeClock) awaitTimers(t *testing.T, n int) {
	t.Helper()
	made := func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.made >= n
	}
	if !testtime.Until(30*time.Second, made) {
		t.Fatalf("no wait number %d began", n)
	}
}

func (c *fakeClock) timersMade() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.made
}

// newFakeTable is a table whose waits go by a fake clock.
func newFakeTable() (*bgTable, *fakeClock) {
	c := newFakeClock()
	return &bgTable{clock: c.clock()}, c
}

// returns is what f returns, failing the test when it does not within a
// generous time.
func returns[T any](t *testing.T, what string, f func() T) T {
	t.Helper()
	got := make(chan T, 1)
	go func() { got <- f() }()
	select {
	case v := <-got:
		return v
	case <-time.After(testtime.Scaled(30 * time.Second)):
		t.Fatalf("%s did not return", what)
		panic("unreachable")
	}
}
