package shell

import (
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/qsh-shell/qsh/shell/eval"
)

// Bytes that are not UTF-8 (a Latin-1 terminal's é, a file name pasted
// from one) stay the bytes they are in the command line, as in bash:
// readline v0.1.3 reads runes and would make each one U+FFFD. So the
// editor's input hands it such a byte as a rune of Unicode's plane 16,
// private use, and the line read gets the byte back.
const rawRune = eval.RawByteRune // + the byte, 0x80 to 0xFF

// rawWait is how long the rest of a character cut by a read is waited
// for before its first byte is taken for a raw one.
const rawWait = 50 * time.Millisecond

// appendRaw appends b to dst with every byte that is not part of a UTF-8
// character as its rune.
func appendRaw(dst, b []byte) []byte { return eval.AppendRawBytes(dst, b) }

// unraw gives back the bytes the line's raw runes stand for.
func unraw(line string) string { return eval.UnescapeRawBytes(line) }

// rawText is text as the line editor gets it: raw bytes as their runes.
func rawText(text string) string { return eval.EscapeRawBytes(text) }

// toRunes is [rawText] as runes.
func toRunes(text string) []rune { return []rune(rawText(text)) }

// rawAhead moves the character at the start of in.buf, which is not
// ASCII, to in.out, whole; a byte that does not start a UTF-8 character
// goes as its raw rune. It reports whether it moved anything.
// A character a read cut in two is completed first, when the rest comes
// within rawWait.
func (in *lineInput) rawAhead() bool {
	if in.buf[0] < utf8.RuneSelf {
		return false
	}
	if !utf8.FullRune(in.buf) && (in.more(rawWait) || in.readOn()) {
		return in.rawAhead()
	}
	if r, n := utf8.DecodeRune(in.buf); r != utf8.RuneError || n != 1 {
		// Whole, so that the next byte handed out starts a character.
		in.out = append(in.out, in.buf[:n]...)
		in.buf = in.buf[n:]
		return true
	}
	in.out = utf8.AppendRune(in.out, rawRune+rune(in.buf[0]))
	in.buf = in.buf[1:]
	return true
}

// readOn reads more into buf from an input that cannot be polled (not a
// terminal): it has no keys to wait for, only bytes to come.
func (in *lineInput) readOn() bool {
	if _, ok := in.f.(syscall.Conn); ok {
		return false
	}
	head := append([]byte(nil), in.buf...) // the read reuses raw
	n, _ := in.f.Read(in.raw[:])
	in.buf = append(head, in.raw[:n]...)
	return n > 0
}
