package secret

import (
	"regexp"
	"sync"
)

// lazy is a value built on the first get; declared as composite literals,
// the tables need no init code (the shell links this package and must not
// pay for it at start-up).
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
