//go:build linux || solaris

package keys

import "golang.org/x/sys/unix"

// flushInput is tcflush(fd, TCIFLUSH): it drops the input received but
// not read, also a cooked line the line discipline holds.
func flushInput(fd int) error {
	return unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIFLUSH)
}

const (
	getTermios = unix.TCGETS
	setTermios = unix.TCSETS
)
