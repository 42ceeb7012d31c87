package launch

import (
	"syscall"
	"unsafe"
)

type termios = syscall.Termios

const (
	getTermiosReq = syscall.TIOCGETA
	setTermiosReq = syscall.TIOCSETA
)

func openPty() (master, slave int, err error) {
	master, err = syscall.Open("/dev/ptmx", syscall.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return -1, -1, err
	}
	var name [128]byte
	err = ioctl(master, syscall.TIOCPTYGRANT, nil)
	if err == nil {
		err = ioctl(master, syscall.TIOCPTYUNLK, nil)
	}
	if err == nil {
		err = ioctl(master, syscall.TIOCPTYGNAME, unsafe.Pointer(&name[0]))
	}
	if err == nil {
		n := 0
		for n < len(name) && name[n] != 0 {
			n++
		}
		slave, err = syscall.Open(string(name[:n]), syscall.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	}
	if err != nil {
		syscall.Close(master)
		return -1, -1, err
	}
	return master, slave, nil
}

// socketpair sets close-on-exec after the fact, as darwin has no flag for
// it at creation, holding syscall.ForkLock so that no other goroutine's
// fork inherits the pair meanwhile.
func socketpair() ([2]int, error) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	p, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(p[0])
		syscall.CloseOnExec(p[1])
	}
	return p, err
}
