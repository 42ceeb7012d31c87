package confine

import (
	"syscall"
	"testing"
)

// TestCloseHeld checks that closing the descriptors a ruleset held closes
// them all, and no other between them.
func TestCloseHeld(t *testing.T) {
	open := func() int {
		fd, err := syscall.Open("/", oPath|syscall.O_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		return fd
	}
	var fds []int
	for range 8 {
		fds = append(fds, open())
	}
	other := fds[4] // not the ruleset's: it stays open
	held := append(append([]int{}, fds[:4]...), fds[5:]...)
	held[0], held[1] = held[1], held[0] // order does not matter
	closeHeld(held)
	var st syscall.Stat_t
	for _, fd := range held {
		if syscall.Fstat(fd, &st) != syscall.EBADF {
			t.Errorf("%d is still open", fd)
		}
	}
	if err := syscall.Fstat(other, &st); err != nil {
		t.Errorf("another descriptor was closed: %v", err)
	}
	syscall.Close(other)
}
