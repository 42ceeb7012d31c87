package eval

import (
	"os"
	"syscall"
)

// rtBounds: macOS has no real-time signals.
func rtBounds() (int, int) { return 0, 0 }

// stdPath is the C library's confstr(_CS_PATH), which command -p searches.
const stdPath = "/usr/bin:/bin:/usr/sbin:/sbin"

// dieBySignal ends the process with the status a signal would give it.
func dieBySignal(sig syscall.Signal) { os.Exit(128 + int(sig)) }
