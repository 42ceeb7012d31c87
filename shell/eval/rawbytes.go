package eval

import (
	"strings"
	"unicode/utf8"
)

// bash reads bytes: a script in Latin-1 (an é in a comment, a string, a
// file name) runs. mvdan/sh's parser refuses text that is not UTF-8, so
// each byte that is not part of a UTF-8 character is read as a rune of
// the last private-use plane, U+10FF80 to U+10FFFF, and turned back into
// its byte where literal text becomes a value. The line editor, which
// reads runes, hands such bytes on the same way.

// RawByteRune plus a byte from 0x80 to 0xFF is the rune that stands for
// the byte.
const RawByteRune = 0x10FF00

// EscapeRawBytes is src with each byte that is not UTF-8 replaced by its
// stand-in rune; src itself when it is all UTF-8.
func EscapeRawBytes(src string) string {
	if utf8.ValidString(src) {
		return src
	}
	return string(AppendRawBytes(make([]byte, 0, len(src)+16), []byte(src)))
}

// AppendRawBytes appends b to dst with each byte that is not part of a
// UTF-8 character as its stand-in rune.
func AppendRawBytes(dst, b []byte) []byte {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			dst = utf8.AppendRune(dst, RawByteRune+rune(b[0]))
		} else {
			dst = append(dst, b[:n]...)
		}
		b = b[n:]
	}
	return dst
}

// UnescapeRawBytes turns the stand-in runes in s back into the bytes they
// stand for.
func UnescapeRawBytes(s string) string {
	// U+10FF80…U+10FFFF are F4 8F BE 80 … F4 8F BF BF in UTF-8: most
	// text has no F4 byte at all.
	if strings.IndexByte(s, 0xf4) < 0 ||
		!strings.Contains(s, "\xf4\x8f\xbe") && !strings.Contains(s, "\xf4\x8f\xbf") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r >= RawByteRune+0x80 && r <= RawByteRune+0xFF {
			b.WriteByte(byte(r - RawByteRune))
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
