package capture

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// getTermios reads a terminal's modes (tests compare them).
const getTermios = unix.TCGETS

func wakePipe() ([]int, error) {
	p := make([]int, 2)
	if err := unix.Pipe2(p, unix.O_CLOEXEC); err != nil {
		return nil, err
	}
	return p, nil
}

// reopen opens the terminal out again as a file of its own, in
// non-blocking mode: Go waits for a non-blocking file in its poller, much
// cheaper than in a blocking write, the common case for a relay. The
// mode belongs to the new open file alone, not to the one the user's other
// processes share.
func reopen(out *os.File) (*os.File, error) {
	fd, err := fdOf(out)
	if err != nil {
		return nil, err
	}
	nfd, err := unix.Open("/proc/self/fd/"+strconv.Itoa(fd), unix.O_WRONLY|unix.O_NOCTTY|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(nfd), out.Name()), nil
}
