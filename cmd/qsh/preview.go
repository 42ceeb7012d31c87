package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/qsh-shell/qsh/shell"
	"github.com/qsh-shell/qsh/tools/effect"
)

// maxAliasShown bounds an alias's text on the confirmation line.
const maxAliasShown = 60

// preview is what command would change, for the confirmation line: the
// shell owns the variables its words expand with, and the aliases and
// functions its names may be, as the command runs in the user's
// interpreter. A bug in it costs the preview, never the shell.
func preview(ctx context.Context, command string, q shell.Question) (s string) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "qsh: internal error in the preview of %q: %v\n", command, r)
			s = ""
		}
	}()
	text, aliases := shell.ExpandAliases(command, func(name string) (string, bool) {
		v, ok := q.Aliases[name]
		return v, ok
	})
	var parts []string
	for _, name := range aliases {
		v := q.Aliases[name]
		if r := []rune(v); len(r) > maxAliasShown {
			v = string(r[:maxAliasShown-1]) + "…"
		}
		parts = append(parts, fmt.Sprintf("runs your alias %s (%s)", name, v))
	}
	isFunc := func(name string) bool { _, ok := q.Functions[name]; return ok }
	if e := effect.Preview(ctx, text, q.Dir, q.Vars, isFunc); e != "" {
		parts = append(parts, e)
	}
	return strings.Join(parts, "; ")
}
