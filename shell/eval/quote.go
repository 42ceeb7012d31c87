package eval

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// needsANSIC reports whether s has characters that only $'…' can show:
// control characters and bytes that are not UTF-8.
func needsANSIC(s string) bool {
	for i := 0; i < len(s); {
		c, n := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && n == 1 || !unicode.IsPrint(c) && c != ' ' {
			return true
		}
		i += n
	}
	return false
}

// ansiCQuote is s as $'…', as bash writes it.
func ansiCQuote(s string) string {
	var sb strings.Builder
	sb.WriteString("$'")
	for i := 0; i < len(s); {
		c, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && n == 1:
			writeOctal(&sb, s[i])
		case c == '\a':
			sb.WriteString(`\a`)
		case c == '\b':
			sb.WriteString(`\b`)
		case c == '\f':
			sb.WriteString(`\f`)
		case c == '\n':
			sb.WriteString(`\n`)
		case c == '\r':
			sb.WriteString(`\r`)
		case c == '\t':
			sb.WriteString(`\t`)
		case c == '\v':
			sb.WriteString(`\v`)
		case c == 0x1b:
			sb.WriteString(`\E`)
		case c == '\\':
			sb.WriteString(`\\`)
		case c == '\'':
			sb.WriteString(`\'`)
		case !unicode.IsPrint(c) && c != ' ':
			for j := 0; j < n; j++ {
				writeOctal(&sb, s[i+j])
			}
		default:
			sb.WriteString(s[i : i+n])
		}
		i += n
	}
	sb.WriteByte('\'')
	return sb.String()
}

func writeOctal(sb *strings.Builder, b byte) {
	sb.WriteByte('\\')
	sb.WriteByte('0' + b>>6)
	sb.WriteByte('0' + b>>3&7)
	sb.WriteByte('0' + b&7)
}

// shellQuote is ${x@Q}: single quotes, or $'…' when needed.
func shellQuote(s string) string {
	if needsANSIC(s) {
		return ansiCQuote(s)
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// dquote is a value as declare -p writes it: double quotes, or $'…'.
func dquote(s string) string {
	if needsANSIC(s) {
		return ansiCQuote(s)
	}
	var sb strings.Builder
	sb.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\', '$', '`':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		default:
			sb.WriteByte(c)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

// shellQuoteKey is an associative array's key as declare -p writes it:
// bare when it can be, else quoted as a value.
func shellQuoteKey(k string) string {
	if k != "" && !strings.ContainsAny(k, " \t\n\"'\\$`;&|<>(){}[]*?!#~=%") && !needsANSIC(k) {
		return k
	}
	return dquote(k)
}

// quoteWord quotes s for reuse as one shell word only when it needs it,
// as set -x and printf %q do.
func quoteWord(s string) string {
	// bash's xtrace: '' for nothing, single quotes for a word with a
	// shell metacharacter (a blank, a tab or a newline among them), $'…'
	// for other control characters, else the word as it is.
	switch {
	case s == "":
		return "''"
	case hasShellMetas(s):
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	case needsANSIC(s):
		return ansiCQuote(s)
	}
	return s
}

// ansiC interprets the backslash escapes of $'…' (and ${x@E}, echo -e's
// kin).
func ansiC(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			sb.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'a':
			sb.WriteByte('\a')
		case 'b':
			sb.WriteByte('\b')
		case 'e', 'E':
			sb.WriteByte(0x1b)
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'v':
			sb.WriteByte('\v')
		case '\\', '\'', '"', '?':
			sb.WriteByte(e)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n, j := 0, i
			for ; j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7'; j++ {
				n = n*8 + int(s[j]-'0')
			}
			sb.WriteByte(byte(n))
			i = j - 1
		case 'x':
			n, j := 0, i+1
			for ; j < len(s) && j < i+3 && isHex(s[j]); j++ {
				n = n*16 + hexVal(s[j])
			}
			if j == i+1 {
				sb.WriteString(`\x`)
				continue
			}
			sb.WriteByte(byte(n))
			i = j - 1
		case 'u', 'U':
			max := 4
			if e == 'U' {
				max = 8
			}
			n, j := 0, i+1
			for ; j < len(s) && j < i+1+max && isHex(s[j]); j++ {
				n = n*16 + hexVal(s[j])
			}
			if j == i+1 {
				sb.WriteByte('\\')
				sb.WriteByte(e)
				continue
			}
			sb.WriteRune(rune(n))
			i = j - 1
		case 'c':
			if i+1 < len(s) {
				i++
				sb.WriteByte(s[i] & 0x1f)
			} else {
				sb.WriteString(`\c`)
			}
		default:
			sb.WriteByte('\\')
			sb.WriteByte(e)
		}
	}
	return sb.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}
