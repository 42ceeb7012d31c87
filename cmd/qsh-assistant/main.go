// Command qsh-assistant is qsh's assistant: qsh starts it on the first `?`
// line of a session and talks to it over fd 3 (see package wire). It is not
// meant to be run by hand, except `qsh-assistant --config`.
package main

import (
	"os"

	"github.com/qsh-shell/qsh/assistant/ai/remote"
	"github.com/qsh-shell/qsh/policy/sandbox"
	"github.com/qsh-shell/qsh/policy/sandbox/confine"
)

func main() {
	// The MCP servers it starts confined start through it: as a jail
	// (confine), and as the program that runs one in a jail of its own.
	confine.Main(os.Args)
	sandbox.RunJailed(os.Args)
	os.Exit(remote.Main(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
