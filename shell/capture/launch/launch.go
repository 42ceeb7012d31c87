package launch

import (
	"errors"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"unsafe"
)

// The environment of the inner shell: EnvFD is the file descriptor of its
// end of the socket to the proxy, EnvID the aid its marks carry.
const (
	EnvFD = "QSH_CAPTURE_FD"
	EnvID = "QSH_CAPTURE_ID"
)

// Inner is an inner shell started on a new pseudo-terminal, in a session
// of its own whose controlling terminal that is, as a login shell's.
type Inner struct {
	Pid    int
	Master int    // the pseudo-terminal's master, close-on-exec
	Socket int    // the proxy's end of the socket whose other end is EnvFD's
	ID     string // the aid of the marks, EnvID's value
	// Signals gets SIGWINCH, SIGHUP, SIGTERM and SIGCONT from before the
	// terminal is made raw, for the proxy to handle: one that comes before
	// the proxy relays must not kill it and leave the user's terminal raw
	// (on a busy machine, the rest of qsh's start-up takes a while). The
	// proxy stops it (signal.Stop) when it is done.
	Signals chan os.Signal

	tty   int // the user's terminal
	saved termios
}

// Start runs the program at path with argv and env (plus [EnvFD] and
// [EnvID]) on a new pseudo-terminal with the modes and size of the terminal
// tty, and then puts tty in raw mode: from now on the caller relays its
// bytes. On error nothing is left open and tty is as it was.
func Start(path string, argv, env []string, tty int) (*Inner, error) {
	saved, err := getTermios(tty)
	if err != nil {
		return nil, errors.New("the terminal: " + err.Error())
	}
	master, slave, err := openPty()
	if err != nil {
		return nil, errors.New("open a pseudo-terminal: " + err.Error())
	}
	// The inner terminal starts as the user's: same modes (erase key,
	// UTF-8, …) and size.
	setTermios(slave, &saved)
	var ws winsize
	if ioctl(tty, syscall.TIOCGWINSZ, unsafe.Pointer(&ws)) == nil {
		ioctl(master, syscall.TIOCSWINSZ, unsafe.Pointer(&ws))
	}
	pair, err := socketpair()
	if err != nil {
		syscall.Close(master)
		syscall.Close(slave)
		return nil, errors.New("socketpair: " + err.Error())
	}
	in := &Inner{Master: master, Socket: pair[0], ID: strconv.Itoa(os.Getpid()), tty: tty, saved: saved,
		Signals: make(chan os.Signal, 8)}
	env = append(dedup(env, EnvFD, EnvID), EnvFD+"=3", EnvID+"="+in.ID)
	signal.Notify(in.Signals, syscall.SIGWINCH, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGCONT)
	err = in.Raw()
	if err == nil {
		in.Pid, err = syscall.ForkExec(path, argv, &syscall.ProcAttr{
			Env:   env,
			Files: []uintptr{uintptr(slave), uintptr(slave), uintptr(slave), uintptr(pair[1])},
			Sys:   &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0},
		})
		if err != nil {
			in.Restore()
		}
	}
	syscall.Close(slave)
	syscall.Close(pair[1])
	if err != nil {
		signal.Stop(in.Signals)
		syscall.Close(master)
		syscall.Close(pair[0])
		return nil, errors.New("start the inner shell: " + err.Error())
	}
	return in, nil
}

// Raw puts the user's terminal in raw mode, as after Start: again after
// the job-control shell that stopped and continued the proxy reset it.
func (in *Inner) Raw() error {
	t := in.saved
	makeRaw(&t)
	return setTermios(in.tty, &t)
}

// Restore gives the user's terminal back the modes it had before Start.
func (in *Inner) Restore() error { return setTermios(in.tty, &in.saved) }

// makeRaw sets the modes of a terminal that passes every byte on as it
// comes, unechoed, as cfmakeraw(3) does.
func makeRaw(t *termios) {
	t.Iflag &^= syscall.IGNBRK | syscall.BRKINT | syscall.PARMRK | syscall.ISTRIP |
		syscall.INLCR | syscall.IGNCR | syscall.ICRNL | syscall.IXON
	t.Oflag &^= syscall.OPOST
	t.Lflag &^= syscall.ECHO | syscall.ECHONL | syscall.ICANON | syscall.ISIG | syscall.IEXTEN
	t.Cflag &^= syscall.CSIZE | syscall.PARENB
	t.Cflag |= syscall.CS8
	t.Cc[syscall.VMIN] = 1
	t.Cc[syscall.VTIME] = 0
}

type winsize struct{ Row, Col, Xpixel, Ypixel uint16 }

func getTermios(fd int) (termios, error) {
	var t termios
	err := ioctl(fd, getTermiosReq, unsafe.Pointer(&t))
	return t, err
}

func setTermios(fd int, t *termios) error { return ioctl(fd, setTermiosReq, unsafe.Pointer(t)) }

func ioctl(fd int, req uintptr, arg unsafe.Pointer) error {
	for {
		_, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), req, uintptr(arg))
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return e
		}
		return nil
	}
}

// dedup is env with one entry per variable, the last as os/exec does,
// less the variables named.
func dedup(env []string, drop ...string) []string {
	last := make(map[string]int, len(env))
	for i, kv := range env {
		last[name(kv)] = i
	}
	for _, n := range drop {
		delete(last, n)
	}
	out := make([]string, 0, len(env)+2)
	for i, kv := range env {
		if j, ok := last[name(kv)]; ok && j == i {
			out = append(out, kv)
		}
	}
	return out
}

func name(kv string) string {
	for i := 0; i < len(kv); i++ {
		if kv[i] == '=' {
			return kv[:i]
		}
	}
	return kv
}

// Terminal reports whether fd is a terminal.
func Terminal(fd int) bool {
	_, err := getTermios(fd)
	return err == nil
}
