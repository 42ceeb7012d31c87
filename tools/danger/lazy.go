package danger

import (
	"regexp"
	"sync"
)

// The classifier's tables and patterns are built on first use, not at
// package init: a shell that never asks the assistant must not pay for
// them at start-up (issue 2's speed bar). Declared as composite literals
// of the types below, they need no init code at all — the linker lays
// them out — where a sync.OnceValue per table would still allocate at init.

// lazy is a value built by build on the first get.
type lazy[T any] struct {
	once  sync.Once
	build func() T
	v     T
}

func (l *lazy[T]) get() T {
	l.once.Do(func() { l.v = l.build() })
	return l.v
}

// lazyRegexp is expr compiled on the first get.
type lazyRegexp struct {
	once sync.Once
	expr string
	re   *regexp.Regexp
}

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}
