package shell

import "time"

// clock is the time the waits for background statements go by (see
// [lookupWait], [jobs.report]): the real one, or a test's, which moves
// only when the test says, so that no test depends on how busy the
// machine is.
type clock struct {
	now func() time.Time
	// after is time.After with a way to stop it.
	after func(d time.Duration) (c <-chan time.Time, stop func())
}

// realClock is the clock of the wall.
func realClock() *clock {
	return &clock{
		now: time.Now,
		after: func(d time.Duration) (<-chan time.Time, func()) {
			t := time.NewTimer(d)
			return t.C, func() { t.Stop() }
		},
	}
}

// withClock is an option for tests: the shell's waits go by c.
func withClock(c *clock) Option {
	return func(s *Shell) { s.bgs.clock = c }
}
