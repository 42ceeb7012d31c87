package tools

import (
	"regexp"
	"sync"
)

// lazyRegexp returns expr compiled on first use: the tools are made on
// the first ? line, so start-up must not pay for their patterns (issue 2's
// speed bar).
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
