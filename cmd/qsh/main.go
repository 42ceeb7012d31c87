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
