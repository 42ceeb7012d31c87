package danger

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What $'…' and printf make of their text: backslash escapes, and
// printf's conversions, as bash does them.

// escape modes: the escapes differ a little between $'…' (ANSI-C
// quoting), printf's format, and printf's %b argument (echo -e's).
const (
	escANSI = iota
	escFormat
	escB
)

// maxPrintf bounds what printf is worked out to print, and the widths it
// is given (printf '%999999999s' would print a gigabyte).
const maxPrintf = 64 << 10

// ansiC decodes the escapes of $'…'.
func ansiC(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			i++
			continue
		}
		n, _ := escape(&b, s[i:], escANSI)
		i += n
	}
	return b.String()
}

// escape writes what the escape at the start of s (a backslash) stands
// for and returns the bytes it took; stop is set for \c in %b, which ends
// all output.
func escape(b *strings.Builder, s string, mode int) (n int, stop bool) {
	if len(s) < 2 {
		b.WriteString(s)
		return len(s), false
	}
	c := s[1]
	switch c {
	case 'a':
		b.WriteByte('\a')
	case 'b':
		b.WriteByte('\b')
	case 'e', 'E':
		b.WriteByte(0x1b)
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'v':
		b.WriteByte('\v')
	case '\\', '"', '?':
		b.WriteByte(c)
	case '\'':
		if mode == escB {
			b.WriteString(`\'`)
		} else {
			b.WriteByte('\'')
		}
	case 'c':
		switch {
		case mode == escB:
			return 2, true
		case mode == escANSI && len(s) > 2:
			r, size := utf8.DecodeRuneInString(s[2:])
			if r == '\\' && len(s) > 3 && s[3] == '\\' {
				size++ // \c\\ is \c\
			}
			b.WriteByte(byte(r) & 0x1f)
			return 2 + size, false
		}
		b.WriteString(s[:2])
	case '0', '1', '2', '3', '4', '5', '6', '7':
		start, most := 1, 3
		if mode == escB && c == '0' {
			start = 2 // \0nnn
		}
		end := start
		for end < len(s) && end-start < most && '0' <= s[end] && s[end] <= '7' {
			end++
		}
		v, _ := strconv.ParseUint(s[start:end], 8, 16)
		if start == end {
			v = 0
		}
		b.WriteByte(byte(v))
		return end, false
	case 'x', 'u', 'U':
		most := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
		end := 2
		for end < len(s) && end-2 < most && isHex(s[end]) {
			end++
		}
		if end == 2 {
			b.WriteString(s[:2])
			return 2, false
		}
		v, _ := strconv.ParseUint(s[2:end], 16, 32)
		if c == 'x' {
			b.WriteByte(byte(v))
		} else {
			b.WriteRune(rune(v))
		}
		return end, false
	default:
		b.WriteString(s[:2])
	}
	return 2, false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// printfText is what printf FORMAT ARGS… prints: like bash, the format is
// used again while arguments are left (printf '%s\n' a b prints two
// lines). ok is false for a format or a number bash rejects.
func printfText(format string, args []string) (string, bool) {
	var b strings.Builder
	for {
		used, stop, ok := printfOnce(&b, format, args)
		if !ok || b.Len() > maxPrintf {
			return "", false
		}
		args = args[used:]
		if stop || used == 0 || len(args) == 0 {
			return b.String(), true
		}
	}
}

// printfOnce prints format once, returning how many of args it used.
func printfOnce(b *strings.Builder, format string, args []string) (used int, stop, ok bool) {
	next := func() string {
		if used < len(args) {
			used++
			return args[used-1]
		}
		return ""
	}
	for i := 0; i < len(format); {
		switch format[i] {
		case '\\':
			n, _ := escape(b, format[i:], escFormat)
			i += n
			continue
		case '%':
		default:
			b.WriteByte(format[i])
			i++
			continue
		}
		// %[flags][width][.precision][length]conversion
		j := i + 1
		spec := []byte{'%'}
		for j < len(format) && strings.IndexByte("-+ #0'", format[j]) >= 0 {
			if format[j] != '\'' {
				spec = append(spec, format[j])
			}
			j++
		}
		for _, part := range []string{"width", "precision"} {
			if part == "precision" {
				if j >= len(format) || format[j] != '.' {
					break
				}
				spec = append(spec, '.')
				j++
			}
			if j < len(format) && format[j] == '*' {
				n, good := printfInt(next())
				if !good || n > maxPrintf || n < -maxPrintf {
					return 0, false, false
				}
				spec = strconv.AppendInt(spec, n, 10)
				j++
				continue
			}
			k := j
			for k < len(format) && '0' <= format[k] && format[k] <= '9' {
				k++
			}
			if n, err := strconv.Atoi(format[j:k]); err == nil && n > maxPrintf {
				return 0, false, false
			}
			spec = append(spec, format[j:k]...)
			j = k
		}
		for j < len(format) && strings.IndexByte("hlLjzt", format[j]) >= 0 {
			j++
		}
		if j >= len(format) {
			return 0, false, false // a % with no conversion
		}
		conv := format[j]
		i = j + 1
		switch conv {
		case '%':
			b.WriteByte('%')
		case 's', 'q', 'b', 'c':
			arg := next()
			switch conv {
			case 'q':
				arg = backslashQuote(arg)
			case 'b':
				var eb strings.Builder
				for k := 0; k < len(arg); {
					if arg[k] != '\\' {
						eb.WriteByte(arg[k])
						k++
						continue
					}
					n, end := escape(&eb, arg[k:], escB)
					if end {
						stop = true
						break
					}
					k += n
				}
				arg = eb.String()
			case 'c':
				_, n := utf8.DecodeRuneInString(arg)
				arg = arg[:n]
			}
			fmt.Fprintf(b, string(append(spec, 's')), arg)
			if stop {
				return used, true, true
			}
		case 'd', 'i':
			n, good := printfInt(next())
			if !good {
				return 0, false, false
			}
			fmt.Fprintf(b, string(append(spec, 'd')), n)
		case 'o', 'u', 'x', 'X':
			n, good := printfInt(next())
			if !good {
				return 0, false, false
			}
			if conv == 'u' {
				conv = 'd'
			}
			fmt.Fprintf(b, string(append(spec, conv)), uint64(n))
		case 'e', 'E', 'f', 'F', 'g', 'G', 'a', 'A':
			arg := strings.TrimSpace(next())
			f := 0.0
			if arg != "" {
				var err error
				if f, err = strconv.ParseFloat(arg, 64); err != nil {
					return 0, false, false
				}
			}
			switch conv {
			case 'a':
				conv = 'x'
			case 'A':
				conv = 'X'
			}
			fmt.Fprintf(b, string(append(spec, conv)), f)
		default:
			return 0, false, false
		}
	}
	return used, false, true
}

// backslashQuote is printf %q: shell characters escaped with a backslash,
// control characters in $'…'.
func backslashQuote(s string) string {
	switch {
	case s == "":
		return "''"
	case strings.ContainsFunc(s, unicode.IsControl):
		return dollarQuote(s)
	}
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(" \t\n!\"#$&'()*,;<=>?[\\]^`{|}~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// dollarQuote writes s as $'…', control characters escaped.
func dollarQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for _, r := range s {
		switch {
		case r == '\'' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case unicode.IsControl(r) && r < 0x100:
			fmt.Fprintf(&b, `\%03o`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// printfInt reads a number argument as printf does: C's integer
// constants, and 'c for the code of the character c.
func printfInt(s string) (int64, bool) {
	s = strings.TrimLeft(s, " \t\n")
	if s == "" {
		return 0, true
	}
	if s[0] == '\'' || s[0] == '"' {
		r, _ := utf8.DecodeRuneInString(s[1:])
		return int64(r), len(s) > 1
	}
	neg := false
	switch s[0] {
	case '-':
		neg, s = true, s[1:]
	case '+':
		s = s[1:]
	}
	n, err := strconv.ParseUint(s, 0, 64)
	if err != nil || strings.HasPrefix(s, "0b") || strings.HasPrefix(s, "0o") || strings.Contains(s, "_") {
		return 0, false
	}
	if neg {
		return -int64(n), true
	}
	return int64(n), true
}
