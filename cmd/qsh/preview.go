package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/policy/effect"
	"github.com/qsh-shell/qsh/shell"
	"github.com/qsh-shell/qsh/shell/eval"
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
	if q.Dry != nil {
		if e := effect.Preview(ctx, text, q.Dir, expander(q.Dry())); e != "" {
			parts = append(parts, e)
		}
	}
	return strings.Join(parts, "; ")
}

// expander is d, a dry copy of the shell, as the preview expands words in
// it: a copy of its own for each subshell of the line.
func expander(d *eval.Runner) effect.Expander {
	return effect.Expander{
		Fields: func(ctx context.Context, dir string, words ...*syntax.Word) ([]string, error) {
			if err := unprintedArithm(words...); err != nil {
				return nil, err
			}
			return d.ExpandFields(ctx, dir, words...)
		},
		Literal: func(ctx context.Context, dir string, w *syntax.Word) (string, error) {
			if err := unprintedArithm(w); err != nil {
				return "", err
			}
			return d.ExpandLiteral(ctx, dir, w)
		},
		Set:      d.Set,
		Unset:    d.Unset,
		IsFunc:   func(name string) bool { return d.Func(name) != nil },
		Subshell: func() effect.Expander { return expander(d.Dry()) },
	}
}

// arithmError is unprintedArithm's: a type, not a variable, so that it
// costs qsh's start-up no initialiser.
type arithmError struct{}

func (arithmError) Error() string {
	return "arithmetic the evaluator cannot expand outside its own source"
}

// unprintedArithm fails for words with an arithmetic expression other
// than a lone word ($((n+1)), ${s:i+1}, ${a[i-1]}): the evaluator reads
// such an expression from the text of the code it runs, which a
// preview's words are not part of, and would take it for 0. A preview
// that says nothing beats one that names the wrong file.
func unprintedArithm(words ...*syntax.Word) error {
	found := false
	for _, w := range words {
		syntax.Walk(w, func(n syntax.Node) bool {
			switch n.(type) {
			case *syntax.BinaryArithm, *syntax.UnaryArithm, *syntax.ParenArithm:
				found = true
			}
			return !found
		})
	}
	if found {
		return arithmError{}
	}
	return nil
}
