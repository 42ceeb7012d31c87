package eval

import (
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// handTerminal makes pgid the terminal's foreground process group. The
// shell may be in the background when it takes the terminal back, where
// the kernel would answer with SIGTTOU: the signal is blocked on this
// thread meanwhile.
func handTerminal(tty, pgid int) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var set, old unix.Sigset_t
	bits := uint(unsafe.Sizeof(set.Val[0])) * 8
	n := uint(unix.SIGTTOU - 1)
	set.Val[n/bits] |= 1 << (n % bits)
	if err := unix.PthreadSigmask(unix.SIG_BLOCK, &set, &old); err != nil {
		return err
	}
	err := unix.IoctlSetPointerInt(tty, unix.TIOCSPGRP, pgid)
	unix.PthreadSigmask(unix.SIG_SETMASK, &old, nil)
	return err
}
