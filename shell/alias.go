package shell

import (
	"maps"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

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
