package tools

import (
	"regexp"
	"sync"
)

// The tools are made on the first ? line, so start-up must not pay for
// their patterns (issue 2's speed bar). Declared as composite literals of
// these types, they need no code at package init.

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
