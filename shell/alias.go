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
// interp cannot hold (see [aliasWords]) where a command's name is one.
func (s *Shell) expandAliases(line string) string {
	if len(s.aliases) == 0 || !s.optNow("expand_aliases") {
		return line
	}
	line, _ = ExpandAliases(line, func(name string) (string, bool) {
		v, ok := s.aliases[name]
		return v, ok && !aliasWords(v)
	})
	return line
}

// ExpandAliases is line with each command name that is an alias (alias
// gives its value) replaced by the alias's text, as bash's reader does:
// the text is expanded in turn, but for the aliases it comes from. names
// are the aliases expanded, in the order met. The line is unchanged if it
// has none, or does not parse.
func ExpandAliases(line string, alias func(name string) (string, bool)) (expanded string, names []string) {
	met := map[string]bool{}
	var expand func(text string, active map[string]bool) string
	expand = func(text string, active map[string]bool) string {
		if len(active) > 16 {
			return text
		}
		f, err := syntax.NewParser().Parse(strings.NewReader(text), "")
		if err != nil {
			return text
		}
		type spot struct {
			from, to    uint
			name, value string
		}
		var spots []spot
		syntax.Walk(f, func(n syntax.Node) bool {
			call, ok := n.(*syntax.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			w := call.Args[0]
			lit, ok := w.Parts[0].(*syntax.Lit)
			if !ok || len(w.Parts) != 1 || active[lit.Value] {
				return true
			}
			if v, ok := alias(lit.Value); ok {
				spots = append(spots, spot{w.Pos().Offset(), w.End().Offset(), lit.Value, v})
			}
			return true
		})
		slices.SortFunc(spots, func(a, b spot) int { return int(a.from) - int(b.from) })
		for i, sp := range spots {
			if !met[sp.name] {
				met[sp.name] = true
				names = append(names, sp.name)
			}
			inner := maps.Clone(active)
			inner[sp.name] = true // an alias is not expanded in its own text
			spots[i].value = expand(sp.value, inner)
		}
		for i := len(spots) - 1; i >= 0; i-- {
			text = text[:spots[i].from] + spots[i].value + text[spots[i].to:]
		}
		return text
	}
	return expand(line, map[string]bool{}), names
}
