package eval

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxBraceWords bounds what one brace expansion may make: bash has no
// bound but memory; qsh stops with an error before it runs out.
const maxBraceWords = 1 << 22

// braces expands the brace expressions of a word: the words it stands
// for, in order. The tree is shared (by subshells running at once), so the
// word is split into [syntax.BraceExp] parts in a copy.
func (r *Runner) braces(w *syntax.Word) []*syntax.Word {
	if !r.opts.set[optBraceexpand] || !mayBrace(w) {
		return []*syntax.Word{w}
	}
	w = &syntax.Word{Parts: w.Parts}
	if !syntax.SplitBraces(w) || !hasBrace(w) {
		return []*syntax.Word{w}
	}
	return r.braceWords(w)
}

// braceWords expands a word whose brace expressions are split into
// [syntax.BraceExp] parts already.
func (r *Runner) braceWords(w *syntax.Word) []*syntax.Word {
	var out []*syntax.Word
	count := 0
	var expand func(prefix []syntax.WordPart, rest []syntax.WordPart)
	expand = func(prefix []syntax.WordPart, rest []syntax.WordPart) {
		for i, p := range rest {
			be, ok := p.(*syntax.BraceExp)
			if !ok {
				continue
			}
			head := append(append([]syntax.WordPart(nil), prefix...), rest[:i]...)
			tail := rest[i+1:]
			for _, alt := range r.braceAlternatives(be) {
				expand(append(append([]syntax.WordPart(nil), head...), alt...), tail)
			}
			return
		}
		count++
		if count%1024 == 0 && r.ctx.Err() != nil {
			panic(abort{status: 1})
		}
		if count > maxBraceWords {
			r.errorf("brace expansion: too many words (more than %d)", maxBraceWords)
			panic(abort{status: 1})
		}
		parts := append(append([]syntax.WordPart(nil), prefix...), rest...)
		if len(parts) == 0 {
			return // an empty word from braces vanishes, as in bash
		}
		out = append(out, &syntax.Word{Parts: parts})
	}
	expand(nil, w.Parts)
	return out
}

// mayBrace reports whether a word has a literal {, without which it has
// no brace expression.
func mayBrace(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.Contains(l.Value, "{") {
			return true
		}
	}
	return false
}

func hasBrace(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if _, ok := p.(*syntax.BraceExp); ok {
			return true
		}
	}
	return false
}

// braceAlternatives are the parts each alternative of a brace expression
// stands for.
func (r *Runner) braceAlternatives(be *syntax.BraceExp) [][]syntax.WordPart {
	if be.Sequence {
		return r.braceSequence(be)
	}
	alts := make([][]syntax.WordPart, 0, len(be.Elems))
	for _, e := range be.Elems {
		// An element may itself hold braces: {a,b{1,2}}.
		for _, ew := range r.braceWords(e) {
			alts = append(alts, ew.Parts)
		}
		if len(e.Parts) == 0 {
			alts = append(alts, nil)
		}
	}
	return alts
}

// braceSequence is {x..y[..incr]}: numbers (zero-padded to the widest
// when one is written with leading zeros) or letters.
func (r *Runner) braceSequence(be *syntax.BraceExp) [][]syntax.WordPart {
	lits := make([]string, len(be.Elems))
	for i, e := range be.Elems {
		lits[i] = e.Lit()
	}
	lit := func(s string) []syntax.WordPart { return []syntax.WordPart{&syntax.Lit{Value: s}} }
	incr := int64(1)
	if len(lits) == 3 {
		n, err := strconv.ParseInt(lits[2], 10, 64)
		if err != nil {
			return [][]syntax.WordPart{lit(braceText(be))}
		}
		incr = n
	}
	if incr < 0 {
		incr = -incr
	}
	if incr == 0 {
		incr = 1
	}
	var out [][]syntax.WordPart
	add := func(s string) {
		if len(out) >= maxBraceWords {
			r.errorf("brace expansion: too many words (more than %d)", maxBraceWords)
			panic(abort{status: 1})
		}
		out = append(out, lit(s))
	}
	a, errA := strconv.ParseInt(lits[0], 10, 64)
	b, errB := strconv.ParseInt(lits[1], 10, 64)
	if errA == nil && errB == nil {
		width := 0
		if padded(lits[0]) || padded(lits[1]) {
			width = max(len(lits[0]), len(lits[1]))
		}
		format := func(n int64) string {
			s := strconv.FormatInt(n, 10)
			if width == 0 {
				return s
			}
			neg := strings.HasPrefix(s, "-")
			s = strings.TrimPrefix(s, "-")
			w := width
			if neg {
				w--
			}
			for len(s) < w {
				s = "0" + s
			}
			if neg {
				s = "-" + s
			}
			return s
		}
		if a <= b {
			for n := a; n <= b; n += incr {
				add(format(n))
				if n > b-incr {
					break
				}
			}
		} else {
			for n := a; n >= b; n -= incr {
				add(format(n))
				if n < b+incr {
					break
				}
			}
		}
		return out
	}
	if len(lits[0]) == 1 && len(lits[1]) == 1 && isLetter(lits[0][0]) && isLetter(lits[1][0]) {
		x, y := int64(lits[0][0]), int64(lits[1][0])
		if x <= y {
			for c := x; c <= y; c += incr {
				add(string(rune(c)))
			}
		} else {
			for c := x; c >= y; c -= incr {
				add(string(rune(c)))
			}
		}
		return out
	}
	return [][]syntax.WordPart{lit(braceText(be))}
}

func padded(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return len(s) > 1 && s[0] == '0'
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
