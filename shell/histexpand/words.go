package histexpand

import "strings"

// lastWord is the word number that stands for the last word. It is the
// character '$' itself, as in bash's history library, so a typed 36 means
// the last word too (`!!:36`, yank-nth-arg with 36): a quirk kept on purpose.
const lastWord = '$'

// delimiters end a word outside quotes; quoteChars start a quoted stretch.
const (
	delimiters = " \t\n;&()|<>"
	quoteChars = "\"'`"
)

// text is read a byte at a time by the word splitter, from a string or from
// the gap buffer :G substitutes in. Past the end it reads 0.
type text interface {
	at(i int) byte
	size() int
}

type str string

func (s str) at(i int) byte {
	if i >= 0 && i < len(s) {
		return s[i]
	}
	return 0
}

func (s str) size() int { return len(s) }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func member(c byte, set string) bool { return c != 0 && strings.IndexByte(set, c) >= 0 }

// wordEnd returns the end of the word that starts at i, the way bash's
// history library splits a line: quotes keep a word together, `$(…)`,
// `<(…)` and extended patterns `@(…)` are one word, an operator (`|`, `;;`,
// `2>&1`, `<<<`) is a word of its own.
func wordEnd(t text, i int) int {
	var delim, open byte
	nest := 0
	c := t.at(i)
	if member(c, "()\n") {
		return i + 1
	}
	word := false
	if isDigit(c) {
		j := i
		for isDigit(t.at(j)) {
			j++
		}
		switch t.at(j) {
		case 0:
			return j
		case '<', '>': // a file descriptor before a redirection
			i = j
		default:
			i, word = j, true
		}
	}
	if c = t.at(i); !word && member(c, "<>;&|") {
		next := t.at(i + 1)
		switch {
		case next == c:
			if c == '<' && (t.at(i+2) == '-' || t.at(i+2) == '<') {
				i++
			}
			return i + 2
		case next == '&' && (c == '>' || c == '<'):
			j := i + 2
			for isDigit(t.at(j)) {
				j++
			}
			if t.at(j) == '-' {
				j++
			}
			return j
		case next == '>' && c == '&', next == '|' && c == '>':
			return i + 2
		case next == '(' && (c == '>' || c == '<'):
			i += 2
			open, delim, nest = '(', ')', 1
		default:
			return i + 1
		}
	}
	if delim == 0 && member(t.at(i), quoteChars) {
		delim = t.at(i)
		i++
	}
	for n := t.size(); i < n; i++ {
		c := t.at(i)
		if c == '\\' && t.at(i+1) == '\n' {
			i++
			continue
		}
		if c == '\\' && delim != '\'' {
			i++
			if i >= n {
				break
			}
			continue
		}
		if nest > 0 && c == open {
			nest++
			continue
		}
		if nest > 0 && c == delim {
			if nest--; nest == 0 {
				delim = 0
			}
			continue
		}
		if delim != 0 && c == delim {
			delim = 0
			continue
		}
		if nest == 0 && delim == 0 && member(c, "<>$!@?+*") && t.at(i+1) == '(' {
			// bash steps over the character after the parenthesis too.
			i += 2
			open, delim, nest = '(', ')', 1
			continue
		}
		if delim == 0 && member(c, delimiters) {
			break
		}
		if delim == 0 && member(c, quoteChars) {
			delim = c
		}
	}
	return min(i, t.size())
}

// span is a word's place in its line.
type span struct{ start, end int }

// split returns the words of s. A word that starts with the comment
// character ends the line.
func split(s string, comment byte) []span {
	var words []span
	for i := 0; i < len(s); {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			i++
		}
		if i >= len(s) || (comment != 0 && s[i] == comment) {
			break
		}
		start := i
		i = wordEnd(str(s), start)
		if i == start {
			i++
			for i < len(s) && member(s[i], delimiters) {
				i++
			}
		}
		words = append(words, span{start, i})
	}
	return words
}

// extract returns words first to last of s, joined by single spaces, and
// whether they exist. A negative last counts from the end: -1 is the word
// before the last. lastWord as first or last is the last word.
func extract(first, last int, s string, comment byte) (string, bool) {
	words := split(s, comment)
	n := len(words)
	if n == 0 {
		return "", false
	}
	if last < 0 {
		last = n + last - 1
	}
	if first < 0 {
		first = n + first - 1
	}
	if last == lastWord {
		last = n - 1
	}
	if first == lastWord {
		first = n - 1
	}
	last++
	if first >= n || last > n || first < 0 || last < 0 || first > last {
		return "", false
	}
	var b strings.Builder
	for i := first; i < last; i++ {
		if i > first {
			b.WriteByte(' ')
		}
		b.WriteString(s[words[i].start:words[i].end])
	}
	return b.String(), true
}

// wordAt returns the word of line that holds the byte at index i, if any.
func wordAt(line string, i int, comment byte) string {
	for _, w := range split(line, comment) {
		if i >= w.start && i < w.end {
			return line[w.start:w.end]
		}
	}
	return ""
}

// LastArg returns the word readline's yank-last-arg (M-. and M-_) inserts
// from a history line: its last word, split as history expansion splits
// words, or "" when the line has none (readline rings the bell). A word
// starting with # ends the line (bash takes histchars' third character;
// few change it).
func LastArg(line string) string {
	w, _ := extract(lastWord, lastWord, line, '#')
	return w
}

// NthArg returns the word readline's yank-nth-arg (M-C-y) inserts from a
// history line, and yank-last-arg given the numeric argument n: word n,
// counting the command as word 0; a negative n counts from the end, -1
// being the word before the last. It returns "" when there is no such word.
func NthArg(line string, n int) string {
	w, _ := extract(n, n, line, '#')
	return w
}
