package eval

import (
	"maps"
	"slices"
	"strings"
	"sync/atomic"

	"mvdan.cc/sh/v3/syntax"
)

// aliases are a shell's aliases; bash expands them as it reads, before
// parsing, which qsh does on the text it is about to parse (see
// [Runner.expandAliases]).
type aliases struct {
	m      map[string]string
	shared atomic.Bool
}

func newAliases() *aliases { return &aliases{m: map[string]string{}} }

func (a *aliases) any() bool { return len(a.m) > 0 }

func (a *aliases) writable() map[string]string {
	if a.shared.Load() {
		a.m = maps.Clone(a.m)
		a.shared.Store(false)
	}
	return a.m
}

func (a *aliases) fork() *aliases {
	a.shared.Store(true)
	c := &aliases{m: a.m}
	c.shared.Store(true)
	return c
}

// Alias is the value of alias name.
func (r *Runner) Alias(name string) (string, bool) {
	v, ok := r.aliases.m[name]
	return v, ok
}

// AliasNames lists the aliases, sorted.
func (r *Runner) AliasNames() []string { return slices.Sorted(maps.Keys(r.aliases.m)) }

// ExpandAliases expands the aliases in text about to be parsed, when
// expand_aliases is on: each command name that is an alias is replaced by
// its value, which expands in turn (but for the aliases it comes from);
// a value ending in a blank makes the next word a command name too.
func (r *Runner) ExpandAliases(text string) string {
	if !r.opts.shopt[optExpandAliases] || !r.aliases.any() {
		return text
	}
	return r.expandAliases(text)
}

func (r *Runner) expandAliases(text string) string {
	var expand func(text string, active map[string]bool) string
	expand = func(text string, active map[string]bool) string {
		if len(active) > 16 {
			return text
		}
		f, err := NewParser().Parse(strings.NewReader(EscapeRawBytes(text)), "")
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
			for i := 0; i < len(call.Args); i++ {
				w := call.Args[i]
				lit, ok := w.Parts[0].(*syntax.Lit)
				if !ok || len(w.Parts) != 1 {
					return true
				}
				name := UnescapeRawBytes(lit.Value) // aliases are kept by their bytes
				if active[name] {
					return true
				}
				v, ok := r.aliases.m[name]
				if !ok {
					return true
				}
				spots = append(spots, spot{w.Pos().Offset(), w.End().Offset(), name, v})
				if !strings.HasSuffix(v, " ") && !strings.HasSuffix(v, "\t") {
					return true
				}
			}
			return true
		})
		slices.SortFunc(spots, func(a, b spot) int { return int(a.from) - int(b.from) })
		for i, sp := range spots {
			inner := maps.Clone(active)
			inner[sp.name] = true
			spots[i].value = expand(sp.value, inner)
		}
		for i := len(spots) - 1; i >= 0; i-- {
			text = text[:spots[i].from] + spots[i].value + text[spots[i].to:]
		}
		return text
	}
	return expand(text, map[string]bool{})
}

func aliasBuiltins() []*Builtin {
	return []*Builtin{
		{Name: "alias", Usage: "alias [-p] [name[=value] ... ]", Guarded: true, Run: builtinAlias},
		{Name: "unalias", Usage: "unalias [-a] name [name ...]", Guarded: true, Run: builtinUnalias},
	}
}

func builtinAlias(b *B) int {
	r := b.R
	f, args, ok := b.flags("p", false)
	if !ok {
		return 2
	}
	w := b.Stdout()
	if len(args) == 0 || f.has('p') {
		for _, name := range r.AliasNames() {
			b.Printf("alias %s=%s\n", name, singleQuote(r.aliases.m[name]))
		}
	}
	status := 0
	for _, a := range args {
		name, value, isDef := strings.Cut(a, "=")
		if !isDef {
			v, ok := r.aliases.m[name]
			if !ok {
				b.Errorf("%s: not found", name)
				status = 1
				continue
			}
			_, _ = w, v
			b.Printf("alias %s=%s\n", name, singleQuote(v))
			continue
		}
		if name == "" || strings.ContainsAny(name, " \t\n/$`'\"\\;|&<>()=") {
			b.Errorf("`%s': invalid alias name", name)
			status = 1
			continue
		}
		r.aliases.writable()[name] = value
	}
	return status
}

func builtinUnalias(b *B) int {
	r := b.R
	f, args, ok := b.flags("a", false)
	if !ok {
		return 2
	}
	if f.has('a') {
		r.aliases.m = map[string]string{}
		r.aliases.shared.Store(false)
		return 0
	}
	if len(args) == 0 {
		b.usage()
		return 2
	}
	status := 0
	for _, name := range args {
		if _, ok := r.aliases.m[name]; !ok {
			b.Errorf("%s: not found", name)
			status = 1
			continue
		}
		delete(r.aliases.writable(), name)
	}
	return status
}

// singleQuote quotes s in single quotes always, as alias -p does.
func singleQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
