package ai

import (
	"io"
	"strings"
)

// markdown renders the Markdown of an answer for a terminal as it streams:
// **bold**, *emphasis* and _emphasis_, `code`, headings and bullets, and
// fenced code blocks in colour. Text goes out as soon as its look is known.
// Two things wait for more: the first characters of a line (a fence, a
// heading, a bullet?), and an inline span from its opening mark to its
// closing one — or to the line's end, where a mark left open is printed as
// it was written (`ls *.go` stays as it is).
//
// Without style (a pipe, NO_COLOR) the text passes through unchanged: the
// answer as the model wrote it, Markdown that other programs can read.
type markdown struct {
	w     io.Writer
	style bool

	pending string   // the current line's text not yet written
	kind    lineKind // what the current line is; undecided at its start
	base    style    // the current line's own style (a heading's)
	prev    byte     // the line's last character written, for the marks that follow
	fence   bool     // inside a fenced code block
	col0    bool     // the cursor is at the start of a line
}

type lineKind int

const (
	undecided lineKind = iota
	textLine
	codeLine  // in a fenced block
	fenceLine // the rest of a ``` line
)

// Escape sequences (SGR). Styles are switched by a reset and the new
// style's attributes, so that nothing is left on whatever came before.
const (
	sgrReset = "\x1b[0m"
	sgrBold  = "\x1b[1m"
	sgrDim   = "\x1b[2m"
	sgrItal  = "\x1b[3m"
	sgrUnder = "\x1b[4m"
	sgrCode  = "\x1b[36m"
)

// style is a set of text attributes.
type style struct {
	bold, italic, code, under bool
}

// sgr switches the terminal to st.
func (st style) sgr() string {
	s := sgrReset
	if st.bold {
		s += sgrBold
	}
	if st.italic {
		s += sgrItal
	}
	if st.under {
		s += sgrUnder
	}
	if st.code {
		s += sgrCode
	}
	return s
}

// maxHold bounds the text held after an opening mark; past it the mark is
// taken as a plain character, so a stray one cannot stop the stream for
// long.
const maxHold = 400

func newMarkdown(w io.Writer, style bool) *markdown {
	return &markdown{w: w, style: style, col0: true}
}

func (m *markdown) emit(s string) {
	if s == "" || s == sgrCode+sgrReset || s == sgrDim+sgrReset {
		return
	}
	io.WriteString(m.w, s)
	m.col0 = s[len(s)-1] == '\n'
}

// Write renders the next piece of the answer.
func (m *markdown) Write(s string) {
	if !m.style {
		m.emit(s)
		return
	}
	m.pending += s
	for m.pending != "" {
		if m.kind == undecided && !m.decide(false) {
			return
		}
		line, next := m.pending, ""
		nl := strings.IndexByte(line, '\n')
		if nl >= 0 {
			line, next = line[:nl], line[nl+1:]
		}
		switch m.kind {
		case codeLine, fenceLine:
			attr := sgrCode
			if m.kind == fenceLine {
				attr = sgrDim
			}
			if line != "" {
				// Colour stops before the newline, so a cut stream
				// leaves none on.
				m.emit(attr + line + sgrReset)
			}
			m.pending = ""
		default:
			out, rest := inline(line, m.prev, m.base, nl >= 0)
			m.emit(out)
			if k := len(line) - len(rest); k > 0 {
				m.prev = line[k-1]
			}
			m.pending = rest
		}
		if nl < 0 {
			return
		}
		m.endLine()
		m.pending = next
	}
}

// endLine ends the current line: its style off, a newline.
func (m *markdown) endLine() {
	if m.base != (style{}) {
		m.emit(sgrReset)
	}
	m.emit("\n")
	m.kind, m.base, m.prev = undecided, style{}, 0
}

// Flush writes what is held, as it stands: the answer ended or something
// else is about to be written. The line is not ended, but the next text
// starts a line of its own as far as marks are concerned.
func (m *markdown) Flush() {
	if !m.style {
		return
	}
	if m.kind == undecided && m.pending != "" {
		m.decide(true)
	}
	switch m.kind {
	case codeLine:
		m.emit(sgrCode + m.pending + sgrReset)
	case fenceLine:
		m.emit(sgrDim + m.pending + sgrReset)
	default:
		out, _ := inline(m.pending, m.prev, m.base, true)
		m.emit(out)
	}
	if m.base != (style{}) {
		m.emit(sgrReset)
	}
	m.pending, m.kind, m.base, m.prev = "", undecided, style{}, 0
}

// Reset forgets an open code block, at the end of an answer.
func (m *markdown) Reset() { m.fence = false }

// decide looks at the start of a line, in m.pending, to tell what the line
// is; it writes what stands for its marks (a bullet, a fence) and leaves
// the line's text in m.pending. It reports false when it needs more text,
// unless final is set (nothing more comes).
func (m *markdown) decide(final bool) bool {
	p := m.pending
	indent := len(p) - len(strings.TrimLeft(p, " "))
	rest := p[indent:]
	nl := strings.IndexByte(rest, '\n') == 0
	wait := func(prefixOf string) bool {
		return !final && len(rest) < len(prefixOf) && strings.HasPrefix(prefixOf, rest)
	}
	if rest == "" && !final {
		return false
	}
	if rest == "" {
		m.kind = textLine
		if m.fence {
			m.kind = codeLine
		}
		return true
	}
	switch {
	case strings.HasPrefix(rest, "```"):
		m.emit(p[:indent] + sgrDim + "```" + sgrReset)
		m.pending, m.kind = rest[3:], fenceLine
		m.fence = !m.fence
		return true
	case wait("```"):
		return false
	case m.fence || nl:
		m.kind = codeLine
		if !m.fence {
			m.kind = textLine
		}
		return true
	}
	switch c := rest[0]; c {
	case '#':
		n := len(rest) - len(strings.TrimLeft(rest, "#"))
		switch {
		case n == len(rest) && !final:
			return false
		case n <= 6 && n < len(rest) && rest[n] == ' ':
			if strings.TrimLeft(rest[n:], " ") == "" && !final {
				return false // the heading's text starts after the blanks
			}
			m.base = style{bold: true, under: n == 1}
			m.emit(m.base.sgr())
			m.pending, m.kind = strings.TrimLeft(rest[n:], " "), textLine
			return true
		}
	case '-', '*', '+':
		switch {
		case len(rest) == 1 && !final:
			return false
		case len(rest) > 1 && rest[1] == ' ':
			m.emit(p[:indent] + "• ")
			m.pending, m.kind = rest[2:], textLine
			return true
		}
	}
	m.kind = textLine
	return true
}

// inline renders one line of text (without its newline) in style st;
// prev is the character before s on the line, 0 at its start. When final
// is false the line goes on in the next piece of the stream: rendering
// stops at the first mark whose span cannot be told yet, and rest is the
// text from there, to render again with what follows.
func inline(s string, prev byte, st style, final bool) (out, rest string) {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch c {
		case '\\':
			if i+1 == len(s) {
				if !final {
					return b.String(), s[i:]
				}
				b.WriteByte(c)
				i++
				continue
			}
			if isPunct(s[i+1]) {
				b.WriteByte(s[i+1])
			} else {
				b.WriteString(s[i : i+2])
			}
			i += 2
			continue
		case '`', '*', '_':
		default:
			j := strings.IndexAny(s[i:], "\\`*_")
			if j < 0 {
				j = len(s) - i
			}
			b.WriteString(s[i : i+j])
			i += j
			continue
		}
		n := run(s, i)
		if i+n == len(s) && !final {
			// The run may go on, and a mark needs what follows it.
			return b.String(), s[i:]
		}
		before := prev
		if i > 0 {
			before = s[i-1]
		}
		end, inner, ok := span(s, i, n, before, final)
		switch {
		case ok:
			in := st
			switch {
			case c == '`':
				in.code = true
				b.WriteString(in.sgr() + inner + st.sgr())
				i = end
				continue
			case n == 1:
				in.italic = true
			case n == 2:
				in.bold = true
			default:
				in.bold, in.italic = true, true
			}
			text, _ := inline(inner, 0, in, true)
			b.WriteString(in.sgr() + text + st.sgr())
			i = end
			continue
		case end < 0 && !final && len(s)-i < maxHold:
			// Not closed yet: it may be, further on.
			return b.String(), s[i:]
		}
		b.WriteString(s[i : i+n])
		i += n
	}
	return b.String(), ""
}

// run is the length of the run of s[i]'s character at i.
func run(s string, i int) int {
	n := 1
	for i+n < len(s) && s[i+n] == s[i] {
		n++
	}
	return n
}

// span finds the span that a run of n marks at i opens: the end of its
// closing run, and the text between. end is -1 when the run may open a
// span that s does not close (yet), and ok false with end 0 when it opens
// none. before is the character before the run. Unless final, a run at the end of s is not taken as closing: it
// may go on, and whether _ closes depends on what follows.
func span(s string, i, n int, before byte, final bool) (end int, inner string, ok bool) {
	c := s[i]
	after := i + n
	if c == '`' {
		for j := after; j < len(s); {
			k := strings.IndexByte(s[j:], '`')
			if k < 0 {
				break
			}
			j += k
			m := run(s, j)
			if j+m == len(s) && !final {
				break
			}
			if m == n {
				inner = s[after:j]
				if len(inner) > 2 && inner[0] == ' ' && inner[len(inner)-1] == ' ' {
					inner = inner[1 : len(inner)-1]
				}
				return j + m, inner, true
			}
			j += m
		}
		return -1, "", false
	}
	// Emphasis opens before a non-blank, and _ not inside a word
	// (snake_case); it closes after a non-blank, and _ not before a
	// word character.
	if n > 3 || after == len(s) || s[after] == ' ' || c == '_' && isWord(before) {
		return 0, "", false
	}
	for j := after; j < len(s); {
		k := strings.IndexByte(s[j:], c)
		if k < 0 {
			break
		}
		j += k
		m := run(s, j)
		if j+m == len(s) && !final {
			return -1, "", false
		}
		closes := m == n && s[j-1] != ' ' && s[j-1] != '\\' && !(c == '_' && j+m < len(s) && isWord(s[j+m]))
		if closes && j > after {
			return j + m, s[after:j], true
		}
		j += m
	}
	return -1, "", false
}

func isWord(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isPunct(c byte) bool {
	return c > ' ' && c < 0x7f && !isWord(c)
}
