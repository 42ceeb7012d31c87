package sandbox

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"time"
)

// Layers says what confines a jail's programs.
type Layers struct {
	Landlock   int  // the Landlock ABI
	Namespaces bool // user, mount, PID, IPC and (but with the network on) network namespaces
	Seccomp    bool
	Net        Net
	// Reduced says what is missing, and why, one line each.
	Reduced []string
}

// String says it in a few words: "Landlock ABI 7, namespaces, seccomp".
func (l Layers) String() string {
	parts := []string{"Landlock ABI " + strconv.Itoa(l.Landlock)}
	if l.Namespaces {
		parts = append(parts, "namespaces")
	}
	if l.Seccomp {
		parts = append(parts, "seccomp")
	}
	s := strings.Join(parts, ", ")
	if len(l.Reduced) > 0 {
		s = "reduced: " + s
	}
	return s
}

// Spec is a program to start in a jail.
type Spec struct {
	Path string   // as the jail sees it (see [Jail.Look])
	Args []string // Args[0] is its name
	Env  []string
	Dir  string
	// Stdin, Stdout and Stderr are as exec.Cmd's: a file is handed over,
	// anything else goes through a pipe (nil: /dev/null).
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// OutputGrace is how long Wait waits, once the program has exited, for
// what it started to let go of its output.
const OutputGrace = 2 * time.Second

// ErrOutputHeld says that the program exited but something it started
// still held its output when Wait gave up on it.
var ErrOutputHeld = errors.New("the program exited; something it started still holds its output")
