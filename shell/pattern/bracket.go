package pattern

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// class is a bracket expression: […] or [!…].
type class struct {
	negate bool
	ranges []charRange // single characters are ranges of one; folded when the pattern ignores case
	named  []charClass
	bytes  bool // the subject is read byte by byte: named classes are ASCII's
}

type charRange struct{ lo, hi rune }

// has reports whether the character c (fc when folded) is in the class.
// Named classes test c as it is: bash's [[:upper:]] never matches "a", not
// even under nocasematch.
func (cl *class) has(c, fc rune) bool {
	for _, r := range cl.ranges {
		if r.lo <= fc && fc <= r.hi {
			return !cl.negate
		}
	}
	for _, n := range cl.named {
		if n.has(c, cl.bytes) {
			return !cl.negate
		}
	}
	return cl.negate
}

// bracketResult says how a bracket expression parsed.
type bracketResult uint8

const (
	bracketOK       bracketResult = iota
	bracketUnclosed               // no closing ]: the [ is a literal character
	bracketFail                   // bash gives up on the whole match here ([a- at the end, [\ …)
)

// parse parses the bracket expression at p[i] == '['. It returns the
// index after the closing ']'. Its rules are bash 5.2's as observed (bash's
// tests are the reference): ] first is a member; ! or ^ first negates; a
// backslash quotes; [:name:] is a character class and an unknown name
// matches nothing; [=c=] is c (a longer name matches nothing); [.c.] and
// [.name.] (POSIX's names of the portable character set) are c, and may
// start or end a range; a [: or [= that is never closed leaves its [ out
// (for [:) or in (for [=) and reads on; an unterminated [. leaves the
// whole bracket unclosed. A range whose end is missing fails the match, as
// does a backslash at the end of the pattern; a range whose end is below its
// start matches nothing.
func (b *brackets) parse(i, end int, fold bool) (*class, int, bracketResult) {
	p, cs := b.p[:end], b.cs
	// Where a bracket that does not close ends up depends only on where its
	// members start, so outcomes are remembered by position: a pattern of
	// thousands of [ parses in linear time.
	var visited []int
	unclosed := func(res bracketResult) (*class, int, bracketResult) {
		if end == len(b.p) {
			if b.outcome == nil {
				b.outcome = make([]bracketResult, len(b.p)+1)
			}
			for _, v := range visited {
				b.outcome[v] = res
			}
		}
		return nil, 0, res
	}
	cl := &class{bytes: cs.bytes}
	j := i + 1
	if j < len(p) && (p[j] == '!' || p[j] == '^') {
		cl.negate = true
		j++
	}
	add := func(lo, hi rune) {
		if fold {
			lo, hi = cs.fold(lo), cs.fold(hi)
		}
		if lo <= hi {
			cl.ranges = append(cl.ranges, charRange{lo, hi})
		}
	}
	for first := true; ; first = false {
		if !first && end == len(b.p) {
			if b.outcome != nil && b.outcome[j] != bracketOK {
				return unclosed(b.outcome[j])
			}
			visited = append(visited, j)
		}
		if j >= len(p) {
			return unclosed(bracketUnclosed)
		}
		c := p[j]
		if c == ']' && !first {
			return cl, j + 1, bracketOK
		}
		var lo rune
		loValid := true
		switch {
		case c == '[' && j+1 < len(p) && p[j+1] == ':':
			end := b.find(0, j+2, len(p))
			if end < 0 {
				j++ // bash drops the [ and reads the : as a member
				continue
			}
			if n, ok := classNames[p[j+2:j+2+end]]; ok {
				cl.named = append(cl.named, n)
			}
			j += 2 + end + 2
			continue // a class cannot start a range
		case c == '[' && j+1 < len(p) && p[j+1] == '=':
			end := b.find(1, j+2, len(p))
			if end < 0 {
				lo, j = '[', j+1
				break
			}
			name := p[j+2 : j+2+end]
			if r, size := cs.decode(name, 0); size > 0 && size == len(name) {
				add(r, r)
			}
			j += 2 + end + 2
			continue // nor can an equivalence class
		case c == '[' && j+1 < len(p) && p[j+1] == '.':
			end := b.find(2, j+2, len(p))
			if end < 0 {
				return unclosed(bracketUnclosed)
			}
			lo, loValid = cs.collatingSymbol(p[j+2 : j+2+end])
			j += 2 + end + 2
		case c == '\\':
			if j+1 >= len(p) {
				return unclosed(bracketFail)
			}
			r, size := cs.decode(p, j+1)
			lo, j = r, j+1+size
		default:
			r, size := cs.decode(p, j)
			lo, j = r, j+size
		}
		if j < len(p) && p[j] == '-' {
			if j+1 >= len(p) {
				return unclosed(bracketFail) // [a- : a range without its end
			}
			if p[j+1] != ']' {
				j++
				var hi rune
				hiValid := true
				switch {
				case p[j] == '\\':
					if j+1 >= len(p) {
						return unclosed(bracketFail)
					}
					r, size := cs.decode(p, j+1)
					hi, j = r, j+1+size
				case p[j] == '[' && j+1 < len(p) && p[j+1] == '.' && b.find(2, j+2, len(p)) >= 0:
					end := b.find(2, j+2, len(p))
					hi, hiValid = cs.collatingSymbol(p[j+2 : j+2+end])
					j += 2 + end + 2
				default:
					r, size := cs.decode(p, j)
					hi, j = r, j+size
				}
				if loValid && hiValid {
					add(lo, hi)
				}
				continue
			}
		}
		if loValid {
			add(lo, lo)
		}
	}
}

// brackets parses the bracket expressions of one pattern. It remembers
// where it last found each closing :] =] .] so that a pattern made of
// thousands of [: or [. reads in linear time, not quadratic.
type brackets struct {
	p       string
	cs      charset
	cache   [3]struct{ from, at int } // at: index of the first closer at or after from, or -1
	outcome []bracketResult           // how a bracket whose members reach each position ends, if not closed
}

var closers = [3]string{":]", "=]", ".]"}

// find returns the offset from j of the first closers[k] in p[j:end], or -1.
func (b *brackets) find(k, j, end int) int {
	c := &b.cache[k]
	if !(c.from != 0 && c.from <= j && (c.at < 0 || c.at >= j)) {
		c.from = j
		c.at = strings.Index(b.p[j:], closers[k])
		if c.at >= 0 {
			c.at += j
		}
	}
	if c.at < 0 || c.at+2 > end {
		return -1
	}
	return c.at - j
}

// charset is how a pattern and its subject are read: as UTF-8 characters, or
// byte by byte when either is not valid UTF-8 (bash falls back to bytes
// then, so "\xc3" matches [é]).
type charset struct{ bytes bool }

// decode returns the character at s[i] and its length in bytes.
func (cs charset) decode(s string, i int) (rune, int) {
	if i >= len(s) {
		return 0, 0
	}
	if cs.bytes || s[i] < utf8.RuneSelf {
		return rune(s[i]), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

// fold maps a character to the one it equals when case is ignored: bash folds
// both sides to lower case (towlower), so K (Kelvin) equals k.
func (cs charset) fold(r rune) rune {
	if r < utf8.RuneSelf || cs.bytes {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}
	return unicode.ToLower(r)
}

// collatingSymbol returns the character a [.name.] stands for.
func (cs charset) collatingSymbol(name string) (rune, bool) {
	if r, size := cs.decode(name, 0); size > 0 && size == len(name) {
		return r, true
	}
	r, ok := collatingNames[name]
	return r, ok
}

// collatingNames are the names of POSIX's portable character set, as bash
// 5.2 knows them (it lacks BEL and low-line).
var collatingNames = map[string]rune{
	"NUL": 0, "SOH": 1, "STX": 2, "ETX": 3, "EOT": 4, "ENQ": 5, "ACK": 6, "alert": 7,
	"backspace": 8, "BS": 8, "tab": 9, "HT": 9, "newline": 10, "LF": 10,
	"vertical-tab": 11, "VT": 11, "form-feed": 12, "FF": 12, "carriage-return": 13, "CR": 13,
	"SO": 14, "SI": 15, "DLE": 16, "DC1": 17, "DC2": 18, "DC3": 19, "DC4": 20, "NAK": 21,
	"SYN": 22, "ETB": 23, "CAN": 24, "EM": 25, "SUB": 26, "ESC": 27,
	"IS4": 28, "FS": 28, "IS3": 29, "GS": 29, "IS2": 30, "RS": 30, "IS1": 31, "US": 31,
	"space": ' ', "exclamation-mark": '!', "quotation-mark": '"', "number-sign": '#',
	"dollar-sign": '$', "percent-sign": '%', "ampersand": '&', "apostrophe": '\'',
	"left-parenthesis": '(', "right-parenthesis": ')', "asterisk": '*', "plus-sign": '+',
	"comma": ',', "hyphen": '-', "hyphen-minus": '-', "period": '.', "full-stop": '.',
	"slash": '/', "solidus": '/', "zero": '0', "one": '1', "two": '2', "three": '3',
	"four": '4', "five": '5', "six": '6', "seven": '7', "eight": '8', "nine": '9',
	"colon": ':', "semicolon": ';', "less-than-sign": '<', "equals-sign": '=',
	"greater-than-sign": '>', "question-mark": '?', "commercial-at": '@',
	"left-square-bracket": '[', "backslash": '\\', "reverse-solidus": '\\',
	"right-square-bracket": ']', "circumflex": '^', "circumflex-accent": '^',
	"underscore": '_', "grave-accent": '`', "left-brace": '{', "left-curly-bracket": '{',
	"vertical-line": '|', "right-brace": '}', "right-curly-bracket": '}', "tilde": '~',
	"DEL": 127,
}

// charClass is one of the named classes of [[:name:]].
type charClass uint8

const (
	classAlnum charClass = iota
	classAlpha
	classBlank
	classCntrl
	classDigit
	classGraph
	classLower
	classPrint
	classPunct
	classSpace
	classUpper
	classWord // bash's own: alnum and _
	classXdigit
)

var classNames = map[string]charClass{
	"alnum": classAlnum, "alpha": classAlpha, "blank": classBlank, "cntrl": classCntrl,
	"digit": classDigit, "graph": classGraph, "lower": classLower, "print": classPrint,
	"punct": classPunct, "space": classSpace, "upper": classUpper, "word": classWord,
	"xdigit": classXdigit,
}

// has reports whether c is in the class. Outside ASCII the classes are
// those of glibc's C.UTF-8 locale, which derives them from Unicode: alpha is
// Unicode's Alphabetic property and the digits of other scripts (digit is
// only 0-9), upper and lower include the characters that change case, the
// no-break spaces are not space, and punct is whatever is graphic and not
// alphanumeric. Read byte by byte, bytes above 127 are in no class.
func (n charClass) has(c rune, bytes bool) bool {
	if c < utf8.RuneSelf {
		return n.hasASCII(byte(c))
	}
	if bytes {
		return false
	}
	switch n {
	case classAlnum, classWord:
		return isAlpha(c)
	case classAlpha:
		return isAlpha(c)
	case classBlank:
		return isBlank(c)
	case classCntrl:
		return isCntrl(c)
	case classDigit, classXdigit:
		return false
	case classGraph:
		return isGraph(c)
	case classLower:
		return unicode.IsLower(c) || unicode.Is(unicode.Other_Lowercase, c) || unicode.ToUpper(c) != c
	case classPrint:
		return isGraph(c) || isBlank(c)
	case classPunct:
		return isGraph(c) && !isAlpha(c)
	case classSpace:
		return isSpace(c)
	case classUpper:
		return unicode.IsUpper(c) || unicode.IsTitle(c) || unicode.Is(unicode.Other_Uppercase, c) || unicode.ToLower(c) != c
	}
	return false
}

func (n charClass) hasASCII(c byte) bool {
	lower := 'a' <= c && c <= 'z'
	upper := 'A' <= c && c <= 'Z'
	digit := '0' <= c && c <= '9'
	switch n {
	case classAlnum:
		return lower || upper || digit
	case classAlpha:
		return lower || upper
	case classBlank:
		return c == ' ' || c == '\t'
	case classCntrl:
		return c < ' ' || c == 0x7f
	case classDigit:
		return digit
	case classGraph:
		return ' ' < c && c < 0x7f
	case classLower:
		return lower
	case classPrint:
		return ' ' <= c && c < 0x7f
	case classPunct:
		return ' ' < c && c < 0x7f && !lower && !upper && !digit
	case classSpace:
		return c == ' ' || '\t' <= c && c <= '\r'
	case classUpper:
		return upper
	case classWord:
		return lower || upper || digit || c == '_'
	case classXdigit:
		return digit || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
	}
	return false
}

func isAlpha(c rune) bool {
	return unicode.IsLetter(c) || unicode.Is(unicode.Nl, c) || unicode.Is(unicode.Other_Alphabetic, c) ||
		unicode.Is(unicode.Nd, c)
}

// noBreak are the spaces glibc counts as graphic, not as space.
func noBreak(c rune) bool { return c == 0xa0 || c == 0x2007 || c == 0x202f }

func isSpace(c rune) bool {
	return unicode.Is(unicode.White_Space, c) && !noBreak(c) && c != 0x85
}

func isBlank(c rune) bool { return unicode.Is(unicode.Zs, c) && !noBreak(c) }

func isCntrl(c rune) bool { return unicode.Is(unicode.Cc, c) || c == 0x2028 || c == 0x2029 }

func isGraph(c rune) bool {
	return (unicode.IsGraphic(c) || unicode.Is(unicode.Cf, c) || unicode.Is(unicode.Co, c)) &&
		!isSpace(c) && !isCntrl(c)
}
