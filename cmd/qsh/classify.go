package main

import (
	"io"

	"github.com/qsh-shell/qsh/policy/danger"
)

// classify is `qsh --classify`: the danger classifier's command line.
func classify(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return danger.RunCLI(args, stdin, stdout, stderr)
}
