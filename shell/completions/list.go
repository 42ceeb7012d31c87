package completions

import (
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"
)

// ListStyle is what changes how readline lists the candidates: its
// variables, the terminal's width, and the colours.
type ListStyle struct {
	Width int // the terminal's columns
	// Horizontal fills the lines first (print-completions-horizontally),
	// not the columns.
	Horizontal bool
	// VisibleStats puts a character after a file's name for its type:
	// / @ * | = % # (visible-stats).
	VisibleStats bool
	// MarkDirs puts a / after a directory's name (mark-directories).
	MarkDirs bool
	// Colors colours the names by file type (colored-stats); nil for
	// none.
	Colors *Colors
	// Prefix is the colour of the prefix the names share
	// (colored-completion-prefix), an SGR parameter list; "" for none.
	Prefix string
	// PrefixLen shows a shared prefix longer than it as "..."
	// (completion-prefix-display-length); 0 shows it whole.
	PrefixLen int
}

// ellipsis is what stands for a long shared prefix.
const ellipsis = 3

// List lays the matches out as readline lists them, one string per screen
// line: in columns as wide as the longest name and two spaces, down the
// columns unless Horizontal. A name is a match's Name; one that names a
// file gets its type's character and colour.
func List(ms []Match, style ListStyle) []string {
	if len(ms) == 0 {
		return nil
	}
	maxw := 0
	for _, m := range ms {
		maxw = max(maxw, width(m.Name))
	}
	// The prefix the names share, in bytes, and as wide as it shows.
	common := sharedPrefix(ms)
	cw := width(common)
	switch {
	case cw > maxw:
		common, cw = "", 0
	case style.PrefixLen > 0:
		if cw > style.PrefixLen && cw > ellipsis {
			maxw -= cw - ellipsis
		} else {
			common, cw = "", 0
		}
	case style.Prefix == "":
		common, cw = "", 0
	}
	colw := maxw + 2
	limit := 1
	if style.Width > 0 {
		limit = style.Width / colw
		if limit != 1 && limit*colw == style.Width {
			limit--
		}
	}
	limit = max(limit, 1)
	rows := (len(ms) + limit - 1) / limit
	cell := func(b *strings.Builder, m Match, last bool) {
		n := style.name(b, m, common)
		if !last {
			b.WriteString(strings.Repeat(" ", max(colw-n, 1)))
		}
	}
	var lines []string
	if style.Horizontal {
		for r := 0; r < rows; r++ {
			var b strings.Builder
			for j := r * limit; j < min((r+1)*limit, len(ms)); j++ {
				cell(&b, ms[j], j == (r+1)*limit-1 || j == len(ms)-1)
			}
			lines = append(lines, b.String())
		}
		return lines
	}
	for r := 0; r < rows; r++ {
		var b strings.Builder
		for j := r; j < len(ms); j += rows {
			cell(&b, ms[j], (j-r)/rows == limit-1)
		}
		lines = append(lines, b.String())
	}
	return lines
}

// name writes m as readline's listing shows it and returns its width:
// the shared prefix common shown as an ellipsis or in its colour, the
// file's colour, its type character.
func (style ListStyle) name(b *strings.Builder, m Match, common string) int {
	text := m.Name
	n := 0
	prefix := len(common)
	if style.PrefixLen > 0 && prefix >= len(text) {
		prefix = 0 // a name that is the prefix is shown whole
	}
	colored := style.Colors != nil && m.Path != ""
	if colored && (prefix == 0 || style.Prefix == "") {
		b.WriteString(style.Colors.Start(m.Path))
	}
	rest := text
	switch {
	case prefix > 0 && style.PrefixLen > 0:
		dot := byte('.')
		if text[prefix] == '.' {
			dot = '_' // so as not to run into the name's own dots
		}
		b.WriteString(strings.Repeat(string(dot), ellipsis))
		n, rest = ellipsis, text[prefix:]
	case prefix > 0:
		b.WriteString("\x1b[" + style.Prefix + "m" + text[:prefix] + resetColor)
		if colored {
			b.WriteString(style.Colors.Start(m.Path))
		}
		n, rest = width(text[:prefix]), text[prefix:]
	}
	b.WriteString(printableText(rest))
	n += width(rest)
	if colored {
		b.WriteString(resetColor)
	}
	if m.Path == "" {
		return n
	}
	var c byte
	switch {
	case style.VisibleStats:
		c = statChar(m.Path)
	case style.MarkDirs && !strings.HasSuffix(text, "/"):
		if fi, err := os.Stat(m.Path); err == nil && fi.IsDir() {
			c = '/'
		}
	}
	if c != 0 {
		b.WriteByte(c)
		n++
	}
	return n
}

// resetColor ends a colour as readline does: back to the default, and the
// rest of the line cleared in it.
const resetColor = "\x1b[0m\x1b[K"

// statChar is visible-stats' character for the file at path, the link
// itself for a symbolic link: / directory, @ link, * executable, |
// FIFO, = socket, % character device, # block device.
func statChar(path string) byte {
	fi, err := os.Lstat(path)
	if err != nil {
		return 0
	}
	mode := fi.Mode()
	switch {
	case mode.IsDir():
		return '/'
	case mode&fs.ModeSymlink != 0:
		return '@'
	case mode&fs.ModeCharDevice != 0:
		return '%'
	case mode&fs.ModeDevice != 0:
		return '#'
	case mode&fs.ModeSocket != 0:
		return '='
	case mode&fs.ModeNamedPipe != 0:
		return '|'
	case mode.IsRegular() && mode.Perm()&0o111 != 0:
		return '*'
	}
	return 0
}

// sharedPrefix is the prefix all the matches' names have, whole
// characters.
func sharedPrefix(ms []Match) string {
	p := ms[0].Name
	for _, m := range ms[1:] {
		n := 0
		for n < len(p) && n < len(m.Name) && p[n] == m.Name[n] {
			n++
		}
		p = p[:n]
	}
	for p != "" && !utf8.ValidString(p) {
		p = p[:len(p)-1]
	}
	return p
}

// width is how many columns s takes as the listing prints it: a control
// character as ^X.
func width(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r < ' ' || r == 0x7f {
			n++
		}
	}
	return n
}

// printableText is s with its control characters as ^X.
func printableText(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == 0x7f:
			b.WriteString("^?")
		case r < ' ':
			b.WriteByte('^')
			b.WriteRune(r + '@')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
