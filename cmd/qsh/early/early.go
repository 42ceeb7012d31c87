// Package early does, from its init function, while the rest of qsh is
// still initialising, the two things that must not wait for it: it starts
// a confined program for the assistant (package confine: qsh started with
// a hidden argument applies the sandbox to itself and executes the
// program, for every program the assistant runs), and it starts the inner
// shell of an interactive qsh with capture on.
//
// With capture on, qsh runs itself again behind the proxy of package
// capture, so the first prompt waits for two Go programs to start, one
// after the other. The package initialisers of the outer one (the
// interpreter's regular expressions, Unicode tables, …) take about 0.6 ms
// before main runs; starting the inner shell before them lets both
// processes initialise at the same time. Go initialises packages in the
// order of their import paths once their own imports are done, and this
// one imports only os, launch and confine (os, runtime and syscall): it
// comes right after os. Only cmd/qsh may import it: in any binary linking
// it, init starts the binary again as an inner shell when its arguments
// and terminals look like an interactive qsh's (a test binary run with no
// flags, by hand, on a terminal, does).
package early

import (
	"os"
	"syscall"

	"github.com/qsh-shell/qsh/policy/sandbox/confine"
	"github.com/qsh-shell/qsh/shell/capture/launch"
)

// started is the inner shell init started, until [Inner] takes it: init
// has no other way to hand it to main.
var started *launch.Inner

func init() {
	// Returns only when this is no confined program's start.
	confine.Main(os.Args)
	if !wanted(os.Args, os.Getenv) || !launch.Terminal(0) || !launch.Terminal(1) || !launch.Terminal(2) {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	// A failure is not reported here: main finds no inner shell, decides
	// again with the whole configuration, tries once more and says why.
	started, _ = launch.Start(exe, os.Args, syscall.Environ(), 0)
}

// Inner returns the inner shell started while qsh was initialising, once;
// nil if none was. One is started for an interactive qsh (no arguments
// but -l, -i, --login or --interactive) whose standard input, output and
// error are terminals, with capture not turned off (QSH_CAPTURE), that is
// not itself an inner shell (launch.EnvFD). main must then be its proxy.
func Inner() *launch.Inner {
	in := started
	started = nil
	return in
}

// wanted reports whether args and the environment ask for the interactive
// shell with capture that init starts. Anything else is left to main.
func wanted(args []string, getenv func(string) string) bool {
	if len(args) == 0 {
		return false
	}
	for _, a := range args[1:] {
		switch a {
		case "--login", "--interactive":
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			return false
		}
		for _, c := range a[1:] {
			if c != 'l' && c != 'i' {
				return false
			}
		}
	}
	// Looked at last: the first look at the environment copies it.
	return getenv(launch.EnvFD) == "" && !off(getenv("QSH_CAPTURE"))
}

// off reports whether a QSH_CAPTURE value turns capture off, as the
// shell's configuration reads it (shell.Switch): any other value, a wrong
// one included, leaves capture at its default, on.
func off(v string) bool {
	switch lower(v) {
	case "off", "false", "no", "0", "f", "n":
		return true
	}
	return false
}

// lower is strings.ToLower for ASCII: package strings would be
// initialised before this one.
func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
