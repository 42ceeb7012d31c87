package capture

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
	"golang.org/x/term"
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
// Proxy sets cmd's standard files, SysProcAttr (a new session whose
// controlling terminal is the pseudo-terminal) and adds [EnvFD] and
// [EnvID] to its environment (os.Environ when cmd.Env is nil) and a
// socket to its ExtraFiles. While it runs, in is in raw mode (again after
// SIGCONT), SIGWINCH resizes the inner terminal, SIGHUP and SIGTERM are
// passed on to the inner shell, and SIGINT, SIGQUIT, SIGTSTP and SIGTTOU are ignored (the
// inner terminal's line discipline turns the user's Ctrl-C and Ctrl-Z into
// signals for the inner's foreground job); they are reset to their
// defaults when it returns.
//
// A non-nil error means the inner shell never ran and the terminal is as
// it was: the caller should run the shell itself, without capture. Once
// the inner shell has started, Proxy returns no error.
func Proxy(cmd *exec.Cmd, in, out *os.File, opts ...Option) (int, error) {
	p := proxy{tail: 16 << 10, keep: 50}
	for _, o := range opts {
		o(&p)
	}
	inFd, err := fdOf(in)
	if err != nil {
		return 0, fmt.Errorf("capture: the terminal: %w", err)
	}
	master, slave, err := openPty()
	if err != nil {
		return 0, fmt.Errorf("capture: open a pseudo-terminal: %w", err)
	}
	// The inner terminal starts as the user's: same modes (erase key,
	// UTF-8, …) and size.
	if tio, err := unix.IoctlGetTermios(inFd, getTermios); err == nil {
		withFd(slave, func(fd int) error { return unix.IoctlSetTermios(fd, setTermios, tio) })
	}
	resize(in, master)

	wake, err := wakePipe()
	if err != nil {
		master.Close()
		slave.Close()
		return 0, fmt.Errorf("capture: pipe: %w", err)
	}
	defer unix.Close(wake[0])
	defer unix.Close(wake[1])
	pair, err := socketpair()
	if err != nil {
		master.Close()
		slave.Close()
		return 0, fmt.Errorf("capture: socketpair: %w", err)
	}
	ours, theirs := os.NewFile(uintptr(pair[0]), "capture"), os.NewFile(uintptr(pair[1]), "capture")
	conn, err := net.FileConn(ours)
	ours.Close()
	if err != nil {
		master.Close()
		slave.Close()
		theirs.Close()
		return 0, fmt.Errorf("capture: socket: %w", err)
	}

	id := strconv.Itoa(os.Getpid())
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.ExtraFiles = append(cmd.ExtraFiles, theirs)
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	env = slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		return strings.HasPrefix(kv, EnvFD+"=") || strings.HasPrefix(kv, EnvID+"=")
	})
	cmd.Env = append(env, EnvFD+"="+strconv.Itoa(2+len(cmd.ExtraFiles)), EnvID+"="+id)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}

	oldState, err := term.MakeRaw(inFd)
	if err == nil {
		err = cmd.Start()
		if err != nil {
			term.Restore(inFd, oldState)
		}
	}
	slave.Close()
	theirs.Close()
	if err != nil {
		master.Close()
		conn.Close()
		return 0, fmt.Errorf("capture: start the inner shell: %w", err)
	}
	// Signals are caught only now, while the inner shell starts: catching
	// costs a round trip to the runtime's signal thread for each, which
	// would delay the first prompt. A resize before this point is picked
	// up by the resize after it.
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGWINCH, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGCONT)
	defer signal.Stop(sigs)
	resize(in, master)
	// Only now: ignored signals would be inherited by the inner shell.
	ignored := []os.Signal{syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTSTP, syscall.SIGTTOU}
	signal.Ignore(ignored...)
	defer signal.Reset(ignored...)
	defer term.Restore(inFd, oldState)

	rec := newRecorder(id, p.tail, p.keep)
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
					cmd.Process.Kill()
				}
				return
			case s := <-sigs:
				switch s {
				case syscall.SIGWINCH:
					resize(in, master)
				case syscall.SIGCONT:
					// Stopped and continued: the job-control shell
					// that continued us may have reset the terminal.
					term.MakeRaw(inFd)
					resize(in, master)
				default:
					cmd.Process.Signal(s)
				}
			}
		}
	})

	werr := cmd.Wait()
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
	return exitStatus(cmd.ProcessState, werr), nil
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
func (r *recorder) serve(conn net.Conn) {
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

// openPty opens a pseudo-terminal whose master has read deadlines and
// unblocks on Close: pty.Open leaves it in blocking mode.
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

// exitStatus is the status a shell would report for the inner's end.
func exitStatus(ps *os.ProcessState, err error) int {
	if ps == nil {
		if err != nil {
			return 1
		}
		return 0
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}
