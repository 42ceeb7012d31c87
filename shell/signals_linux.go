package shell

import "syscall"

// rtBounds are glibc's SIGRTMIN and SIGRTMAX: the kernel's 32 to 64, less
// the two the C library keeps.
func rtBounds() (int, int) { return 34, 64 }

// sigMarker is SIGRTMAX-1: no script traps it (SIGUSR2, used before, ran
// a script's USR2 trap after every program).
const sigMarker = syscall.Signal(63)
