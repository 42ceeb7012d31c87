// Command attack runs the attacks of package sandboxtest its arguments
// name, for the end-to-end tests of the sandbox: a hostile project's
// tool, run by the assistant.
package main

import (
	"os"

	"github.com/qsh-shell/qsh/policy/sandbox/sandboxtest"
)

func main() {
	sandboxtest.Main(os.Args[1:])
}
