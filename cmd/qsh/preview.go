package main

import (
	"context"
	"fmt"
	"os"

	"github.com/qsh-shell/qsh/shell"
	"github.com/qsh-shell/qsh/tools/effect"
)

// preview is what command would change, for the confirmation line: the
// shell owns the variables its words expand with. A bug in it costs the
// preview, never the shell.
func preview(ctx context.Context, command string, q shell.Question) (s string) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "qsh: internal error in the preview of %q: %v\n", command, r)
			s = ""
		}
	}()
	return effect.Preview(ctx, command, q.Dir, q.Vars)
}
