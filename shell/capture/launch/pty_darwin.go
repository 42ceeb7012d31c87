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

// openPty and socketpair set close-on-exec after the fact: darwin has no
// flag for it at creation. The window is harmless: nothing else forks yet.
func openPty() (master, slave int, err error) {
	master, err = syscall.Open("/dev/ptmx", syscall.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return -1, -1, err
	}
	syscall.CloseOnExec(master)
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
		slave, err = syscall.Open(string(name[:n]), syscall.O_RDWR|syscall.O_NOCTTY, 0)
	}
	if err != nil {
		syscall.Close(master)
		return -1, -1, err
	}
	syscall.CloseOnExec(slave)
	return master, slave, nil
}

func socketpair() ([2]int, error) {
	p, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(p[0])
		syscall.CloseOnExec(p[1])
	}
	return p, err
}
