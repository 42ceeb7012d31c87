package eval

import "golang.org/x/sys/unix"

// handTerminal makes pgid the terminal's foreground process group. macOS
// has no per-thread signal mask call in x/sys: SIGTTOU is ignored by the
// interactive shell instead.
func handTerminal(tty, pgid int) error {
	return unix.IoctlSetPointerInt(tty, unix.TIOCSPGRP, pgid)
}
