//go:build !unix

package guarded

import "github.com/qsh-shell/qsh/shell/eval"

// spawn leaves programs to the shell's own handler where there are no
// process groups to kill, nor a sandbox to start them in.
func spawn(next eval.ExecHandler, extraEnv []string, conf *jailed) eval.ExecHandler {
	return next
}
