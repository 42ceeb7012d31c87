package danger

import (
	"slices"

	"mvdan.cc/sh/v3/syntax"
)

// A variable not known before running may be unset, so ${x:-word} may be
// word: the default (and alternate, and assigned) words are among the
// values a command line can take, and are judged too.

// defaultArgs expands the words with each ${x:-word}, ${x-word},
// ${x:=word} and ${x:+word} of a variable not known before running taken
// as its word; nil when there is none.
func (w *walker) defaultArgs(words []*syntax.Word) []arg {
	var alt []*syntax.Word
	for i, word := range words {
		if d, ok := w.withDefaults(word.Parts); ok {
			if alt == nil {
				alt = slices.Clone(words)
			}
			alt[i] = &syntax.Word{Parts: d}
		}
	}
	// $X where X=${X:-rm} was assigned: X may hold the default.
	f := w
	if len(w.alts) > 0 && slices.ContainsFunc(words, w.usesAlt) {
		f = w.clone()
		for k, v := range w.alts {
			f.vars[k] = v
		}
		if alt == nil {
			alt = words
		}
	}
	if alt == nil {
		return nil
	}
	var args []arg
	for _, word := range alt {
		args = append(args, f.fields(word)...)
	}
	return args
}

// usesAlt reports whether word expands a variable with a known default
// value (see walker.alts).
func (w *walker) usesAlt(word *syntax.Word) bool {
	found := false
	syntax.Walk(word, func(n syntax.Node) bool {
		if p, ok := n.(*syntax.ParamExp); ok && p.Param != nil && w.alts[p.Param.Value] != "" {
			found = true
		}
		return !found
	})
	return found
}

// withDefaults is parts with the default words put in (see defaultArgs),
// and whether anything changed.
func (w *walker) withDefaults(parts []syntax.WordPart) ([]syntax.WordPart, bool) {
	var out []syntax.WordPart
	changed := false
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.DblQuoted:
			if inner, ok := w.withDefaults(p.Parts); ok {
				out = append(out, &syntax.DblQuoted{Left: p.Left, Right: p.Right, Dollar: p.Dollar, Parts: inner})
				changed = true
				continue
			}
		case *syntax.ParamExp:
			if w.unknownDefault(p) {
				if p.Exp.Word != nil {
					out = append(out, p.Exp.Word.Parts...)
				}
				changed = true
				continue
			}
		}
		out = append(out, p)
	}
	return out, changed
}

// unknownDefault reports whether p is ${x:-word} or the like with x not
// known before running.
func (w *walker) unknownDefault(p *syntax.ParamExp) bool {
	if p.Exp == nil || p.Excl || p.Index != nil || p.Param == nil {
		return false
	}
	switch p.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AlternateUnset,
		syntax.AlternateUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
		v := w.param(p.Param.Value)
		return !v.isList && v.s == hole
	}
	return false
}
