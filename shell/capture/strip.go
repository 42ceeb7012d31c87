package capture

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Strip returns terminal output as the text a reader saw: escape sequences
// (CSI, OSC ended by BEL or ST, DCS/APC/PM/SOS, charset selection and other
// two- and three-byte ESC sequences) are removed; carriage returns,
// backspaces and erase-in-line overwrite the current line as a terminal
// would, so a progress bar leaves only its last state; whatever was drawn
// on the alternate screen (vim, less, top) is dropped. Line ends become
// "\n", trailing blanks are trimmed, and invalid UTF-8 becomes U+FFFD.
// A sequence cut off at the end of s is dropped.
func Strip(s string) string {
	var t stripper
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == esc:
			i = t.escape(s, i)
			continue
		case c == '\n':
			t.newline()
		case c == '\r':
			t.col = 0
		case c == '\b':
			t.col = max(t.col-1, 0)
		case c == '\t':
			t.put('\t')
		case c < 0x20 || c == 0x7f:
			// other controls (BEL, SO, SI, …) draw nothing
		case c < utf8.RuneSelf:
			t.put(rune(c))
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			t.put(r)
			i += n
			continue
		}
		i++
	}
	t.flushLine()
	return t.out.String()
}

// stripper is the little of a terminal that Strip models: one line with a
// cursor, and whether the alternate screen is up.
type stripper struct {
	out  strings.Builder
	line []rune
	col  int
	alt  bool
}

// maxCol bounds the cursor, so that a sequence moving it far right cannot
// make Strip's output much longer than its input.
const maxCol = 1024

func (t *stripper) put(r rune) {
	if t.alt {
		return
	}
	t.col = min(t.col, maxCol)
	for len(t.line) < t.col {
		t.line = append(t.line, ' ')
	}
	if t.col < len(t.line) {
		t.line[t.col] = r
	} else {
		t.line = append(t.line, r)
	}
	t.col++
}

func (t *stripper) newline() {
	if t.alt {
		return
	}
	t.flushLine()
	t.out.WriteByte('\n')
}

func (t *stripper) flushLine() {
	t.out.WriteString(strings.TrimRight(string(t.line), " \t"))
	t.line = t.line[:0]
	t.col = 0
}

// escape consumes the escape sequence at s[i] (an ESC) and returns the
// index after it.
func (t *stripper) escape(s string, i int) int {
	if i+1 >= len(s) {
		return len(s)
	}
	switch c := s[i+1]; c {
	case '[':
		return t.csi(s, i+2)
	case ']':
		return stringEnd(s, i+2, true)
	case 'P', 'X', '^', '_': // DCS, SOS, PM, APC
		return stringEnd(s, i+2, false)
	case '(', ')', '*', '+', '-', '.', '/', '#', '%', ' ':
		// charset selection and friends: ESC, an intermediate, a final
		return min(i+3, len(s))
	default:
		return i + 2
	}
}

// stringEnd returns the index after the control string (OSC, DCS, …)
// whose text starts at s[i]. As in terminals, ST (ESC \\) ends it, so does
// BEL when bel is set (as OSC allows); CAN and SUB abort it, and any other
// ESC aborts it and starts a new sequence.
func stringEnd(s string, i int, bel bool) int {
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case bel && c == 0x07, c == 0x18, c == 0x1a:
			return i + 1
		case c == esc:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i
		}
	}
	return len(s)
}

// csi consumes a control sequence whose parameters start at s[i], applies
// the few that change the text of the line, and returns the index after it.
func (t *stripper) csi(s string, i int) int {
	start := i
	for i < len(s) && s[i] >= 0x30 && s[i] <= 0x3f { // parameters
		i++
	}
	params := s[start:i]
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f { // intermediates
		i++
	}
	if i >= len(s) {
		return i
	}
	final := s[i]
	if final < 0x40 || final > 0x7e {
		return i // malformed: drop what we read, keep the odd byte
	}
	n := func() int {
		v, err := strconv.Atoi(params)
		if err != nil || v < 1 {
			return 1
		}
		return min(v, maxCol)
	}
	switch final {
	case 'K': // erase in line
		if t.alt {
			break
		}
		switch params {
		case "", "0":
			t.line = t.line[:min(t.col, len(t.line))]
		case "1":
			for j := 0; j < len(t.line) && j <= t.col; j++ {
				t.line[j] = ' '
			}
		case "2":
			t.line = t.line[:0]
		}
	case 'G': // cursor to column
		t.col = n() - 1
	case 'C': // cursor forward
		t.col += n()
	case 'D': // cursor back
		t.col = max(t.col-n(), 0)
	case 'h', 'l': // modes: the alternate screen comes and goes
		if rest, ok := strings.CutPrefix(params, "?"); ok {
			for _, p := range strings.Split(rest, ";") {
				if p == "1049" || p == "1047" || p == "47" {
					t.alt = final == 'h'
				}
			}
		}
	}
	return i + 1
}
