package pattern

import (
	"errors"
	"fmt"
)

// maxDepth bounds the nesting of extglob groups, so that a hostile pattern
// cannot exhaust the stack: bash has no limit, and no real pattern comes
// near this one.
const maxDepth = 1000

// ErrTooDeep is returned by [Compile] for groups nested deeper than anyone
// writes them.
var ErrTooDeep = errors.New("pattern: extglob groups nested too deeply")

type nodeKind uint8

const (
	nChar  nodeKind = iota // one character
	nAny                   // ?
	nStar                  // *
	nClass                 // […]
	nNone                  // a bracket expression bash gives up on: matches nothing
	nGroup                 // ?(…) *(…) +(…) @(…) !(…)
)

type node struct {
	kind nodeKind
	r    rune     // nChar, folded when the pattern ignores case (unless raw)
	raw  bool     // nChar: compared as it is
	cls  *class   // nClass
	op   byte     // nGroup: one of ?*+@!
	alts [][]node // nGroup
}

type parser struct {
	p    string
	cs   charset
	fold bool // NoCase
	ext  bool // ExtGlob
	b    brackets
}

func newParser(p string, cs charset, fold, ext bool) *parser {
	return &parser{p: p, cs: cs, fold: fold, ext: ext, b: brackets{p: p, cs: cs}}
}

// seq parses p[i:end] as a sequence of pattern elements.
func (ps *parser) seq(i, end, depth int) ([]node, error) {
	p := ps.p
	var nodes []node
	for i < end {
		c := p[i]
		if ps.ext && i+1 < end && p[i+1] == '(' && isGroupOp(c) {
			close := ps.scanGroup(i+2, end)
			if close < 0 {
				// bash compares the rest of a pattern whose group does not
				// close with the rest of the string, byte for byte.
				for i < end {
					r, size := ps.cs.decode(p[:end], i)
					nodes = append(nodes, node{kind: nChar, r: r, raw: true})
					i += size
				}
				return nodes, nil
			}
			if depth >= maxDepth {
				return nil, ErrTooDeep
			}
			g := node{kind: nGroup, op: c}
			for _, alt := range ps.splitAlternatives(i+2, close) {
				sub, err := ps.seq(alt[0], alt[1], depth+1)
				if err != nil {
					return nil, err
				}
				g.alts = append(g.alts, sub)
			}
			nodes = append(nodes, g)
			i = close + 1
			continue
		}
		switch c {
		case '*':
			if len(nodes) == 0 || nodes[len(nodes)-1].kind != nStar {
				nodes = append(nodes, node{kind: nStar})
			}
			i++
		case '?':
			nodes = append(nodes, node{kind: nAny})
			i++
		case '[':
			cls, next, res := ps.b.parse(i, end, ps.fold)
			switch res {
			case bracketOK:
				nodes = append(nodes, node{kind: nClass, cls: cls})
				i = next
			case bracketUnclosed:
				nodes = append(nodes, ps.char('['))
				i++
			case bracketFail:
				return append(nodes, node{kind: nNone}), nil
			}
		case '\\':
			if i+1 >= end {
				// A backslash at the end stands for itself.
				nodes = append(nodes, ps.char('\\'))
				i++
				break
			}
			r, size := ps.cs.decode(p[:end], i+1)
			nodes = append(nodes, ps.char(r))
			i += 1 + size
		default:
			r, size := ps.cs.decode(p[:end], i)
			nodes = append(nodes, ps.char(r))
			i += size
		}
	}
	return nodes, nil
}

func (ps *parser) char(r rune) node {
	if ps.fold {
		r = ps.cs.fold(r)
	}
	return node{kind: nChar, r: r}
}

func isGroupOp(c byte) bool {
	return c == '?' || c == '*' || c == '+' || c == '@' || c == '!'
}

// scanGroup returns the index of the ')' that closes the group whose
// pattern list starts at p[i], or -1 if it does not close before end. As in
// bash, every '(' nests (not only a group's), a backslash quotes, and a
// bracket expression hides what it holds — one that does not close hides the
// rest of the pattern, so the group does not close either.
func (ps *parser) scanGroup(i, end int) int {
	p := ps.p
	depth := 0
	for j := i; j < end; j++ {
		switch p[j] {
		case '\\':
			j++
		case '[':
			if j = skipBracket(p, j, end); j < 0 {
				return -1
			}
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return j
			}
			depth--
		}
	}
	return -1
}

// splitAlternatives splits the pattern list p[i:end] at the '|' outside
// parentheses, brackets and quoting.
func (ps *parser) splitAlternatives(i, end int) [][2]int {
	p := ps.p
	var alts [][2]int
	depth, start := 0, i
	for j := i; j < end; j++ {
		switch p[j] {
		case '\\':
			j++
		case '[':
			if k := skipBracket(p, j, end); k >= 0 {
				j = k
			}
		case '(':
			depth++
		case ')':
			depth--
		case '|':
			if depth == 0 {
				alts = append(alts, [2]int{start, j})
				start = j + 1
			}
		}
	}
	return append(alts, [2]int{start, end})
}

// skipBracket returns the index of the ']' that ends the bracket expression
// at p[i], as bash finds it when it looks for the end of a group (not quite
// as it reads the bracket: the first ']' ends it that neither comes first nor
// closes a [: [. [= opened in it), or -1 if there is none before end.
func skipBracket(p string, i, end int) int {
	first := i + 1
	if first < end && (p[first] == '!' || p[first] == '^') {
		first++
	}
	var special byte // the ':' '.' or '=' of an open [: [. [=
	for j := i + 1; j < end; j++ {
		switch p[j] {
		case '\\':
			j++
		case '[':
			if j+1 < end && (p[j+1] == ':' || p[j+1] == '.' || p[j+1] == '=') {
				special = p[j+1]
			}
		case ']':
			switch {
			case special != 0 && p[j-1] == special:
				special = 0
			case j != first:
				return j
			}
		}
	}
	return -1
}

func (n node) String() string {
	switch n.kind {
	case nChar:
		return fmt.Sprintf("%q", n.r)
	case nAny:
		return "?"
	case nStar:
		return "*"
	case nClass:
		return "[…]"
	case nNone:
		return "∅"
	}
	s := string(n.op) + "("
	for i, alt := range n.alts {
		if i > 0 {
			s += "|"
		}
		for _, sub := range alt {
			s += sub.String()
		}
	}
	return s + ")"
}
