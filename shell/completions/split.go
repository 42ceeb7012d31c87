package completions

import "strings"

// DefaultWordBreaks is bash's COMP_WORDBREAKS.
const DefaultWordBreaks = " \t\n\"'@><=;|&(:"

// Words is a command line as bash's programmable completion sees it: the
// values of COMP_LINE, COMP_POINT, COMP_WORDS and COMP_CWORD, and the text
// Tab replaces.
type Words struct {
	// Offset is where Line starts in the whole line.
	Offset int
	// Line is the command the cursor is in, from its name (after any
	// NAME=value words) to the end of the command.
	Line string
	// Point is the cursor's byte offset in Line.
	Point int
	// Words are Line's words, split at blanks and at the word break
	// characters, which make words of their own (`a=b` is a, =, b);
	// quotes and substitutions are kept. The cursor's word is empty when
	// the cursor follows a blank.
	Words []string
	// CWord is the index of the cursor's word.
	CWord int
	// Start is where the text Tab replaces begins in Line, as readline
	// finds it: after the last word break character before the cursor
	// that is not quoted, or after the quote open at the cursor.
	Start int
	// Quote is the quote open at the cursor, 0 if none.
	Quote byte
}

// Split describes line, with the cursor at byte offset point, as bash
// does for a completion function. breaks are the word break characters
// ($COMP_WORDBREAKS); the blanks among them separate words, the others are
// words of their own.
func Split(line string, point int, breaks string) Words {
	point = max(0, min(point, len(line)))
	start := commandStart(line, point)
	end := point + skipTo(line[point:], ";|&()\n")
	w := Words{Offset: start, Line: line[start:end], Point: point - start, CWord: -1}
	w.Words, w.CWord = splitWords(w.Line, w.Point, breaks)
	w.Start, w.Quote = textStart(w.Line[:w.Point], breaks)
	return w
}

// commandStart is the offset of the command the cursor is in: after the
// last command separator before point that no quote or substitution
// hides, its blanks and its NAME=value words.
func commandStart(line string, point int) int {
	start := 0
	for i := 0; i < point; {
		n := skipTo(line[i:point], ";|&()\n")
		if i+n >= point {
			break
		}
		i += n + 1
		start = i
	}
	for {
		for start < point && isBlank(line[start]) {
			start++
		}
		n := skipTo(line[start:], " \t\n")
		if start+n >= point || !isAssignment(line[start:start+n]) {
			return start
		}
		start += n
	}
}

// skipTo returns the offset in s of the first byte in set that is not
// quoted, escaped or inside $(…), ${…} or `…`; len(s) if there is none.
func skipTo(s, set string) int {
	for i := 0; i < len(s); i++ {
		if n := skipQuoted(s, i); n > i {
			i = n - 1
			continue
		}
		if strings.IndexByte(set, s[i]) >= 0 {
			return i
		}
	}
	return len(s)
}

// skipQuoted returns the offset just past the quoted or nested part that
// starts at s[i] (a backslash and its character, '…', "…", $'…', `…`,
// $(…), ${…}), or i when none starts there. An unclosed part runs to the
// end of s.
func skipQuoted(s string, i int) int {
	switch c := s[i]; {
	case c == '\\':
		return min(i+2, len(s))
	case c == '\'':
		if j := strings.IndexByte(s[i+1:], '\''); j >= 0 {
			return i + 1 + j + 1
		}
		return len(s)
	case c == '"' || c == '`':
		for j := i + 1; j < len(s); j++ {
			switch {
			case s[j] == '\\':
				j++
			case s[j] == c:
				return j + 1
			case c == '"' && s[j] == '$' && j+1 < len(s) && (s[j+1] == '(' || s[j+1] == '{'):
				j = skipQuoted(s, j) - 1
			}
		}
		return len(s)
	case c == '$' && i+1 < len(s) && s[i+1] == '\'':
		for j := i + 2; j < len(s); j++ {
			switch s[j] {
			case '\\':
				j++
			case '\'':
				return j + 1
			}
		}
		return len(s)
	case c == '$' && i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '{'):
		open, closer := s[i+1], byte(')')
		if open == '{' {
			closer = '}'
		}
		depth := 0
		for j := i + 1; j < len(s); j++ {
			if n := skipQuoted(s, j); n > j {
				j = n - 1
				continue
			}
			switch s[j] {
			case open:
				depth++
			case closer:
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return len(s)
	}
	return i
}

// splitWords splits line into COMP_WORDS and finds the cursor's word.
func splitWords(line string, point int, breaks string) (words []string, cword int) {
	isBreak := func(c byte) bool { return strings.IndexByte(breaks, c) >= 0 && c != '"' && c != '\'' }
	cword = -1
	i := 0
	for {
		for i < len(line) && isBreak(line[i]) && isBlank(line[i]) {
			i++
		}
		if i >= len(line) {
			break
		}
		ts := i
		if isBreak(line[i]) {
			for i < len(line) && isBreak(line[i]) && !isBlank(line[i]) {
				i++
			}
		} else {
			for i < len(line) && !isBreak(line[i]) {
				if n := skipQuoted(line, i); n > i {
					i = n
					continue
				}
				i++
			}
		}
		if cword < 0 && point < ts {
			cword = len(words)
			words = append(words, "")
		}
		if cword < 0 && point <= i {
			cword = len(words)
		}
		words = append(words, line[ts:i])
	}
	if cword < 0 {
		cword = len(words)
		words = append(words, "")
	}
	return words, cword
}

// textStart finds where readline's completion word begins in before (the
// line up to the cursor) and which quote is open there.
func textStart(before, breaks string) (start int, quote byte) {
	for i := 0; i < len(before); i++ {
		c := before[i]
		switch {
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(before) && before[j] != c {
				if c == '"' && before[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(before) {
				return i + 1, c
			}
			i = j // a closed quote breaks no word
		case strings.IndexByte(breaks, c) >= 0:
			start = i + 1
		}
	}
	return start, 0
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

// SplitWordList splits a -W word list at the characters of ifs, as bash
// does: blanks in ifs run together, each other character of ifs ends a
// word, and quotes and backslashes protect what they quote. The words keep
// their quotes; [WordSource] makes each one word of shell source.
func SplitWordList(s, ifs string) []string {
	isDelim := func(c byte) bool { return strings.IndexByte(ifs, c) >= 0 }
	var words []string
	i := 0
	for {
		for i < len(s) && isDelim(s[i]) && isBlank(s[i]) {
			i++
		}
		if i >= len(s) {
			return words
		}
		start := i
		for i < len(s) && !isDelim(s[i]) {
			if n := skipQuoted(s, i); n > i {
				i = n
				continue
			}
			i++
		}
		words = append(words, s[start:i])
		if i < len(s) && !isBlank(s[i]) {
			i++
		}
	}
}

// WordSource is w as one word of shell source: its unquoted blanks and
// operator characters are escaped, and its quotes and expansions kept, so
// that expanding it gives what bash gives for a word of a -W list.
func WordSource(w string) string {
	var b strings.Builder
	for i := 0; i < len(w); i++ {
		if n := skipQuoted(w, i); n > i {
			b.WriteString(w[i:n])
			i = n - 1
			continue
		}
		switch c := w[i]; {
		case c == '\n':
			b.WriteString("\"\n\"") // a backslash would join the lines
		case strings.IndexByte(" \t;&|<>()", c) >= 0:
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
