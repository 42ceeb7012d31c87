package shell

import "syscall"

// rtBounds: macOS has no real-time signals.
func rtBounds() (int, int) { return 0, 0 }

// sigMarker is SIGUSR2, for want of a signal scripts never trap.
const sigMarker = syscall.SIGUSR2
