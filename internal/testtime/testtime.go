// Package testtime is the one knob for how long qsh's tests wait: every
// safety-net timeout in the tests is [Scaled], so that a slow or busy
// machine (a shared CI runner, the race detector, a CPU hog beside the
// suite) gets more time without a test changing. QSH_TEST_TIMEOUT_SCALE=3
// triples every limit.
//
// Tests wait for events (a prompt, a marker, a file, a process); a timeout
// is only how long to go on waiting before giving up, so the defaults are
// generous and scaling them never makes a passing test slower.
package testtime

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

// Env is the environment variable that scales the tests' timeouts.
const Env = "QSH_TEST_TIMEOUT_SCALE"

// Scale is the factor in Env: 1 when unset. A value that is not a
// positive number panics, naming the variable: a typo in it would
// otherwise quietly change every test's limits.
func Scale() float64 {
	s := os.Getenv(Env)
	if s == "" {
		return 1
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(f > 0) || f > 1000 {
		panic(fmt.Sprintf("%s=%q: want a positive number such as 2 or 0.5", Env, s))
	}
	return f
}

// Scaled is d times [Scale].
func Scaled(d time.Duration) time.Duration {
	return time.Duration(float64(d) * Scale())
}

// poll is how often [Until] looks again: often enough that a test does
// not linger, rarely enough not to load the machine.
const poll = 10 * time.Millisecond

// Until calls ok until it reports true, for at most within (scaled), and
// reports whether it did. It is for events nothing announces (a process
// appearing in /proc, a file written by another program); the caller says
// what it waited for when it fails.
func Until(within time.Duration, ok func() bool) bool {
	deadline := time.Now().Add(Scaled(within))
	for !ok() {
		if time.Now().After(deadline) {
			return ok()
		}
		time.Sleep(poll)
	}
	return true
}
