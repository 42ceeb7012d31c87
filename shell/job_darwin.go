package shell

import (
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// handTerminal makes pgid the terminal's foreground process group.
// SIGTTOU, which the kernel sends a background group that does so, is
// ignored meanwhile (darwin has no per-thread signal mask in x/sys/unix),
// then caught again on sigs. The job table's lock is held, so no two
// calls overlap.
func handTerminal(tty, pgid int, sigs chan<- os.Signal) error {
	signal.Ignore(syscall.SIGTTOU)
	err := unix.IoctlSetPointerInt(tty, unix.TIOCSPGRP, pgid)
	if sigs != nil {
		signal.Notify(sigs, syscall.SIGTTOU)
	} else {
		signal.Reset(syscall.SIGTTOU)
	}
	return err
}
