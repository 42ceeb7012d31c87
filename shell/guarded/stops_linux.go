package guarded

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// cldStopped is waitid's si_code for a child that stopped.
const cldStopped = 5

// watchStops watches the program pid, leader of process group pgid, for
// the stop the kernel makes when a program in the background reads the
// terminal or changes its modes (SIGTTIN, SIGTTOU: a password prompt
// turning echo off, `read`, an editor). The kernel sends those to the
// whole group, so a program further down (a script's sudo) stops pid too. Such a program would wait for a
// timeout with nobody told; instead it is given the terminal as a
// foreground job is, when ctx carries a TerminalFunc, and stopped with a
// line on stderr when not. wait returns once the watch is over, the
// terminal back with qsh; call it after the program was waited for.
func watchStops(ctx context.Context, pid, pgid int, args []string, stderr io.Writer) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		hand := terminalOf(ctx)
		for {
			sig, ok := nextStop(pid)
			if !ok {
				return
			}
			if sig != syscall.SIGTTIN && sig != syscall.SIGTTOU {
				continue // kill -STOP: left to whoever sent it
			}
			if hand == nil {
				fmt.Fprintf(stderr, "qsh: %s wants the terminal, which it cannot have here (no terminal, or a background run); stopped\n", args[0])
				syscall.Kill(-pgid, syscall.SIGTERM)
				syscall.Kill(-pgid, syscall.SIGCONT)
				return
			}
			if err := foreground(pid, pgid, programText(args), hand); err != nil {
				fmt.Fprintf(stderr, "qsh: %s wants the terminal, which could not be handed over (%v); stopped\n", args[0], err)
				syscall.Kill(-pgid, syscall.SIGTERM)
				syscall.Kill(-pgid, syscall.SIGCONT)
			}
			return
		}
	}()
	return func() { <-done }
}

// nextStop waits until pid stops, and consumes the report; ok is false
// once it has exited (the report is left for its Wait) or is gone.
func nextStop(pid int) (syscall.Signal, bool) {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WSTOPPED|unix.WEXITED|unix.WNOWAIT, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil || info.Code != cldStopped {
			return 0, false
		}
		// Stopped, so it cannot exit before this takes the report.
		var ws syscall.WaitStatus
		wpid, err := syscall.Wait4(pid, &ws, syscall.WUNTRACED|syscall.WNOHANG, nil)
		if err != nil || wpid != pid || !ws.Stopped() {
			return 0, false
		}
		return ws.StopSignal(), true
	}
}

// foreground gives the controlling terminal to the stopped group pgid,
// continues it, and takes the terminal back, with its modes as they were,
// once pid exits, or stops again (Ctrl-Z, which ends it: the assistant's
// commands cannot be suspended).
func foreground(pid, pgid int, program string, hand TerminalFunc) error {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer tty.Close()
	fd := int(tty.Fd())
	shell, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP)
	if err != nil {
		return err
	}
	modes, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return err
	}
	back := hand(program)
	if err := setForeground(fd, pgid); err != nil {
		back()
		return err
	}
	syscall.Kill(-pgid, syscall.SIGCONT)
	for {
		sig, ok := nextStop(pid)
		if !ok {
			break
		}
		if sig == syscall.SIGTTIN || sig == syscall.SIGTTOU {
			syscall.Kill(-pgid, syscall.SIGCONT) // the terminal is its own
			continue
		}
		syscall.Kill(-pgid, syscall.SIGTERM)
		syscall.Kill(-pgid, syscall.SIGCONT)
	}
	setForeground(fd, shell)
	unix.IoctlSetTermios(fd, unix.TCSETSW, modes)
	back()
	return nil
}

// setForeground makes pgid the terminal's foreground process group. qsh
// is in the background when it takes the terminal back, where the kernel
// would answer with SIGTTOU: the signal is blocked on this thread
// meanwhile, as the evaluator does for its jobs.
func setForeground(fd, pgid int) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var set, old unix.Sigset_t
	bits := uint(unsafe.Sizeof(set.Val[0])) * 8
	n := uint(unix.SIGTTOU - 1)
	set.Val[n/bits] |= 1 << (n % bits)
	if err := unix.PthreadSigmask(unix.SIG_BLOCK, &set, &old); err != nil {
		return err
	}
	err := unix.IoctlSetPointerInt(fd, unix.TIOCSPGRP, pgid)
	unix.PthreadSigmask(unix.SIG_SETMASK, &old, nil)
	return err
}
