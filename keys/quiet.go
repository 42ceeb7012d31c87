package keys

import (
	"os"

	"golang.org/x/sys/unix"
)

// Quiet stops the terminal echoing what is typed, until restore: a key
// pressed as a question is shown, before [Read] makes the terminal raw,
// would be echoed and then printed as the answer, twice. Output is left
// as it is (a raw terminal would print the question's lines as a
// staircase). On a file that is not a terminal it does nothing.
func Quiet(in *os.File) (restore func()) {
	fd := int(in.Fd())
	old, err := unix.IoctlGetTermios(fd, getTermios)
	if err != nil {
		return func() {}
	}
	quiet := *old
	quiet.Lflag &^= unix.ECHO | unix.ECHONL
	if unix.IoctlSetTermios(fd, setTermios, &quiet) != nil {
		return func() {}
	}
	return func() { unix.IoctlSetTermios(fd, setTermios, old) }
}
