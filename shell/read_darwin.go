package shell

import "golang.org/x/sys/unix"

// The terminal ioctls read -s uses to turn echo off and on.
const (
	ioctlGetTermios = unix.TIOCGETA
	ioctlSetTermios = unix.TIOCSETA
)
