package eval

import (
	"os"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// rtBounds are glibc's SIGRTMIN and SIGRTMAX: the kernel's 32 to 64, less
// the two the C library keeps.
func rtBounds() (int, int) { return 34, 64 }

// stdPath is the C library's confstr(_CS_PATH), which command -p searches.
const stdPath = "/bin:/usr/bin"

// dieBySignal ends the process by sig, as a process without a handler for
// it ends: the default disposition put back (Go keeps its own handler for
// every signal), then the signal sent again.
func dieBySignal(sig syscall.Signal) {
	var act [4]uint64 // SIG_DFL, no flags, an empty mask
	unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act)), 0, 8, 0, 0)
	var set unix.Sigset_t
	set.Val[(int(sig)-1)/64] |= 1 << ((uint(sig) - 1) % 64)
	unix.PthreadSigmask(unix.SIG_UNBLOCK, &set, nil)
	unix.Kill(os.Getpid(), sig)
	time.Sleep(time.Second)
	os.Exit(128 + int(sig))
}
