package ansi

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// Width is how many columns s takes on a terminal: an SGR sequence none,
// an East Asian wide character two, any other character one.
func Width(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';') {
				j++
			}
			if j < len(s) && s[j] == 'm' {
				i = j + 1
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		n += runeWidth(r)
		i += size
	}
	return n
}

func runeWidth(r rune) int {
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// Span is text in one style: SGR parameters ("1;31"), "" for none. Keep
// holds it on one line when it fits one, with the Keep spans next to it.
type Span struct {
	Style, Text string
	Keep        bool
}

// Layout lays spans out in lines of at most cols columns, as a terminal
// shows them: broken at spaces, never inside a word (a word wider than a
// line is cut: nothing else could show it), the lines after the first
// indented by indent spaces, each word in its span's style when color is
// set. The lines end in "\n" but the last. With cols 0 (unknown) it is
// one line. The spans' text must be escaped already (see [Escape]).
func Layout(spans []Span, cols, indent int, color bool) string {
	var b strings.Builder
	style := ""
	set := func(s string) {
		if !color || s == style {
			return
		}
		if style != "" {
			b.WriteString("\x1b[0m")
		}
		if s != "" {
			b.WriteString("\x1b[" + s + "m")
		}
		style = s
	}
	col, space := 0, "" // space: the blanks before the next word, put only if it stays on the line
	newline := func() {
		set("")
		b.WriteString("\n" + strings.Repeat(" ", indent))
		col, space = indent, ""
	}
	put := func(st, word string) {
		w := Width(word)
		if cols > 0 && col > indent && col+len(space)+w > cols {
			newline()
		}
		for cols > 0 && w > cols-col && cols-col > 0 {
			// Wider than a line: cut it where the line ends.
			head := cutTo(word, cols-col-len(space))
			if head == "" {
				newline()
				continue
			}
			set("")
			b.WriteString(space)
			set(st)
			b.WriteString(head)
			word = word[len(head):]
			w = Width(word)
			newline()
		}
		set("")
		b.WriteString(space)
		set(st)
		b.WriteString(word)
		col += len(space) + w
		space = ""
	}
	kept := 0 // the width of the Keep spans from this one on
	for i, sp := range spans {
		if !sp.Keep {
			kept = 0
		} else if kept == 0 {
			for _, k := range spans[i:] {
				if !k.Keep {
					break
				}
				kept += Width(k.Text)
			}
			if cols > 0 && kept <= cols-indent && col > indent && col+len(space)+kept > cols {
				newline()
			}
		}
		if sp.Keep && cols > 0 && kept <= cols-indent {
			put(sp.Style, sp.Text)
			continue
		}
		for i, word := range strings.Split(sp.Text, " ") {
			if i > 0 {
				space += " "
			}
			if word != "" {
				put(sp.Style, word)
			}
		}
	}
	set("")
	b.WriteString(space)
	return b.String()
}

// cutTo is the longest start of s that takes at most n columns.
func cutTo(s string, n int) string {
	w := 0
	for i, r := range s {
		if w += runeWidth(r); w > n {
			return s[:i]
		}
	}
	return s
}

// Clip is s within n columns: whole when it fits, else cut at the last
// space that leaves room for an ellipsis (inside a word only when the
// first is wider than that).
func Clip(s string, n int) string {
	if Width(s) <= n {
		return s
	}
	head := cutTo(s, max(n-1, 0))
	if i := strings.LastIndexByte(head, ' '); i > 0 && s[len(head)] != ' ' {
		head = head[:i]
	}
	return strings.TrimRight(head, " ") + "…"
}
