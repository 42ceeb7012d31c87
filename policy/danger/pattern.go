package danger

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Patterns of parameter expansion (${x#*/}, ${x/pat/with}, ${x^^[a-f]}):
// * matches any string, / included; ? one character; [...] one of a set
// ([!...] and [^...] none of it, ranges, [:classes:]); \ quotes. Matching
// runs the pattern as an automaton over the string, so that every prefix
// that matches is found in one pass.

type tokKind uint8

const (
	tokRune  tokKind = iota // the rune itself
	tokAny                  // ?
	tokStar                 // *
	tokClass                // [...]
)

type tok struct {
	kind tokKind
	r    rune
	// class: the set, as pairs of rune ranges and named classes.
	ranges  []rune
	classes []string
	negate  bool
}

func (t *tok) matches(r rune) bool {
	switch t.kind {
	case tokRune:
		return r == t.r
	case tokAny:
		return true
	case tokClass:
		in := false
		for i := 0; i+1 < len(t.ranges); i += 2 {
			if t.ranges[i] <= r && r <= t.ranges[i+1] {
				in = true
				break
			}
		}
		for _, c := range t.classes {
			in = in || charClass(c, r)
		}
		return in != t.negate
	}
	return false
}

func charClass(name string, r rune) bool {
	switch name {
	case "alpha":
		return unicode.IsLetter(r)
	case "digit":
		return '0' <= r && r <= '9'
	case "alnum":
		return unicode.IsLetter(r) || unicode.IsDigit(r)
	case "upper":
		return unicode.IsUpper(r)
	case "lower":
		return unicode.IsLower(r)
	case "space":
		return unicode.IsSpace(r)
	case "blank":
		return r == ' ' || r == '\t'
	case "punct":
		return unicode.IsPunct(r) || unicode.IsSymbol(r) && r < 128
	case "xdigit":
		return strings.ContainsRune("0123456789abcdefABCDEF", r)
	case "cntrl":
		return unicode.IsControl(r)
	case "print":
		return unicode.IsPrint(r)
	case "graph":
		return unicode.IsPrint(r) && r != ' '
	case "word":
		return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	return false
}

// compile reads a pattern into tokens.
func compile(pat string) []tok {
	var toks []tok
	for i := 0; i < len(pat); {
		r, size := utf8.DecodeRuneInString(pat[i:])
		switch r {
		case '*':
			if len(toks) == 0 || toks[len(toks)-1].kind != tokStar {
				toks = append(toks, tok{kind: tokStar})
			}
		case '?':
			toks = append(toks, tok{kind: tokAny})
		case '\\':
			if i+size < len(pat) {
				i += size
				r, size = utf8.DecodeRuneInString(pat[i:])
			}
			toks = append(toks, tok{kind: tokRune, r: r})
		case '[':
			if t, n := compileClass(pat[i+1:]); n > 0 {
				toks = append(toks, t)
				i += 1 + n
				continue
			}
			toks = append(toks, tok{kind: tokRune, r: r})
		default:
			toks = append(toks, tok{kind: tokRune, r: r})
		}
		i += size
	}
	return toks
}

// compileClass reads a bracket expression after its [, returning the
// bytes read up to and with its ]; 0 when it is not closed (a lone [
// matches itself).
func compileClass(s string) (tok, int) {
	t := tok{kind: tokClass}
	i := 0
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		t.negate = true
		i++
	}
	first := true
	for i < len(s) {
		if s[i] == ']' && !first {
			return t, i + 1
		}
		first = false
		if strings.HasPrefix(s[i:], "[:") {
			if end := strings.Index(s[i+2:], ":]"); end >= 0 {
				t.classes = append(t.classes, s[i+2:i+2+end])
				i += end + 4
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == '\\' && i+size < len(s) {
			i += size
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		lo, hi := r, r
		if i+1 < len(s) && s[i] == '-' && s[i+1] != ']' {
			h, hsize := utf8.DecodeRuneInString(s[i+1:])
			hi = h
			i += 1 + hsize
		}
		t.ranges = append(t.ranges, lo, hi)
	}
	return tok{}, 0
}

// prefixes calls found with the length in bytes of each prefix of s that
// toks match, shortest first, until found returns false.
func prefixes(toks []tok, s string, found func(n int) bool) {
	on := make([]bool, len(toks)+1)
	next := make([]bool, len(toks)+1)
	on[0] = true
	closure(toks, on)
	for i := 0; ; {
		if on[len(toks)] && !found(i) {
			return
		}
		if i == len(s) {
			return
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		clear(next)
		alive := false
		for p, t := range toks {
			if !on[p] {
				continue
			}
			switch {
			case t.kind == tokStar:
				next[p] = true
				alive = true
			case t.matches(r):
				next[p+1] = true
				alive = true
			}
		}
		if !alive {
			return
		}
		closure(toks, next)
		on, next = next, on
		i += size
	}
}

// closure adds the states a * can skip to: it matches the empty string.
func closure(toks []tok, on []bool) {
	for p, t := range toks {
		if on[p] && t.kind == tokStar {
			on[p+1] = true
		}
	}
}

// match reports whether pat matches all of s.
func match(pat, s string) bool {
	ok := false
	prefixes(compile(pat), s, func(n int) bool {
		ok = n == len(s)
		return !ok
	})
	return ok
}

// longestPrefix is the length of the longest prefix of s that the
// pattern matches, or -1.
func longestPrefix(toks []tok, s string) int {
	n := -1
	prefixes(toks, s, func(i int) bool { n = i; return true })
	return n
}

// longestSuffix is where the longest suffix of s that pat matches
// starts, or -1.
func longestSuffix(s, pat string) int {
	n := -1
	rs, toks := reversed(s), compile(pat)
	slices.Reverse(toks)
	prefixes(toks, rs, func(i int) bool { n = i; return true })
	if n < 0 {
		return -1
	}
	return len(s) - n
}

// removeMatch is ${s#pat} (and ##, %, %%): s without the shortest or
// longest prefix or suffix pat matches.
func removeMatch(s, pat string, suffix, shortest bool) string {
	toks := compile(pat)
	str := s
	if suffix {
		str = reversed(s)
		slices.Reverse(toks)
	}
	n := -1
	prefixes(toks, str, func(i int) bool { n = i; return !shortest })
	switch {
	case n < 0:
		return s
	case suffix:
		return s[:len(s)-n]
	}
	return s[n:]
}

// reversed is s with its runes in the opposite order.
func reversed(s string) string {
	b := make([]byte, 0, len(s))
	for i := len(s); i > 0; {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		b = append(b, s[i-size:i]...)
		i -= size
	}
	return string(b)
}

// quoteMeta escapes the pattern characters of s, so that it matches
// itself.
func quoteMeta(s string) string {
	if !strings.ContainsAny(s, `*?[\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`*?[\`, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
