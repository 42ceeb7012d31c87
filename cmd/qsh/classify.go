package main

import (
	"fmt"
	"io"
)

// classify is `qsh --classify`: the danger classifier's command line.
func classify(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "qsh: --classify is not available in this build (the classifier is not built in)")
	return 2
}
