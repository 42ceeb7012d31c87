package eval

import "golang.org/x/sys/unix"

// The terminal ioctls read uses to change and restore the modes.
const (
	ioctlGetTermios = unix.TIOCGETA
	ioctlSetTermios = unix.TIOCSETA
)
