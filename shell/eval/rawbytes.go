package eval

import (
	"strings"
	"unicode/utf8"
)

// bash reads bytes: a script in Latin-1 (an é in a comment, a string, a
// file name) runs. mvdan/sh's parser refuses text that is not UTF-8, so
// each byte that is not part of a UTF-8 character is read as a rune of
// the last private-use plane, U+10FF80 to U+10FFFF, and turned back into
// its byte where literal text becomes a value.

const rawByteBase = 0x10FF00

// escapeRawBytes is src with each byte that is not UTF-8 replaced by its
// stand-in rune; src itself when it is all UTF-8.
func escapeRawBytes(src string) string {
	if utf8.ValidString(src) {
		return src
	}
	var b strings.Builder
	b.Grow(len(src) + 16)
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRuneInString(src[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(rawByteBase + rune(src[i]))
		} else {
			b.WriteString(src[i : i+n])
		}
		i += n
	}
	return b.String()
}

// unescapeRawBytes turns the stand-in runes in text read from the source
// back into the bytes they stand for.
func unescapeRawBytes(s string) string {
	// U+10FF80…U+10FFFF are F4 8F BE 80 … F4 8F BF BF in UTF-8.
	if !strings.Contains(s, "\xf4\x8f\xbe") && !strings.Contains(s, "\xf4\x8f\xbf") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r >= rawByteBase+0x80 && r <= rawByteBase+0xFF {
			b.WriteByte(byte(r - rawByteBase))
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
