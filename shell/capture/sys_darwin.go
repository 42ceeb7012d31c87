package capture

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// getTermios reads a terminal's modes (tests compare them).
const getTermios = unix.TIOCGETA

// wakePipe sets close-on-exec after the fact: darwin has no flag for it
// at creation.
func wakePipe() ([]int, error) {
	p := make([]int, 2)
	if err := unix.Pipe(p); err != nil {
		return nil, err
	}
	syscall.CloseOnExec(p[0])
	syscall.CloseOnExec(p[1])
	return p, nil
}

// reopen is not possible on darwin: /dev/fd/N duplicates the descriptor,
// so non-blocking mode would reach the user's other processes. The relay
// writes to out itself, blocking.
func reopen(*os.File) (*os.File, error) {
	return nil, errors.ErrUnsupported
}
