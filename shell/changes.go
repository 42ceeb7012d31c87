package shell

import (
	"context"
	"sync"
	"time"
)

// changes is a mutex with a way to wait for a condition on what it
// guards: a channel closed and replaced at every change made under it.
// Unlike sync.Cond's, a wait can end with a context.
type changes struct {
	mu      sync.Mutex
	changed chan struct{} // closed and replaced at every change
	// waits counts the times awaitLocked let go of mu to wait: a test
	// sees by it that a waiter rechecked and is blocked again.
	waits int
}

// broadcast wakes everything waiting for a change; mu is held.
func (c *changes) broadcast() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// awaitLocked waits, with mu held, until done says so, rechecking at every
// change; it reports false when ctx was cancelled or timeout fired first
// (a nil timeout never does).
func (c *changes) awaitLocked(ctx context.Context, timeout <-chan time.Time, done func() bool) bool {
	for !done() {
		ch := c.changed
		c.waits++
		c.mu.Unlock()
		select {
		case <-ch:
		case <-timeout:
			c.mu.Lock()
			return false
		case <-ctx.Done():
			c.mu.Lock()
			return false
		}
		c.mu.Lock()
	}
	return true
}
