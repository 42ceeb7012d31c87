package shell

import (
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// timesBuiltin is bash's times: the user and system time of the shell,
// then of the programs it waited for.
func timesBuiltin(b builtinIO) int {
	var self, kids unix.Rusage
	unix.Getrusage(unix.RUSAGE_SELF, &self)
	unix.Getrusage(unix.RUSAGE_CHILDREN, &kids)
	fmt.Fprintf(b.out, "%s %s\n%s %s\n", minSec(self.Utime), minSec(self.Stime), minSec(kids.Utime), minSec(kids.Stime))
	return 0
}

// minSec is a time as bash's times shows it: 0m0.012s.
func minSec(tv unix.Timeval) string {
	d := time.Duration(tv.Nano())
	m := int(d / time.Minute)
	d -= time.Duration(m) * time.Minute
	return fmt.Sprintf("%dm%d.%03ds", m, int(d/time.Second), int(d%time.Second/time.Millisecond))
}
