// Package extglob matches strings against bash patterns with the extended
// operators of `shopt -s extglob` — ?(…) *(…) +(…) @(…) !(…) — as [[ == ]]
// and case do, !(…) anywhere in the pattern included, which interp's own
// matching does not do (it takes !(…) only between fixed text).
package extglob

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Pattern is a compiled pattern.
type Pattern struct {
	nodes []node
}

type kind uint8

const (
	lit   kind = iota // one character
	any1              // ?
	star              // *
	class             // […]
	group             // ?(…) *(…) +(…) @(…) !(…)
)

type node struct {
	kind kind
	r    rune     // lit
	cls  bracket  // class
	op   byte     // group: one of ?*+@!
	alts [][]node // group
}

// ErrSyntax is returned for a pattern with an unclosed group.
var ErrSyntax = errors.New("extglob: unclosed group")

// Compile parses pat. A bracket expression that does not close is taken
// literally, as bash does; an extended group that does not close is an
// error.
func Compile(pat string) (*Pattern, error) {
	nodes, rest, err := parseSeq(pat, false)
	if err != nil {
		return nil, err
	}
	if rest != "" {
		return nil, ErrSyntax
	}
	return &Pattern{nodes: nodes}, nil
}

// Match reports whether s matches pat entirely; a pattern that does not
// compile matches nothing.
func Match(pat, s string) bool {
	p, err := Compile(pat)
	return err == nil && p.Match(s)
}

// Match reports whether s matches the pattern entirely.
func (p *Pattern) Match(s string) bool { return matchSeq(p.nodes, s) }

// parseSeq parses a sequence up to the end of pat or, inGroup, up to a
// `|` or `)` at its level, which it leaves in rest.
func parseSeq(pat string, inGroup bool) (nodes []node, rest string, err error) {
	for len(pat) > 0 {
		c := pat[0]
		switch {
		case inGroup && (c == '|' || c == ')'):
			return nodes, pat, nil
		case strings.IndexByte("?*+@!", c) >= 0 && len(pat) > 1 && pat[1] == '(':
			g := node{kind: group, op: c}
			pat = pat[2:]
			for {
				var alt []node
				alt, pat, err = parseSeq(pat, true)
				if err != nil {
					return nil, "", err
				}
				g.alts = append(g.alts, alt)
				if pat == "" {
					return nil, "", ErrSyntax
				}
				if pat[0] == ')' {
					pat = pat[1:]
					break
				}
				pat = pat[1:] // |
			}
			nodes = append(nodes, g)
		case c == '?':
			nodes, pat = append(nodes, node{kind: any1}), pat[1:]
		case c == '*':
			if len(nodes) == 0 || nodes[len(nodes)-1].kind != star {
				nodes = append(nodes, node{kind: star})
			}
			pat = pat[1:]
		case c == '[':
			if b, n, ok := parseBracket(pat); ok {
				nodes, pat = append(nodes, node{kind: class, cls: b}), pat[n:]
				continue
			}
			nodes, pat = append(nodes, node{kind: lit, r: '['}), pat[1:]
		case c == '\\' && len(pat) > 1:
			r, size := utf8.DecodeRuneInString(pat[1:])
			nodes, pat = append(nodes, node{kind: lit, r: r}), pat[1+size:]
		default:
			r, size := utf8.DecodeRuneInString(pat)
			nodes, pat = append(nodes, node{kind: lit, r: r}), pat[size:]
		}
	}
	return nodes, "", nil
}

// bracket is a bracket expression: its items and whether it is negated.
type bracket struct {
	neg    bool
	ranges []rune // pairs: lo, hi
	named  []string
}

func (b bracket) match(r rune) bool {
	in := false
	for i := 0; i+1 < len(b.ranges); i += 2 {
		if b.ranges[i] <= r && r <= b.ranges[i+1] {
			in = true
			break
		}
	}
	for _, n := range b.named {
		if !in && namedClass(n, r) {
			in = true
		}
	}
	return in != b.neg
}

// parseBracket parses the bracket expression at the start of pat and
// returns its length; ok is false when it does not close.
func parseBracket(pat string) (b bracket, n int, ok bool) {
	i := 1
	if i < len(pat) && (pat[i] == '!' || pat[i] == '^') {
		b.neg = true
		i++
	}
	first := true
	for i < len(pat) {
		c := pat[i]
		if c == ']' && !first {
			return b, i + 1, true
		}
		first = false
		if c == '[' && i+1 < len(pat) && pat[i+1] == ':' {
			if end := strings.Index(pat[i+2:], ":]"); end >= 0 {
				b.named = append(b.named, pat[i+2:i+2+end])
				i += 2 + end + 2
				continue
			}
		}
		if c == '\\' && i+1 < len(pat) {
			i++
		}
		lo, size := utf8.DecodeRuneInString(pat[i:])
		i += size
		hi := lo
		if i+1 < len(pat) && pat[i] == '-' && pat[i+1] != ']' {
			i++
			if pat[i] == '\\' && i+1 < len(pat) {
				i++
			}
			hi, size = utf8.DecodeRuneInString(pat[i:])
			i += size
		}
		b.ranges = append(b.ranges, lo, hi)
	}
	return b, 0, false
}

func namedClass(name string, r rune) bool {
	switch name {
	case "alnum":
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	case "alpha":
		return unicode.IsLetter(r)
	case "blank":
		return r == ' ' || r == '\t'
	case "cntrl":
		return unicode.IsControl(r)
	case "digit":
		return '0' <= r && r <= '9'
	case "graph":
		return unicode.IsGraphic(r) && !unicode.IsSpace(r)
	case "lower":
		return unicode.IsLower(r)
	case "print":
		return unicode.IsPrint(r)
	case "punct":
		return unicode.IsPunct(r) || unicode.IsSymbol(r) && r < 0x80
	case "space":
		return unicode.IsSpace(r)
	case "upper":
		return unicode.IsUpper(r)
	case "xdigit":
		return strings.ContainsRune("0123456789abcdefABCDEF", r)
	case "word":
		return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	return false
}

// matchSeq reports whether s matches nodes entirely, trying every way the
// stars and groups may split it.
func matchSeq(nodes []node, s string) bool {
	for len(nodes) > 0 {
		n := nodes[0]
		switch n.kind {
		case lit, any1, class:
			r, size := utf8.DecodeRuneInString(s)
			if s == "" || n.kind == lit && r != n.r || n.kind == class && !n.cls.match(r) {
				return false
			}
			nodes, s = nodes[1:], s[size:]
			continue
		case star:
			if len(nodes) == 1 {
				return true
			}
			for k := 0; k <= len(s); k = next(s, k) {
				if matchSeq(nodes[1:], s[k:]) {
					return true
				}
			}
			return false
		case group:
			for k := 0; k <= len(s); k = next(s, k) {
				if matchGroup(n, s[:k]) && matchSeq(nodes[1:], s[k:]) {
					return true
				}
			}
			return false
		}
	}
	return s == ""
}

// next is the offset after the character at k, or past the end.
func next(s string, k int) int {
	if k >= len(s) {
		return k + 1
	}
	_, size := utf8.DecodeRuneInString(s[k:])
	return k + size
}

// matchGroup reports whether t, all of it, matches group g.
func matchGroup(g node, t string) bool {
	one := func(t string) bool {
		for _, alt := range g.alts {
			if matchSeq(alt, t) {
				return true
			}
		}
		return false
	}
	switch g.op {
	case '@':
		return one(t)
	case '?':
		return t == "" || one(t)
	case '!':
		return !one(t)
	case '*':
		if t == "" {
			return true
		}
	}
	// + and a non-empty *: one match, then more.
	if one(t) {
		return true
	}
	for k := next(t, 0); k < len(t); k = next(t, k) {
		if one(t[:k]) && matchGroup(node{kind: group, op: '+', alts: g.alts}, t[k:]) {
			return true
		}
	}
	return false
}

// QuoteMeta escapes the characters of s that a pattern treats specially,
// so that it matches s itself.
func QuoteMeta(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\*?[]()|!@+^-`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
