package shell

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// alias and unalias, as bash's. qsh keeps the table (for listing, type
// and completion); an alias whose value is words only is interp's too,
// which expands it where a command runs. One with more (`a && b`, `x; y`,
// a pipe, a redirection), which interp cannot hold, qsh expands itself
// in the lines typed at the prompt, before they are parsed (see
// [Shell.expandAliases]).

const aliasUsage = "alias: usage: alias [-p] [name[=value] ... ]"

func (s *Shell) aliasBuiltin(ctx context.Context, hc interp.HandlerContext, b builtinIO, args []string) int {
	printAll := len(args) == 0
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		if a != "-p" {
			b.fail(2, "%s: invalid option", a[:2])
			fmt.Fprintln(b.err, aliasUsage)
			return 2
		}
		printAll = true
	}
	if s.aliases == nil {
		s.aliases = map[string]string{}
	}
	var sb strings.Builder
	if printAll {
		for _, name := range slices.Sorted(maps.Keys(s.aliases)) {
			sb.WriteString("alias " + name + "=" + singleQuoteAlways(s.aliases[name]) + "\n")
		}
	}
	st := 0
	for _, a := range args {
		name, value, isDef := strings.Cut(a, "=")
		if !isDef {
			v, ok := s.aliases[name]
			if !ok {
				st = b.fail(1, "%s: not found", name)
				continue
			}
			sb.WriteString("alias " + name + "=" + singleQuoteAlways(v) + "\n")
			continue
		}
		if name == "" || strings.ContainsAny(name, " \t\n/$`'\"\\;|&<>()=") {
			st = b.fail(1, "`%s': invalid alias name", name)
			continue
		}
		s.aliases[name] = value
		if aliasWords(value) {
			hc.Builtin(ctx, []string{"alias", name + "=" + value})
		} else {
			hc.Builtin(ctx, []string{"unalias", name})
		}
	}
	b.out.Write([]byte(sb.String()))
	return st
}

func (s *Shell) unaliasBuiltin(ctx context.Context, hc interp.HandlerContext, b builtinIO, args []string) int {
	all := false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		if a != "-a" {
			b.fail(2, "%s: invalid option", a[:2])
			fmt.Fprintln(b.err, "unalias: usage: unalias [-a] name [name ...]")
			return 2
		}
		all = true
	}
	if all {
		args = slices.Collect(maps.Keys(s.aliases))
	} else if len(args) == 0 {
		fmt.Fprintln(b.err, "unalias: usage: unalias [-a] name [name ...]")
		return 2
	}
	st := 0
	for _, name := range args {
		if _, ok := s.aliases[name]; !ok {
			st = b.fail(1, "%s: not found", name)
			continue
		}
		delete(s.aliases, name)
		hc.Builtin(ctx, []string{"unalias", name})
	}
	return st
}

// aliasWords reports whether value is words only, as interp's aliases
// must be.
func aliasWords(value string) bool {
	for _, err := range syntax.NewParser().WordsSeq(strings.NewReader(value)) {
		if err != nil {
			return false
		}
	}
	return true
}

// expandAliases expands, in a line typed at the prompt, the aliases
// interp cannot hold (see [aliasWords]) where a command's name is one:
// the line's text gets the alias's in place of the name, as bash's reader
// does, each alias once. The line is unchanged if it has none.
func (s *Shell) expandAliases(line string) string {
	if len(s.aliases) == 0 || !s.optNow("expand_aliases") {
		return line
	}
	done := map[string]bool{}
	for range 16 {
		f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
		if err != nil {
			return line
		}
		type spot struct {
			from, to uint
			value    string
		}
		var spots []spot
		now := map[string]bool{}
		syntax.Walk(f, func(n syntax.Node) bool {
			call, ok := n.(*syntax.CallExpr)
			if !ok || len(call.Args) == 0 || len(call.Assigns) > 0 {
				return true
			}
			w := call.Args[0]
			lit, ok := w.Parts[0].(*syntax.Lit)
			if !ok || len(w.Parts) != 1 || done[lit.Value] {
				return true
			}
			if v, ok := s.aliases[lit.Value]; ok && !aliasWords(v) {
				spots = append(spots, spot{w.Pos().Offset(), w.End().Offset(), v})
				now[lit.Value] = true
			}
			return true
		})
		if len(spots) == 0 {
			return line
		}
		maps.Copy(done, now) // an alias is not expanded in its own text
		slices.SortFunc(spots, func(a, b spot) int { return int(b.from) - int(a.from) })
		for _, sp := range spots {
			line = line[:sp.from] + sp.value + line[sp.to:]
		}
	}
	return line
}
