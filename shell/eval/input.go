package eval

import (
	"context"
	"errors"
	"io"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// input is what read and mapfile read from. What a command does not use
// stays for the next one, as in bash: a pipe or a terminal is read a byte
// at a time; a regular file, or a reader of the shell's own that can seek
// (a here-document), is read ahead and given back what was not used.
// Waiting for a pipe or a terminal ends at a deadline or when the
// runner's context ends, and runs the traps of signals that come.
type input struct {
	r        *Runner
	ctx      context.Context
	src      io.Reader
	f        *os.File // src, when it is a file: it can be polled
	seeker   io.Seeker
	deadline time.Time
	// greedy reads ahead from anything, for a reader that takes all of
	// the input anyway (mapfile without a count).
	greedy bool
	buf    []byte
	pos    int
}

// errTimeout is a read that reached its deadline; errInterrupted one a
// Ctrl-C ended ([Runner.Interrupt]).
var (
	errTimeout     = errors.New("timed out")
	errInterrupted = errors.New("interrupted")
)

// interruptSlice is how long an interactive shell's wait goes without
// looking for a Ctrl-C, which sets a flag and wakes nothing.
const interruptSlice = 100 * time.Millisecond

// newInput reads src; fd is what the shell holds it as.
func (r *Runner) newInput(fd *file) *input {
	in := &input{r: r, ctx: r.ctx, src: fd.r}
	if in.src == nil && fd.f != nil {
		in.src = fd.f // a descriptor opened for writing only: read says why it fails
	}
	if f, ok := in.src.(*os.File); ok {
		in.f = f
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			in.seeker = f
		}
	} else if s, ok := in.src.(io.Seeker); ok {
		in.seeker = s
	}
	return in
}

// tty reports whether the input is a terminal.
func (in *input) tty() bool {
	if in.f == nil {
		return false
	}
	tty := false
	if rc, err := in.f.SyscallConn(); err == nil {
		rc.Control(func(fd uintptr) {
			_, err := unix.IoctlGetTermios(int(fd), ioctlGetTermios)
			tty = err == nil
		})
	}
	return tty
}

// byte reads one byte.
func (in *input) byte() (byte, error) {
	if in.pos < len(in.buf) {
		in.pos++
		return in.buf[in.pos-1], nil
	}
	if in.f != nil && in.seeker == nil && in.interruptible() {
		// A regular file never makes one wait.
		if err := in.wait(); err != nil {
			return 0, err
		}
	}
	size := 1
	switch {
	case in.greedy:
		size = 64 << 10
	case in.seeker != nil:
		size = 512
	}
	if cap(in.buf) < size {
		in.buf = make([]byte, size)
	}
	for {
		n, err := in.src.Read(in.buf[:size])
		in.buf, in.pos = in.buf[:n], 0
		if n > 0 {
			in.pos = 1
			return in.buf[0], nil
		}
		if err == nil {
			continue
		}
		return 0, err
	}
}

// unread gives back the byte just read.
func (in *input) unread() { in.pos-- }

// finish gives back what was read ahead and not used.
func (in *input) finish() {
	if in.seeker == nil {
		return // what a greedy reader read ahead is its own
	}
	if in.pos < len(in.buf) {
		in.seeker.Seek(int64(in.pos-len(in.buf)), io.SeekCurrent)
	}
	in.buf, in.pos = in.buf[:0], 0
}

// ready reports, without waiting, whether reading would not block (there
// is input, or its end): read -t 0.
func (in *input) ready() bool {
	if in.pos < len(in.buf) || in.f == nil || in.seeker != nil {
		return true
	}
	ok := true
	if rc, err := in.f.SyscallConn(); err == nil {
		rc.Control(func(fd uintptr) {
			n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 0)
			ok = err != nil || n > 0
		})
	}
	return ok
}

// interruptible reports whether a wait for input may have to end before
// the input comes: at a deadline, when the context ends, or for a trap.
// Otherwise the read itself waits, which costs no system call more.
func (in *input) interruptible() bool {
	return !in.deadline.IsZero() || in.ctx.Done() != nil || in.r.sess.sigs != nil || in.r.sess.interactive
}

// wait waits until the file has input, its deadline passes (errTimeout),
// the context ends (its error) or a Ctrl-C comes (errInterrupted). A
// signal with a trap wakes it: the trap runs, and the wait goes on, as
// bash's read.
func (in *input) wait() error {
	rc, err := in.f.SyscallConn()
	if err != nil {
		return nil // not pollable: the read will block
	}
	for {
		if err := in.ctx.Err(); err != nil {
			return err
		}
		if in.r.sess.interrupted.Load() {
			return errInterrupted
		}
		in.r.runTraps()
		if in.ready() {
			return nil
		}
		timeout := -1
		if !in.deadline.IsZero() {
			left := time.Until(in.deadline)
			if left <= 0 {
				return errTimeout
			}
			timeout = int((left + time.Millisecond - 1) / time.Millisecond)
		}
		if in.r.sess.interactive && (timeout < 0 || timeout > int(interruptSlice/time.Millisecond)) {
			timeout = int(interruptSlice / time.Millisecond)
		}
		wake, stop := in.waker()
		var perr error
		var n int
		cerr := rc.Control(func(fd uintptr) {
			fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}, {Fd: int32(wake), Events: unix.POLLIN}}
			n, perr = unix.Poll(fds, timeout)
			if n > 0 && fds[0].Revents == 0 {
				n = 0 // woken: look at the context and the signals again
			}
		})
		stop()
		switch {
		case cerr != nil:
			return nil
		case perr == unix.EINTR:
		case perr != nil || n > 0:
			return nil // a poll error is the read's to report
		}
	}
}

// waker is a descriptor that becomes readable when the context ends or a
// signal comes, for poll to wait on beside the input; stop releases it.
func (in *input) waker() (fd int, stop func()) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return -1, func() {}
	}
	var sig <-chan struct{}
	if ss := in.r.sess.sigs; ss != nil {
		sig = ss.woken()
		if ss.any.Load() {
			pw.Write([]byte{0})
		}
	}
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		select {
		case <-in.ctx.Done():
		case <-sig:
		case <-quit:
			return
		}
		pw.Write([]byte{0})
	}()
	return int(pr.Fd()), func() {
		close(quit)
		<-done
		pr.Close()
		pw.Close()
	}
}

// termMode sets the terminal's modes for a read: cbreak reads each key as
// it is typed (read -n, -d), noEcho hides it (read -s). It returns what
// puts the modes back; nothing is done to a file that is not a terminal.
func (in *input) termMode(cbreak, noEcho bool) func() {
	if in.f == nil || !cbreak && !noEcho {
		return func() {}
	}
	rc, err := in.f.SyscallConn()
	if err != nil {
		return func() {}
	}
	var old *unix.Termios
	rc.Control(func(fd uintptr) {
		t, err := unix.IoctlGetTermios(int(fd), ioctlGetTermios)
		if err != nil {
			return
		}
		old = t
		m := *t
		if cbreak {
			m.Lflag &^= unix.ICANON
			m.Lflag |= unix.ISIG | unix.IEXTEN
			m.Cc[unix.VMIN], m.Cc[unix.VTIME] = 1, 0
		}
		if noEcho {
			m.Lflag &^= unix.ECHO | unix.ECHOK | unix.ECHOE | unix.ECHONL
		}
		unix.IoctlSetTermios(int(fd), ioctlSetTermios, &m)
	})
	if old == nil {
		return func() {}
	}
	return func() {
		rc.Control(func(fd uintptr) { unix.IoctlSetTermios(int(fd), ioctlSetTermios, old) })
	}
}
