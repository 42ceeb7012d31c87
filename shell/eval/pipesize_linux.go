package eval

import (
	"os"

	"golang.org/x/sys/unix"
)

// pipeCapacity is how much a pipe holds before a write blocks.
func pipeCapacity(w *os.File) int {
	n, err := unix.FcntlInt(w.Fd(), unix.F_GETPIPE_SZ, 0)
	if err != nil {
		return 4096
	}
	return n
}
