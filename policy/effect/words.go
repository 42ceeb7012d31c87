package effect

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Expander is the shell a preview's words expand in: a copy of the
// user's that runs nothing (its command and process substitutions fail),
// so that the preview sees the words as the command would get them — the
// session's variables, options and functions — and what the line itself
// assigns changes the copy only. cmd/qsh makes one from the evaluator's
// dry copy; this package needs nothing else of the shell.
type Expander struct {
	// Fields expands words as a command's arguments run in dir: braces,
	// parameters, arithmetic, splitting, globs (read from dir). It fails
	// for a substitution, an expansion error, or when ctx ended before
	// the globs were all read.
	Fields func(ctx context.Context, dir string, words ...*syntax.Word) ([]string, error)
	// Literal expands a word as an assignment's value: no splitting, no
	// globs.
	Literal func(ctx context.Context, dir string, w *syntax.Word) (string, error)
	// Set assigns a string to a variable, as name=value does; Unset
	// removes one, as unset does. nil: the line's assignments are not
	// followed, and the variables keep the shell's values.
	Set   func(name, value string) error
	Unset func(name string) error
	// IsFunc reports whether a name is one of the shell's functions,
	// which a command of that name runs. nil: none is.
	IsFunc func(name string) bool
	// Subshell is a copy of this shell, for what runs in a subshell, whose
	// assignments stay there. nil: they reach this shell.
	Subshell func() Expander
}

// maxFields bounds the words a command expands to: brace expansion can
// make billions ({1..1000000000}, {a,b}{a,b}…), which are not made.
const maxFields = 4096

// fields expands words as the shell would, or fails: a substitution, an
// error, more than maxFields words, or the budget spent on globs.
func (p *previewer) fields(words []*syntax.Word) ([]string, bool) {
	n := 0
	for _, w := range words {
		if n += braceWords(w, maxFields); n > maxFields {
			return nil, false
		}
	}
	out, err := p.x.Fields(p.ctx, p.dir, words...)
	if err != nil || len(out) > maxFields {
		return nil, false
	}
	if p.ctx.Err() != nil && slices.ContainsFunc(words, mayGlob) {
		return nil, false // a glob cut short would be taken for no match
	}
	return out, true
}

// literal expands a word as an assignment's value.
func (p *previewer) literal(w *syntax.Word) (string, error) {
	if w == nil {
		return "", nil
	}
	return p.x.Literal(p.ctx, p.dir, w)
}

// param is the value of the variable name ("" when unset).
func (p *previewer) param(name string) string {
	s, err := p.literal(&syntax.Word{Parts: []syntax.WordPart{&syntax.ParamExp{Param: &syntax.Lit{Value: name}}}})
	if err != nil {
		return unknownValue
	}
	return s
}

// unknownValue stands for a value the preview cannot know (set by a
// command substitution, read, a loop): a command whose words hold it is
// left out. NUL is in no value a shell variable holds, in no IFS, and no
// glob matches it; several, so that a substring keeps one.
const unknownValue = "\x00\x00\x00\x00\x00\x00\x00\x00"

// unknown reports whether s holds a value the preview cannot know.
func unknown(s string) bool { return strings.Contains(s, "\x00") }

// set assigns a variable for the words after it, if the shell lets it:
// a readonly one keeps its value, as it would.
func (p *previewer) set(name, value string) {
	if p.x.Set != nil {
		p.x.Set(name, value)
	}
}

// forget makes a variable's value unknown, whatever its attributes
// (an integer, an array, a reference) would make of an assignment.
func (p *previewer) forget(name string) {
	if p.x.Set == nil {
		return
	}
	if p.x.Set(name, unknownValue) == nil && p.isUnknown(name) {
		return
	}
	if p.x.Unset != nil && p.x.Unset(name) == nil {
		p.x.Set(name, unknownValue)
	}
}

// isUnknown reports whether every element of name is unknown now: an
// assignment to an array sets its first element only.
func (p *previewer) isUnknown(name string) bool {
	w := &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{&syntax.ParamExp{
		Param: &syntax.Lit{Value: name}, Index: &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: "*"}}}}}}}}
	s, err := p.literal(w)
	return err == nil && strings.Trim(s, "\x00") == ""
}

// assign follows one assignment of the line: its value expanded, or
// unknown when it cannot be (a substitution) or is not a string's.
func (p *previewer) assign(a *syntax.Assign) {
	if a.Name == nil || a.Naked {
		return
	}
	name := a.Name.Value
	if a.Array != nil || a.Index != nil || a.Append {
		p.forget(name)
		return
	}
	v, err := p.literal(a.Value)
	if err != nil {
		p.forget(name)
		return
	}
	p.set(name, v)
}

// declare follows declare, export, local, readonly and typeset: their
// assignments, when plain; with options (-i, -n, -a…) what they assign
// is not followed.
func (p *previewer) declare(c *syntax.DeclClause) {
	if c.Variant.Value == "local" {
		return // outside a function: an error, nothing assigned
	}
	options := false
	for _, a := range c.Args {
		options = options || a.Name == nil
	}
	for _, a := range c.Args {
		switch {
		case a.Name == nil:
		case options:
			p.forget(a.Name.Value)
		default:
			p.assign(a)
		}
	}
}

// arithm evaluates an arithmetic command for what it assigns (((n=5)),
// let i++); when it cannot, the names it assigns are unknown.
func (p *previewer) arithm(x syntax.ArithmExpr) {
	w := &syntax.Word{Parts: []syntax.WordPart{&syntax.ArithmExp{X: x}}}
	if _, err := p.literal(w); err != nil {
		p.forgetAssigned(x)
	}
}

// forgetAssigned forgets the variables an arithmetic expression (or a
// C-style loop's) assigns.
func (p *previewer) forgetAssigned(n syntax.Node) {
	syntax.Walk(n, func(n syntax.Node) bool {
		var x syntax.ArithmExpr
		switch n := n.(type) {
		case *syntax.BinaryArithm:
			switch n.Op {
			case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
				syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn:
				x = n.X
			}
		case *syntax.UnaryArithm:
			if n.Op == syntax.Inc || n.Op == syntax.Dec {
				x = n.X
			}
		}
		if w, ok := x.(*syntax.Word); ok {
			if name := w.Lit(); name != "" {
				p.forget(strings.SplitN(name, "[", 2)[0])
			}
		}
		return true
	})
}

// mayGlob reports whether a word may hold a glob: a pattern character or
// an expansion outside quotes.
func mayGlob(w *syntax.Word) bool {
	for _, part := range w.Parts {
		switch part := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(part.Value, "*?[") {
				return true
			}
		case *syntax.ExtGlob, *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp:
			return true
		}
	}
	return false
}

// braceWords is how many words w's brace expressions make, counted up to
// just past limit without making them: the shell would make them all
// before it could be stopped.
func braceWords(w *syntax.Word, limit int) int {
	for _, part := range w.Parts {
		if l, ok := part.(*syntax.Lit); ok && strings.Contains(l.Value, "{") {
			c := &syntax.Word{Parts: w.Parts} // SplitBraces changes the word
			syntax.SplitBraces(c)
			return countBraces(c.Parts, limit)
		}
	}
	return 1
}

func countBraces(parts []syntax.WordPart, limit int) int {
	n := 1
	for _, part := range parts {
		be, ok := part.(*syntax.BraceExp)
		if !ok {
			continue
		}
		alts := 0
		if be.Sequence {
			alts = sequenceLen(be, limit)
		} else {
			for _, e := range be.Elems {
				if alts += countBraces(e.Parts, limit); alts > limit {
					break
				}
			}
		}
		if n = n * max(alts, 1); n > limit {
			return limit + 1
		}
	}
	return n
}

// sequenceLen is how many words {x..y[..incr]} makes, up to just past
// limit.
func sequenceLen(be *syntax.BraceExp, limit int) int {
	lits := make([]string, len(be.Elems))
	for i, e := range be.Elems {
		lits[i] = e.Lit()
	}
	incr := uint64(1)
	if len(lits) == 3 {
		n, err := strconv.ParseInt(lits[2], 10, 64)
		if err != nil {
			return 1
		}
		if n < 0 {
			n = -n
		}
		incr = max(uint64(n), 1)
	}
	var span uint64
	a, errA := strconv.ParseInt(lits[0], 10, 64)
	b, errB := strconv.ParseInt(lits[1], 10, 64)
	ra, na := utf8.DecodeRuneInString(lits[0])
	rb, nb := utf8.DecodeRuneInString(lits[1])
	switch {
	case errA == nil && errB == nil:
		span = uint64(max(a, b)) - uint64(min(a, b))
	case na == len(lits[0]) && nb == len(lits[1]) && na > 0 && nb > 0:
		span = uint64(max(ra, rb) - min(ra, rb))
	default:
		return 1
	}
	if n := span/incr + 1; n > 0 && n <= uint64(limit) {
		return int(n)
	}
	return limit + 1
}
