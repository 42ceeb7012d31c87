package capture

import (
	"os"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// openPty opens a pseudo-terminal for a test to play the user's terminal
// with; its master has read deadlines and unblocks on Close: pty.Open
// leaves it in blocking mode.
func openPty() (master, slave *os.File, err error) {
	m, slave, err := pty.Open()
	if err != nil {
		return nil, nil, err
	}
	defer m.Close()
	fd, err := unix.FcntlInt(m.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err == nil {
		err = unix.SetNonblock(fd, true)
	}
	if err != nil {
		slave.Close()
		return nil, nil, err
	}
	return os.NewFile(uintptr(fd), m.Name()), slave, nil
}
