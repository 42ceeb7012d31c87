// Package lazy holds values built on first use. The classifier's and the
// secret package's tables are declared as composite literals of these
// types, so they need no init code (the linker lays them out): a shell that
// never asks the assistant must not pay for them at start-up (issue 2's
// speed bar), where a sync.OnceValue per table would still allocate at init.
package lazy

import (
	"regexp"
	"sync"
)

// Value is what Build returns, built on the first Get.
type Value[T any] struct {
	once  sync.Once
	Build func() T
	v     T
}

// Get builds the value once and returns it.
func (l *Value[T]) Get() T {
	l.once.Do(func() { l.v = l.Build() })
	return l.v
}

// Regexp is Expr compiled on the first Get.
type Regexp struct {
	once sync.Once
	Expr string
	re   *regexp.Regexp
}

// Get compiles Expr once and returns it.
func (l *Regexp) Get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.Expr) })
	return l.re
}
