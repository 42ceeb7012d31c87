package danger

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Arithmetic expansion, $(( … )) and array subscripts, evaluated as bash
// does with 64-bit integers that wrap, when every value in it is known.
// Whatever is not known, or would change a variable or fail in bash
// (i++, x=1, 1/0), makes the result unknown.

// maxArithRefs bounds how far a variable's value is followed as the name
// of another (x=y; y=z; $((x))).
const maxArithRefs = 64

// arithText is the text $(( x )) expands to: the number, or a hole.
func (w *walker) arithText(x syntax.ArithmExpr) string {
	if n, ok := w.arith(x); ok {
		return strconv.FormatInt(n, 10)
	}
	return hole
}

// arith evaluates x; ok is false when its value cannot be known.
func (w *walker) arith(x syntax.ArithmExpr) (int64, bool) {
	switch x := x.(type) {
	case *syntax.Word:
		s, ok := w.expandLiteral(x)
		if !ok {
			return 0, false
		}
		return w.arithValue(s, 0)
	case *syntax.ParenArithm:
		return w.arith(x.X)
	case *syntax.UnaryArithm:
		if x.Op == syntax.Inc || x.Op == syntax.Dec {
			return 0, false // changes a variable
		}
		n, ok := w.arith(x.X)
		if !ok {
			return 0, false
		}
		switch x.Op {
		case syntax.Not:
			return boolInt(n == 0), true
		case syntax.BitNegation:
			return ^n, true
		case syntax.Plus:
			return n, true
		case syntax.Minus:
			return -n, true
		}
	case *syntax.BinaryArithm:
		return w.binArith(x)
	}
	return 0, false
}

func (w *walker) binArith(x *syntax.BinaryArithm) (int64, bool) {
	switch x.Op {
	case syntax.TernQuest:
		cond, ok := w.arith(x.X)
		branches, isColon := x.Y.(*syntax.BinaryArithm)
		if !ok || !isColon || branches.Op != syntax.TernColon {
			return 0, false
		}
		if cond != 0 {
			return w.arith(branches.X)
		}
		return w.arith(branches.Y)
	case syntax.AndArit, syntax.OrArit:
		l, ok := w.arith(x.X)
		switch {
		case !ok:
			return 0, false
		case x.Op == syntax.AndArit && l == 0:
			return 0, true
		case x.Op == syntax.OrArit && l != 0:
			return 1, true
		}
		r, ok := w.arith(x.Y)
		return boolInt(r != 0), ok
	}
	l, ok := w.arith(x.X)
	if !ok {
		return 0, false
	}
	r, ok := w.arith(x.Y)
	if !ok {
		return 0, false
	}
	switch x.Op {
	case syntax.Add:
		return l + r, true
	case syntax.Sub:
		return l - r, true
	case syntax.Mul:
		return l * r, true
	case syntax.Quo:
		if r == 0 {
			return 0, false
		}
		return l / r, true
	case syntax.Rem:
		if r == 0 {
			return 0, false
		}
		return l % r, true
	case syntax.Pow:
		if r < 0 {
			return 0, false
		}
		p := int64(1)
		for ; r > 0; r >>= 1 {
			if r&1 != 0 {
				p *= l
			}
			l *= l
		}
		return p, true
	case syntax.Eql:
		return boolInt(l == r), true
	case syntax.Neq:
		return boolInt(l != r), true
	case syntax.Lss:
		return boolInt(l < r), true
	case syntax.Leq:
		return boolInt(l <= r), true
	case syntax.Gtr:
		return boolInt(l > r), true
	case syntax.Geq:
		return boolInt(l >= r), true
	case syntax.And:
		return l & r, true
	case syntax.Or:
		return l | r, true
	case syntax.Xor:
		return l ^ r, true
	case syntax.Shl:
		if r < 0 {
			return 0, false
		}
		return l << (r & 63), true
	case syntax.Shr:
		if r < 0 {
			return 0, false
		}
		return l >> (r & 63), true
	case syntax.Comma:
		return r, true
	}
	return 0, false // assignments, and operators bash does not have
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// arithValue is the number a string stands for in arithmetic: a number,
// or the name of a variable whose value is one (followed as bash does).
// An expression held in a variable is not worked out.
func (w *walker) arithValue(s string, depth int) (int64, bool) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return 0, true
	case hasHole(s), depth > maxArithRefs:
		return 0, false
	case syntax.ValidName(s):
		v := w.param(s).str()
		if hasHole(v) {
			return 0, false
		}
		return w.arithValue(v, depth+1)
	}
	return parseArithNumber(s)
}

// parseArithNumber reads a number as bash does: decimal, 0x hex, 0 octal,
// BASE#DIGITS (bases 2 to 64), with a sign.
func parseArithNumber(s string) (int64, bool) {
	neg := false
	switch {
	case strings.HasPrefix(s, "-"):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	base := uint64(10)
	switch {
	case len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X"):
		base, s = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	default:
		if b, digits, ok := strings.Cut(s, "#"); ok {
			n, err := strconv.ParseUint(b, 10, 8)
			if err != nil || n < 2 || n > 64 {
				return 0, false
			}
			base, s = n, digits
		}
	}
	if s == "" {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		var d uint64
		switch c := s[i]; {
		case '0' <= c && c <= '9':
			d = uint64(c - '0')
		case 'a' <= c && c <= 'z':
			d = uint64(c-'a') + 10
		case 'A' <= c && c <= 'Z':
			d = uint64(c-'A') + 10
			if base > 36 {
				d += 26
			}
		case c == '@':
			d = 62
		case c == '_':
			d = 63
		default:
			return 0, false
		}
		if d >= base {
			return 0, false
		}
		n = n*base + d // wraps as bash does
	}
	if neg {
		return -int64(n), true
	}
	return int64(n), true
}
