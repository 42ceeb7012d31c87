package ansi

import (
	"io"
	"unicode/utf8"
)

// Escape returns s as a terminal may show it: printable text, newlines and
// tabs as they are; a carriage return before a newline dropped; every
// other C0 control and DEL in caret notation (ESC is ^[, BEL ^G), a C1
// control as the ESC sequence it stands for (U+009B is ^[[), bidirectional
// overrides, which reorder what is shown, as <U+202E>; invalid UTF-8 as
// U+FFFD.
func Escape(s string) string {
	var st Stream
	out := st.Next(s)
	return out + st.Flush()
}

// Stream is [Escape] for text that comes in pieces, which may cut a
// character or a CRLF in two: what a piece ends with that may go on in
// the next is held until then. The zero value is ready.
type Stream struct {
	held []byte
}

// Next returns piece escaped, but for what it ends with that may go on in
// the next piece.
func (st *Stream) Next(piece string) string {
	if piece == "" {
		return ""
	}
	p := append(st.held, piece...)
	out, rest := escape(make([]byte, 0, len(p)+8), p, false)
	st.held = append(st.held[:0:0], rest...)
	return string(out)
}

// Flush returns what is held, escaped as the end of the text.
func (st *Stream) Flush() string {
	if len(st.held) == 0 {
		return ""
	}
	out, _ := escape(nil, st.held, true)
	st.held = nil
	return string(out)
}

// Writer writes to another writer what [Escape] makes of the bytes it
// gets. Call Flush at the end of the text.
type Writer struct {
	w  io.Writer
	st Stream
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write escapes p and writes it, holding back what may go on in the next
// write. It reports len(p) when the underlying write succeeds.
func (w *Writer) Write(p []byte) (int, error) {
	if s := w.st.Next(string(p)); s != "" {
		if _, err := io.WriteString(w.w, s); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush writes what is held.
func (w *Writer) Flush() error {
	if s := w.st.Flush(); s != "" {
		_, err := io.WriteString(w.w, s)
		return err
	}
	return nil
}

// escape appends p escaped to dst. Unless end is set, an incomplete
// character or a carriage return at the end of p is returned as rest.
func escape(dst, p []byte, end bool) (out, rest []byte) {
	for i := 0; i < len(p); {
		b := p[i]
		switch {
		case b == '\n' || b == '\t':
			dst = append(dst, b)
			i++
			continue
		case b == '\r':
			if i+1 == len(p) && !end {
				return dst, p[i:]
			}
			if i+1 < len(p) && p[i+1] == '\n' {
				i++ // CRLF is a newline
				continue
			}
			dst = append(dst, '^', 'M')
			i++
			continue
		case b < 0x20 || b == 0x7f:
			dst = append(dst, '^', b^0x40)
			i++
			continue
		case b < utf8.RuneSelf:
			dst = append(dst, b)
			i++
			continue
		}
		if !end && !utf8.FullRune(p[i:]) {
			return dst, p[i:]
		}
		r, size := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, "\uFFFD"...)
		case r >= 0x80 && r < 0xa0:
			dst = append(dst, '^', '[', byte(r-0x40))
		case r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069:
			dst = append(dst, "<U+"...)
			dst = append(dst, hex4(r)...)
			dst = append(dst, '>')
		default:
			dst = append(dst, p[i:i+size]...)
		}
		i += size
	}
	return dst, nil
}

// hex4 is r in four upper-case hex digits.
func hex4(r rune) []byte {
	const digits = "0123456789ABCDEF"
	return []byte{digits[r>>12&15], digits[r>>8&15], digits[r>>4&15], digits[r&15]}
}
