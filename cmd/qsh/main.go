// The runtime's default GOMAXPROCS reads the cgroup's CPU limit at start and
// again every second: ≈0.15 ms of each `qsh -c` (a shell runs one goroutine
// at a time), so qsh takes the CPU count, as Go before 1.25 did.
//
//go:debug containermaxprocs=0
//go:debug updatemaxprocs=0

// Command qsh is a bash-like interactive shell with an AI assistant on `?`
// lines. Run `qsh --help` for its flags.
package main

import (
	"os"

	"github.com/qsh-shell/qsh/cmd/qsh/early"
	"github.com/qsh-shell/qsh/shell/capture"
)

func main() {
	// An interactive qsh with capture on started its inner shell while it
	// was initialising: this process is only its proxy. Should the relay
	// fail to begin, run decides again and says why.
	if inner := early.Inner(); inner != nil {
		if st, err := capture.Relay(inner, os.Stdin, os.Stdout); err == nil {
			os.Exit(st)
		}
	}
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
