package danger

import (
	"regexp"
	"sync"
)

// The classifier's tables and patterns are built on first use, not at
// package init: a shell that never asks the assistant must not pay for
// them at start-up (issue 2's speed bar). Each is a sync.OnceValue, so
// every caller sees the same table, built once.

// lazyRegexp returns expr compiled on first use.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
