package main

import (
	"context"

	"github.com/qsh-shell/qsh/shell"
	"github.com/qsh-shell/qsh/tools/effect"
)

// preview is what command would change, for the confirmation line: the
// shell owns the variables its words expand with.
func preview(ctx context.Context, command string, q shell.Question) string {
	return effect.Preview(ctx, command, q.Dir, q.Vars)
}
