//go:build unix && !linux

package guarded

import (
	"context"
	"io"
)

// watchStops does nothing where waitid cannot peek at a child's state
// without taking it: a program that stops for the terminal waits for its
// run's timeout.
func watchStops(ctx context.Context, pid, pgid int, args []string, stderr io.Writer) (wait func()) {
	return func() {}
}
