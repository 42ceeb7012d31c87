package main

import (
	"github.com/qsh-shell/qsh/shell"
)

// assistant returns what answers `?` lines, or nil when no assistant is
// built in yet; the shell then prints how to set up a provider. The
// assistant must be created lazily, on the first question: nothing of it
// may slow down start-up.
func assistant(cfg config) shell.AskFunc {
	return nil
}
