package shell

import "golang.org/x/sys/unix"

// The terminal ioctls Tab turns signal keys on with while a completion runs.
const (
	ioctlGetTermios = unix.TCGETS
	ioctlSetTermios = unix.TCSETS
)
