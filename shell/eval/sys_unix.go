package eval

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// rlimit is a resource limit ulimit set: the programs the shell starts get
// it.
type rlimit struct {
	resource int
	lim      unix.Rlimit
}

// applyLimits sets limits for the whole process and returns what puts the
// old ones back. A lower hard limit is applied as a soft limit only: the
// process is the whole shell's, subshells included, and without
// CAP_SYS_RESOURCE a lowered hard limit could never be raised again. A
// higher one (ulimit checked the privilege) is set and lowered back.
func applyLimits(limits []rlimit) func() {
	if len(limits) == 0 {
		return func() {}
	}
	old := make([]rlimit, 0, len(limits))
	for _, l := range limits {
		var cur unix.Rlimit
		if unix.Getrlimit(l.resource, &cur) != nil {
			continue
		}
		old = append(old, rlimit{l.resource, cur})
		lim := l.lim
		lim.Max = max(lim.Max, cur.Max)
		unix.Setrlimit(l.resource, &lim)
	}
	return func() {
		for i := len(old) - 1; i >= 0; i-- {
			unix.Setrlimit(old[i].resource, &old[i].lim)
		}
	}
}

// currentUmask reads the process's umask, which can only be read by
// setting it.
func currentUmask() os.FileMode {
	m := syscall.Umask(0o22)
	syscall.Umask(m)
	return os.FileMode(m)
}

func dup2(from, to int) error { return unix.Dup2(from, to) }

func clearCloexec(fd int) {
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
	if err == nil {
		unix.FcntlInt(uintptr(fd), unix.F_SETFD, flags&^unix.FD_CLOEXEC)
	}
}

// saveFd keeps a copy of descriptor fd (or that it is closed) and returns
// what puts it back as it was, flags included.
func saveFd(fd int) func() {
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
	if err != nil {
		return func() { unix.Close(fd) }
	}
	saved, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 10)
	if err != nil {
		return func() {}
	}
	return func() {
		unix.Dup2(saved, fd)
		unix.FcntlInt(uintptr(fd), unix.F_SETFD, flags)
		unix.Close(saved)
	}
}
