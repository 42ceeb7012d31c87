package capture

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/qsh-shell/qsh/shell/capture/launch"
)

// Option configures [Proxy].
type Option func(*proxy)

// Tail sets how many bytes of each command's output are kept, before
// stripping; the default is 16 KiB.
func Tail(bytes int) Option { return func(p *proxy) { p.tail = bytes } }

// Keep sets how many commands are kept; the default is 50.
func Keep(n int) Option { return func(p *proxy) { p.keep = n } }

type proxy struct {
	tail, keep int
}

const (
	// Once the inner shell exited, the proxy reads what is left in the
	// pseudo-terminal until it has been quiet for drainIdle, at most for
	// drainMax: a background job that inherited the terminal may keep it
	// open, and even write to it, for ever.
	drainIdle = 200 * time.Millisecond
	drainMax  = time.Second
	// hangupGrace is how long an inner shell may live on once the user's
	// terminal is gone, before it is killed.
	hangupGrace = 5 * time.Second
	// answerWait bounds how long a request waits for end marks the proxy
	// has not read yet.
	answerWait = time.Second
)

// Proxy runs cmd as the inner shell on a new pseudo-terminal and relays
// between it and the user's terminal, in and out, until the inner shell
// exits; it returns the inner's exit status (128+N when signal N killed
// it). It records what each command printed between the marks of a
// [Client] the inner shell gets from [Dial].
//
// Of cmd, Proxy uses Path, Args and Env (os.Environ when nil), to which
// it adds [EnvFD] and [EnvID]; the inner shell's standard files are the
// pseudo-terminal's slave, its controlling terminal in a new session. See
// [Relay] for the rest.
//
// A non-nil error means the inner shell never ran and the terminal is as
// it was: the caller should run the shell itself, without capture. Once
// the inner shell has started, Proxy returns no error.
func Proxy(cmd *exec.Cmd, in, out *os.File, opts ...Option) (int, error) {
	if cmd.Err != nil {
		return 0, fmt.Errorf("capture: start the inner shell: %w", cmd.Err)
	}
	inFd, err := fdOf(in)
	if err != nil {
		return 0, fmt.Errorf("capture: the terminal: %w", err)
	}
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	inner, err := launch.Start(cmd.Path, cmd.Args, env, inFd)
	if err != nil {
		return 0, fmt.Errorf("capture: %w", err)
	}
	return Relay(inner, in, out, opts...)
}

// Relay relays between the user's terminal, in and out, and the inner
// shell launch started, as [Proxy] does, until the inner shell exits, and
// returns its exit status. Only if it cannot begin (out of file
// descriptors) does it return an error, having stopped the inner shell
// and restored the terminal.
//
// While it runs, in is in raw mode (again after SIGCONT), SIGWINCH resizes
// the inner terminal, SIGHUP and SIGTERM are passed on to the inner shell,
// and SIGINT, SIGQUIT, SIGTSTP and SIGTTOU are ignored (the inner
// terminal's line discipline turns the user's Ctrl-C and Ctrl-Z into
// signals for the inner's foreground job); they are reset to their
// defaults, and the terminal to its modes before launch, when it returns.
func Relay(inner *launch.Inner, in, out *os.File, opts ...Option) (int, error) {
	p := proxy{tail: 16 << 10, keep: 50}
	for _, o := range opts {
		o(&p)
	}
	// The master is ours alone: non-blocking, it waits in Go's poller,
	// with read deadlines, and unblocks on Close.
	syscall.SetNonblock(inner.Master, true)
	master := os.NewFile(uintptr(inner.Master), "/dev/ptmx")
	// The socket too: a read waits in the poller and ends on Close.
	syscall.SetNonblock(inner.Socket, true)
	conn := os.NewFile(uintptr(inner.Socket), "capture")
	wake, err := wakePipe()
	inFd, ferr := fdOf(in)
	if err == nil {
		err = ferr
	}
	if err != nil {
		// Out of descriptors, most likely: the inner shell has not
		// read a key yet, and the caller can run the shell itself.
		syscall.Kill(inner.Pid, syscall.SIGKILL)
		wait(inner.Pid)
		signal.Stop(inner.Signals)
		master.Close()
		conn.Close()
		for _, fd := range wake {
			unix.Close(fd)
		}
		inner.Restore()
		return 0, fmt.Errorf("capture: %w", err)
	}
	defer unix.Close(wake[0])
	defer unix.Close(wake[1])
	defer inner.Restore()

	// Caught since launch; one that came since is handled below.
	sigs := inner.Signals
	defer signal.Stop(sigs)
	// A resize since launch is picked up here.
	resize(in, master)
	// Ignored signals would be inherited by the inner shell: it has
	// started.
	ignored := []os.Signal{syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTSTP, syscall.SIGTTOU}
	signal.Ignore(ignored...)
	defer signal.Reset(ignored...)

	rec := newRecorder(inner.ID, p.tail, p.keep)
	var wg sync.WaitGroup
	var hangupOnce sync.Once
	hungUp := make(chan struct{})
	hangup := func() { // the user's terminal is gone
		hangupOnce.Do(func() {
			master.Close() // the inner terminal hangs up: SIGHUP, EOF
			close(hungUp)
		})
	}

	var w io.Writer = out
	if f, err := reopen(out); err == nil {
		w = f
		defer f.Close()
	}
	outDone := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(outDone)
		relayOut(master, rec, w, exited)
	}()

	wg.Go(func() { relayIn(inFd, wake[0], master, hangup) })

	wg.Go(func() { rec.serve(conn) })

	stopSigs := make(chan struct{})
	wg.Go(func() {
		for {
			select {
			case <-stopSigs:
				return
			case <-hungUp:
				select {
				case <-stopSigs:
				case <-time.After(hangupGrace):
					syscall.Kill(inner.Pid, syscall.SIGKILL)
				}
				return
			case s := <-sigs:
				switch s {
				case syscall.SIGWINCH:
					resize(in, master)
				case syscall.SIGCONT:
					// Stopped and continued: the job-control shell
					// that continued us may have reset the terminal.
					inner.Raw()
					resize(in, master)
				default:
					select {
					case <-exited: // reaped: the pid may be another's now
						// (between the reap and this close, only if the
						// kernel went through every other pid meanwhile)
					default:
						syscall.Kill(inner.Pid, s.(syscall.Signal))
					}
				}
			}
		}
	})

	ws, werr := wait(inner.Pid)
	close(exited)
	master.SetReadDeadline(time.Now().Add(drainIdle))
	if f, ok := w.(*os.File); ok {
		// Nor may a terminal that takes nothing keep us.
		f.SetWriteDeadline(time.Now().Add(drainMax))
	}
	<-outDone
	hangupOnce.Do(func() { master.Close() })
	unix.Write(wake[1], []byte{0})
	conn.Close()
	close(stopSigs)
	wg.Wait()
	return exitStatus(ws, werr), nil
}

// relayOut copies the inner terminal's output to the user's terminal, and
// through the recorder, until the inner terminal is closed, or after the
// inner shell exited, until it is quiet (see drainIdle).
func relayOut(master *os.File, rec *recorder, out io.Writer, exited <-chan struct{}) {
	rc, err := master.SyscallConn()
	if err != nil {
		return
	}
	buf := make([]byte, 64<<10)
	outOK := true
	var drainEnd time.Time
	for {
		select {
		case <-exited:
			now := time.Now()
			if drainEnd.IsZero() {
				drainEnd = now.Add(drainMax)
			}
			d := now.Add(drainIdle)
			if d.After(drainEnd) {
				d = drainEnd
			}
			master.SetReadDeadline(d)
		default:
		}
		n, rerr := readAvailable(rc, buf)
		if n > 0 {
			rec.Write(buf[:n])
			if outOK {
				// A terminal that is gone must not block the inner shell:
				// keep reading, stop writing.
				_, werr := out.Write(buf[:n])
				outOK = werr == nil
			}
		}
		if rerr != nil {
			return
		}
	}
}

// readAvailable waits until the terminal has output, then reads all it
// has, up to len(buf). A terminal hands out at most a few KiB per read:
// one write of what several reads gathered costs the user's terminal fewer
// wake-ups than one write per read.
func readAvailable(rc syscall.RawConn, buf []byte) (int, error) {
	n := 0
	var rerr error
	err := rc.Read(func(fd uintptr) bool {
		for n < len(buf) {
			k, err := unix.Read(int(fd), buf[n:])
			if k > 0 {
				n += k
				continue
			}
			if errors.Is(err, unix.EINTR) {
				continue
			}
			if errors.Is(err, unix.EAGAIN) {
				return n > 0 // nothing yet: wait
			}
			if err == nil {
				err = io.EOF
			}
			rerr = err
			return true
		}
		return true
	})
	if err != nil {
		return n, err
	}
	return n, rerr
}

// relayIn copies the user's keys to the inner terminal until wake is
// readable. It polls rather than blocks in read, so that it can be
// stopped without changing the terminal's file flags, which the user's
// other processes share. At end of input it calls hangup.
func relayIn(inFd, wake int, master io.Writer, hangup func()) {
	buf := make([]byte, 4096)
	fds := []unix.PollFd{{Fd: int32(inFd), Events: unix.POLLIN}, {Fd: int32(wake), Events: unix.POLLIN}}
	for {
		_, err := unix.Poll(fds, -1)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			hangup()
			return
		}
		if fds[1].Revents != 0 {
			return
		}
		if fds[0].Revents == 0 {
			continue
		}
		n, err := unix.Read(inFd, buf)
		if n > 0 {
			if _, err := master.Write(buf[:n]); err != nil {
				return // the inner terminal is closed: we are ending
			}
			continue
		}
		if errors.Is(err, unix.EINTR) || errors.Is(err, unix.EAGAIN) {
			continue
		}
		hangup()
		return
	}
}

// serve answers the inner shell's requests, one JSON line each, until the
// connection closes.
func (r *recorder) serve(conn io.ReadWriter) {
	sc := bufio.NewScanner(conn)
	sc.Buffer(make([]byte, 0, 512), 64<<10)
	enc := json.NewEncoder(conn)
	for sc.Scan() {
		resp := response{Outputs: []Output{}}
		var req request
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			resp.Error = "bad request: " + err.Error()
		} else {
			resp.Outputs = r.outputs(req.Last, req.Ends, answerWait)
		}
		if enc.Encode(resp) != nil {
			return
		}
	}
}

// resize gives the inner terminal the user's terminal's size; the kernel
// tells the inner's foreground job with SIGWINCH.
func resize(in, master *os.File) {
	withFd(in, func(inFd int) error {
		ws, err := unix.IoctlGetWinsize(inFd, unix.TIOCGWINSZ)
		if err != nil {
			return err
		}
		return withFd(master, func(fd int) error { return unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, ws) })
	})
}

// withFd runs f on the descriptor of file without File.Fd, which would put
// a pollable file in blocking mode and so lose read deadlines.
func withFd(file *os.File, f func(fd int) error) error {
	rc, err := file.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = f(int(fd)) }); err != nil {
		return err
	}
	return ferr
}

func fdOf(file *os.File) (int, error) {
	fd := -1
	err := withFd(file, func(f int) error { fd = f; return nil })
	return fd, err
}

// wait waits for the inner shell to end. It goes by pid, not through
// os.FindProcess: on Linux that first clones a process to learn whether
// pidfds work, ≈0.4 ms spent just before the first prompt. The pid is the
// inner shell's until wait returns: it is our child, only wait reaps it.
func wait(pid int) (syscall.WaitStatus, error) {
	var ws syscall.WaitStatus
	for {
		_, err := syscall.Wait4(pid, &ws, 0, nil)
		if err != syscall.EINTR {
			return ws, err
		}
	}
}

// exitStatus is the status a shell would report for the inner's end.
func exitStatus(ws syscall.WaitStatus, err error) int {
	switch {
	case err != nil:
		return 1
	case ws.Signaled():
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}
