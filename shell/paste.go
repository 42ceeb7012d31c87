package shell

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// Bracketed paste: while a line is read, the terminal is asked to mark
// what the user pastes. A one-line paste reaches the line editor as one
// insertion, one redraw, where key by key readline would redraw the whole
// line for each character; pasted lines can so be far longer than typed
// ones. A paste of several lines is handed over as if typed, so that each
// line runs as it did before terminals marked pastes.
const (
	pasteOn    = "\x1b[?2004h"
	pasteOff   = "\x1b[?2004l"
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
)

// pasteRune stands, in the editor's input, for the one-line paste the
// input holds. U+FDD0 is a noncharacter: no keyboard types it.
const pasteRune = '\uFDD0'

// readPaste reads up to the end of a paste whose start marker has been
// consumed, and queues it: a one-line paste as pasteRune with its text
// kept for takePaste, several lines as bytes to hand out. Past
// MaxLine*4 bytes the text is dropped, the rest still read.
func (in *lineInput) readPaste() error {
	var text []byte
	over := false
	for {
		if i := bytes.Index(in.buf, []byte(pasteEnd)); i >= 0 {
			text = append(text, in.buf[:i]...)
			in.buf = in.buf[i+len(pasteEnd):]
			break
		}
		// Keep what might be the start of a split end marker.
		keep := min(len(in.buf), len(pasteEnd)-1)
		text = append(text, in.buf[:len(in.buf)-keep]...)
		if len(text) > MaxLine*utf8.UTFMax {
			text, over = text[:0], true
		}
		tail := append([]byte(nil), in.buf[len(in.buf)-keep:]...)
		n, err := in.f.Read(in.raw[:])
		if n == 0 { // the terminal is gone: keep what came
			in.buf = nil
			in.queue(append(text, tail...), over)
			return err
		}
		in.buf = append(tail, in.raw[:n]...)
	}
	in.queue(text, over)
	return nil
}

func (in *lineInput) queue(text []byte, over bool) {
	if over || !bytes.ContainsAny(text, "\r\n") {
		in.paste, in.pasteOver = cleanPaste(text), over
		in.out = utf8.AppendRune(in.out, pasteRune)
		return
	}
	in.out = appendRaw(in.out, text)
}

// takePaste returns the one-line paste pasteRune stands for, and whether
// it was too long to keep.
func (in *lineInput) takePaste() (string, bool) {
	p, over := in.paste, in.pasteOver
	in.paste, in.pasteOver = "", false
	return p, over
}

// cleanPaste drops control characters but tabs from one pasted line:
// inserted as they are they would garble the line on screen. Bytes that
// are not UTF-8 stay (see [rawRune]).
func cleanPaste(b []byte) string {
	return strings.Map(func(r rune) rune {
		if (r < 0x20 && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return -1
		}
		return r
	}, string(appendRaw(nil, b)))
}
