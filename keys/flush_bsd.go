//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package keys

import "golang.org/x/sys/unix"

// fread is FREAD of <sys/fcntl.h>, which x/sys/unix does not export:
// TIOCFLUSH's flag for the input queue.
const fread = 1

// flushInput is tcflush(fd, TCIFLUSH), as the BSDs' libc makes it: it
// drops the input received but not read, also a cooked line the line
// discipline holds.
func flushInput(fd int) error {
	return unix.IoctlSetPointerInt(fd, unix.TIOCFLUSH, fread)
}

const (
	getTermios = unix.TIOCGETA
	setTermios = unix.TIOCSETA
)
