package histexpand

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// Options are what bash's history expansion depends on besides the line and
// the history.
type Options struct {
	// Chars are the characters $histchars sets: the expansion character,
	// the quick substitution character (at the start of a line) and the
	// comment character. Empty means "!^#", a missing second or third
	// character '^' or '#'. bash keeps the earlier ones when histchars is
	// shorter than three, and takes "!^#" again when it is unset: the
	// caller tracks that. A histchars set to "" turns expansion off, so the
	// caller does not call Expand.
	Chars string
	// Base is the number !n gives hist[0]; 0 means 1.
	Base int
	// Extglob is shopt extglob: `!(…)` after the line's second character is
	// a pattern, not an event.
	Extglob bool
	// Quote is the quote the command's earlier lines left open, '\'' or
	// '"', for its second and later lines; 0 otherwise.
	Quote byte
	// State carries from line to line what bash remembers: the last
	// !?string? search and its word (for :s with an empty pattern and for %)
	// and the last substitution (for :& and ^^). Nil remembers nothing.
	State *State
}

// State is what expansion remembers between lines; the zero value is a new
// shell's.
type State struct {
	search string // the last !?string? string
	match  string // the word it matched, for %
	lhs    string // the last :s pattern
	rhs    string // its replacement, & already replaced
}

// maxLen bounds a line's expansion: `!#` doubles the line, so a few dozen
// of them would otherwise take all memory (bash does not stop them).
const maxLen = 1 << 20

// errTooLong is the one error bash does not have.
var errTooLong = errors.New("history expansion too long")

// Expand performs bash's history expansion on line against hist, the
// history oldest first, without the line itself. It returns the expanded
// line, whether it is only to be printed (the :p modifier) and an error
// worded as bash words it after "bash: " ("!foo: event not found"). A line
// that needs no expansion comes back unchanged: the shell echoes the
// expanded line when it differs.
func Expand(line string, hist []string, o Options) (out string, printOnly bool, err error) {
	e := newExpander(hist, o)
	if e.bang == 0 || (strings.IndexByte(line, e.bang) < 0 && strings.IndexByte(line, e.sub) < 0) {
		return line, false, nil
	}
	s := line
	if line[0] == e.sub {
		// ^old^new^ is !!:s^old^new^.
		s = string([]byte{e.bang, e.bang, ':', 's'}) + line
	} else if !e.wanted(s) {
		return line, false, nil
	}
	return e.expand(s)
}

type expander struct {
	hist               []string
	o                  Options
	st                 *State
	bang, sub, comment byte
}

func newExpander(hist []string, o Options) *expander {
	e := &expander{hist: hist, o: o, st: o.State, bang: '!', sub: '^', comment: '#'}
	if e.st == nil {
		e.st = &State{}
	}
	if e.o.Base == 0 {
		e.o.Base = 1
	}
	c := o.Chars
	if len(c) > 0 {
		e.bang = c[0]
	}
	if len(c) > 1 {
		e.sub = c[1]
	}
	if len(c) > 2 {
		e.comment = c[2]
	}
	return e
}

func at(s string, i int) byte {
	if i >= 0 && i < len(s) {
		return s[i]
	}
	return 0
}

// noExpand are the characters after which the expansion character is
// itself.
func noExpand(c byte) bool { return member(c, " \t\n\r=") }

func wordDelim(c byte) bool { return member(c, delimiters) }

// skipSingle returns the index of the quote closing a single-quoted string
// whose text starts at i, or len(s); in $'…' a backslash escapes.
func skipSingle(s string, i int, dollar bool) int {
	for i < len(s) && s[i] != '\'' {
		if dollar && s[i] == '\\' && i+1 < len(s) {
			i++
		}
		i++
	}
	return min(i, len(s))
}

// wanted is bash's first look at a line: is there an expansion character
// that quoting, a comment or the shell's own uses of ! leave for expansion?
// The second pass (expand) treats backslashes and the check of the shell's
// uses differently, which shows in lines such as `\\!!` (left alone) and
// `\\!! !!` (both expanded), as in bash.
func (e *expander) wanted(s string) bool {
	dq := e.o.Quote == '"'
	i := 0
	if e.o.Quote == '\'' {
		if i = skipSingle(s, 0, false); i < len(s) {
			i++
		}
	}
	for ; i < len(s); i++ {
		c, cc := s[i], at(s, i+1)
		switch {
		case e.comment != 0 && c == e.comment && !dq && (i == 0 || wordDelim(s[i-1])):
			return false
		case c == e.bang:
			if cc == 0 || noExpand(cc) || (dq && cc == '"') || e.inhibit(s, i) {
				continue
			}
			return true
		case dq && c == '\\' && cc == '"':
			i++
		case c == '"':
			dq = !dq
		case !dq && c == '\'':
			i = skipSingle(s, i+1, i > 0 && s[i-1] == '$')
		case c == '\\':
			if cc == '\'' || cc == e.bang {
				i++
			}
		}
	}
	return false
}

// inhibit tells whether the expansion character at s[i] is the shell's own:
// `[!…]`, `${!…}`, `$!`, an extended pattern `!(…)`, or one inside single
// quotes or a command substitution as bash's parser reads them.
func (e *expander) inhibit(s string, i int) bool {
	switch {
	case i > 0 && s[i-1] == '[' && strings.IndexByte(s[i+1:], ']') >= 0:
		return true
	case i > 1 && s[i-1] == '{' && s[i-2] == '$' && strings.IndexByte(s[i+1:], '}') >= 0:
		return true
	case i > 1 && s[i-1] == '$' && s[i] == '!': // $! even when histchars is not !
		return true
	case e.o.Extglob && i > 1 && at(s, i+1) == '(' && i+2 <= len(s) && strings.IndexByte(s[i+2:], ')') >= 0:
		return true
	}
	si := 0
	if e.o.Quote == '\'' {
		si = strings.IndexByte(s, '\'')
		if si < 0 || si >= i {
			return true
		}
		si++
	}
	t := e.skipToBang(s, si)
	if t <= 0 {
		return false
	}
	for t < i {
		if t = e.skipToBang(s, t+1); t <= 0 {
			return false
		}
	}
	return t > i
}

// skipToBang returns the index of the first expansion character at or after
// start that is not quoted nor in a command or process substitution, or
// len(s).
func (e *expander) skipToBang(s string, start int) int {
	pass, backq, dq, oldDq := false, false, false, false
	comsub := 0
	i := start
	for i < len(s) {
		c := s[i]
		switch {
		case pass:
			pass = false
			i++
		case c == '\\':
			pass = true
			i++
		case backq && c == '`':
			backq, dq = false, oldDq
			i++
		case c == '`':
			backq, oldDq, dq = true, dq, false
			i++
		case dq && c == e.bang && at(s, i+1) == '"':
			i++
		case c == e.bang:
			return i
		case dq && c == '\'':
			i++
		case c == '\'':
			if i = skipSingle(s, i+1, false); i < len(s) {
				i++
			}
		case c == '"':
			dq = !dq
			i++
		case (c == '$' || c == '<' || c == '>') && at(s, i+1) == '(' && at(s, i+2) != '(':
			if i+2 >= len(s) {
				return i + 2
			}
			i += 2
			comsub++
			oldDq, dq = dq, false
		case comsub > 0 && c == ')':
			comsub--
			dq = oldDq
			i++
		default:
			i++
		}
	}
	return min(i, len(s))
}

// expand is bash's second pass, which copies the line and expands each
// reference.
func (e *expander) expand(s string) (string, bool, error) {
	var out []byte
	dq := e.o.Quote == '"'
	i := 0
	if e.o.Quote == '\'' {
		i = skipSingle(s, 0, false)
		out = append(out, s[:i]...)
		if i < len(s) {
			out = append(out, s[i])
			i++
		}
	}
	printOnly, pass := false, false
	for ; i < len(s); i++ {
		c := s[i]
		if pass {
			pass = false
			out = append(out, c)
			continue
		}
		switch {
		case c == e.bang:
			cc := at(s, i+1)
			if cc == 0 || noExpand(cc) || (dq && cc == '"') {
				out = append(out, c)
				break
			}
			// bash asks whether to expand against the line expanded so
			// far, with this ! and the character after it.
			j := len(out)
			out = append(out, c, cc)
			if e.inhibit(string(out), j) {
				out = out[:j+1]
				break
			}
			out = out[:j]
			var qc byte
			if dq {
				qc = '"'
			}
			r, end, p, err := e.reference(s, i, qc, string(out))
			if err != nil {
				return "", false, err
			}
			out = append(out, r...)
			printOnly = printOnly || p
			i = end
		case e.comment != 0 && c == e.comment:
			if !dq && (i == 0 || wordDelim(s[i-1])) {
				out = append(out, s[i:]...)
				i = len(s)
			} else {
				out = append(out, c)
			}
		case c == '\\':
			pass = true
			out = append(out, c)
		case c == '"':
			dq = !dq
			out = append(out, c)
		case c == '\'' && !dq:
			q := i
			i = skipSingle(s, i+1, i > 0 && s[i-1] == '$')
			out = append(out, s[q:min(i+1, len(s))]...)
		default:
			out = append(out, c)
		}
		if len(out) > maxLen {
			return "", false, errTooLong
		}
	}
	return string(out), printOnly, nil
}

type expError struct {
	text, msg string
}

func (e *expError) Error() string { return e.text + ": " + e.msg }

// fail makes the error bash reports: the part of s from start to end, then
// what is wrong.
func fail(s string, start, end int, msg string) error {
	start, end = min(max(start, 0), len(s)), min(max(end, 0), len(s))
	if start > end {
		start = end
	}
	return &expError{s[start:end], msg}
}

// reference expands the reference whose expansion character is at s[start]
// (bash's history_expand_internal): the event, its word designator and
// modifiers. It returns the text, the index of the reference's last
// character and whether :p was given.
func (e *expander) reference(s string, start int, qc byte, current string) (string, int, bool, error) {
	i := start
	var event string
	var ok bool
	switch c := at(s, i+1); {
	case member(c, ":$*%^"):
		i++
		event, ok = e.get(e.o.Base + len(e.hist) - 1)
	case c == '#':
		i += 2
		event, ok = current, true
	default:
		event, ok, i = e.event(s, i, qc)
	}
	if !ok {
		return "", 0, false, fail(s, start, i, "event not found")
	}

	from := i
	word, has, i, ok := e.words(s, i, event)
	if !ok {
		return "", 0, false, fail(s, from, i, "bad word specifier")
	}
	if !has {
		word = event
	}

	global, byWords := 0, false
	var quote byte
	printOnly := false
	from = i
	for at(s, i) == ':' {
		c := at(s, i+1)
		if c == 'g' || c == 'a' {
			global = 1
			i++
			c = at(s, i+1)
		} else if c == 'G' {
			byWords = true
			i++
			c = at(s, i+1)
		}
		switch c {
		case 'q', 'x':
			quote = c
		case 'p':
			printOnly = true
		case 't':
			if k := strings.LastIndexByte(word, '/'); k >= 0 {
				word = word[k+1:]
			}
		case 'h':
			if k := strings.LastIndexByte(word, '/'); k >= 0 {
				word = word[:k]
			}
		case 'r':
			if k := strings.LastIndexByte(word, '.'); k >= 0 {
				word = word[:k]
			}
		case 'e':
			if k := strings.LastIndexByte(word, '.'); k >= 0 {
				word = word[k:]
			}
		case 's', '&':
			if c == 's' {
				if i+2 >= len(s) {
					break // :s and nothing after it does nothing
				}
				delim := s[i+2]
				if _, n := utf8.DecodeRuneInString(s[i+2:]); n > 1 {
					delim = 0 // bash takes no multibyte delimiter
				}
				i += 3
				var lhs, rhs string
				var okLhs bool
				lhs, okLhs, i = pattern(s, i, delim, false)
				if okLhs {
					e.st.lhs = lhs
				} else if e.st.lhs == "" {
					e.st.lhs = e.st.search
				}
				rhs, _, i = pattern(s, i, delim, true)
				e.st.rhs = withLhs(rhs, e.st.lhs)
			} else {
				i += 2
			}
			if e.st.lhs == "" {
				return "", 0, false, fail(s, from, i, "no previous substitution")
			}
			var done bool
			word, done = e.substitute(word, global > 0, byWords)
			if !done {
				return "", 0, false, fail(s, from, i, "substitution failed")
			}
			if len(word) > maxLen {
				return "", 0, false, errTooLong
			}
			// g ends with the substitution it made global; a g before
			// another modifier, and G, hold for the :s after, as in bash.
			global = 0
			continue
		default:
			return "", 0, false, fail(s, i+1, i+2, "unrecognized history modifier")
		}
		i += 2
	}
	switch quote {
	case 'q':
		word = quoteWord(word)
	case 'x':
		word = quoteWords(word)
	}
	return word, i - 1, printOnly, nil
}

// get returns the event numbered n.
func (e *expander) get(n int) (string, bool) {
	k := n - e.o.Base
	if k < 0 || k >= len(e.hist) {
		return "", false
	}
	return e.hist[k], true
}

// event reads the event designator after the expansion character at s[i]:
// !!, !n, !-n, !string, !?string[?]. It returns the event, whether it
// exists and the index after the designator.
func (e *expander) event(s string, i int, qc byte) (string, bool, int) {
	i++
	if at(s, i) == e.bang {
		ev, ok := e.get(e.o.Base + len(e.hist) - 1)
		return ev, ok, i + 1
	}
	neg := false
	if at(s, i) == '-' && isDigit(at(s, i+1)) {
		neg = true
		i++
	}
	if isDigit(at(s, i)) {
		n := 0
		for ; isDigit(at(s, i)); i++ {
			if n < 1<<40 {
				n = n*10 + int(s[i]-'0')
			}
		}
		if neg {
			n = len(e.hist) + e.o.Base - n
		}
		ev, ok := e.get(n)
		return ev, ok, i
	}
	sub := at(s, i) == '?'
	if sub {
		i++
	}
	from := i
	for ; i < len(s); i++ {
		c := s[i]
		if c == '\n' || (sub && c == '?') {
			break
		}
		if !sub && (c == ' ' || c == '\t' || c == ':' || (i > from && c == '-') ||
			(c != '-' && member(c, "^$*%-")) || member(c, ";&()|<>") || (qc != 0 && c == qc)) {
			break
		}
	}
	want := s[from:i]
	if sub && at(s, i) == '?' {
		i++
	}
	if want == "" && sub {
		if e.st.search == "" {
			return "", false, i
		}
		want = e.st.search
	}
	if want == "" {
		return "", false, i
	}
	for k := len(e.hist) - 1; k >= 0; k-- {
		h := e.hist[k]
		if !sub {
			if strings.HasPrefix(h, want) {
				return h, true, i
			}
			continue
		}
		if at := strings.LastIndex(h, want); at >= 0 {
			e.st.search = want
			e.st.match = wordAt(h, at, e.comment)
			return h, true, i
		}
	}
	return "", false, i
}

// words reads the word designator at s[i], if any, and applies it to
// event. It returns the words, whether there was a designator, the index
// after it and false if the words do not exist.
func (e *expander) words(s string, i int, event string) (string, bool, int, bool) {
	colon := at(s, i) == ':'
	j := i
	if colon {
		j++
	}
	switch at(s, j) {
	case '%':
		return e.st.match, true, j + 1, true
	case '*':
		w, _ := extract(1, lastWord, event, e.comment)
		return w, true, j + 1, true
	case '$':
		w, ok := extract(lastWord, lastWord, event, e.comment)
		// A line without words is its own last word.
		return w, ok, j + 1, true
	}
	var first, last int
	switch c := at(s, j); {
	case c == '-':
		first = 0
	case c == '^':
		first = 1
		j++
	case isDigit(c) && colon:
		first, j = number(s, j)
	default:
		return "", false, i, true
	}
	switch c := at(s, j); {
	case c == '^':
		last = 1
		j++
	case c == '*':
		last = lastWord
		j++
	case c != '-':
		last = first
	default:
		j++
		switch c := at(s, j); {
		case isDigit(c):
			last, j = number(s, j)
		case c == '$':
			last = lastWord
			j++
		case c == '^':
			last = 1
			j++
		default:
			last = -1 // x- is x-$ without the last word
		}
	}
	if last >= first || last == lastWord || last < 0 {
		if w, ok := extract(first, last, event, e.comment); ok {
			return w, true, j, true
		}
	}
	return "", true, j, false
}

// number reads the decimal number at s[i], saturating far beyond any word
// count.
func number(s string, i int) (int, int) {
	n := 0
	for ; isDigit(at(s, i)); i++ {
		if n < 1<<40 {
			n = n*10 + int(s[i]-'0')
		}
	}
	return n, i
}

// pattern reads one part of :s/old/new/ starting at s[i], up to delim or
// the end of the line; a backslash quotes the delimiter. An empty old part
// is not a pattern (the last one is used); an empty new part is. It
// returns the index after the delimiter.
func pattern(s string, i int, delim byte, rhs bool) (string, bool, int) {
	var b strings.Builder
	k := i
	for ; k < len(s) && (delim == 0 || s[k] != delim); k++ {
		if s[k] == '\\' && delim != 0 && at(s, k+1) == delim {
			k++
		}
		b.WriteByte(s[k])
	}
	ok := k > i || rhs
	if k < len(s) {
		k++
	}
	return b.String(), ok, k
}

// withLhs replaces each & of a replacement by the pattern; \& is a plain &.
func withLhs(rhs, lhs string) string {
	if strings.IndexByte(rhs, '&') < 0 {
		return rhs
	}
	var b strings.Builder
	for i := 0; i < len(rhs); i++ {
		switch {
		case rhs[i] == '&':
			b.WriteString(lhs)
		case rhs[i] == '\\' && at(rhs, i+1) == '&':
			i++
			b.WriteByte('&')
		default:
			b.WriteByte(rhs[i])
		}
	}
	return b.String()
}

// substitute applies the remembered substitution to w: the first match,
// every match (global) or the first match in each word (byWords).
func (e *expander) substitute(w string, global, byWords bool) (string, bool) {
	lhs, rhs := e.st.lhs, e.st.rhs
	if len(lhs) > len(w) {
		return w, false
	}
	switch {
	case global:
		if !strings.Contains(w, lhs) {
			return w, false
		}
		return strings.ReplaceAll(w, lhs, rhs), true
	case byWords:
		return substituteWords(w, lhs, rhs)
	default:
		k := strings.Index(w, lhs)
		if k < 0 {
			return w, false
		}
		return w[:k] + rhs + w[k+len(lhs):], true
	}
}

// substituteWords is :Gs: the first match in each word. It follows bash's
// loop step by step, quirks included: a scan resumes one past the end of
// the word as it was before the replacement, and the first word's end is
// only looked for after its first character. The text lives in a gap
// buffer so that each replacement costs its own length, not the line's.
func substituteWords(w, lhs, rhs string) (string, bool) {
	g := &gap{left: []byte(w)}
	failed := true
	we := 0
	for si := 0; si+len(lhs) <= g.size(); si++ {
		if si > we {
			for c := g.at(si); c == ' ' || c == '\t' || c == '\n'; c = g.at(si) {
				si++
			}
			we = wordEnd(g, si)
		}
		if g.hasAt(si, lhs) {
			g.replace(si, len(lhs), rhs)
			failed = false
			if g.size() > maxLen {
				break
			}
			si = we
		}
	}
	return g.String(), !failed
}

// quoteWord is :q, the word single-quoted as bash quotes it.
func quoteWord(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// quoteWords is :x, like :q but breaking into words at blanks and newlines.
func quoteWords(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'':
			b.WriteString(`'\''`)
		case ' ', '\t', '\n':
			b.WriteByte('\'')
			b.WriteByte(c)
			b.WriteByte('\'')
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}
