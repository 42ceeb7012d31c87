package main

import (
	"context"

	"github.com/qsh-shell/qsh/shell"
)

// preview is what command would change, for the confirmation line.
func preview(ctx context.Context, command string, q shell.Question) string {
	return ""
}
