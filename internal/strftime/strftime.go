package strftime

import (
	"strconv"
	"strings"
	"time"
)

// Format formats t as C's strftime does in the C locale, with glibc's
// flags (- _ 0 ^ #), field widths and the E and O modifiers (ignored).
// An unknown conversion is copied as it is.
func Format(format string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		start := i
		i++
		var flag byte
		for i < len(format) && strings.IndexByte("-_0^#", format[i]) >= 0 {
			flag = format[i]
			i++
		}
		width := -1
		if i < len(format) && format[i] >= '1' && format[i] <= '9' {
			width, i = digits(format, i)
		}
		if i < len(format) && (format[i] == 'E' || format[i] == 'O') {
			i++
		}
		if i >= len(format) {
			b.WriteString(format[start:])
			break
		}
		s, num, pad, ok := strftimeField(format[i], t)
		if !ok {
			b.WriteString(format[start : i+1])
			continue
		}
		switch flag {
		case '^':
			s = strings.ToUpper(s)
		case '#':
			if format[i] == 'Z' || format[i] == 'p' {
				s = strings.ToLower(s)
			} else {
				s = strings.ToUpper(s)
			}
		}
		if num {
			digits := strings.TrimLeft(s, " 0")
			neg := strings.HasPrefix(s, "-")
			if neg {
				digits = strings.TrimLeft(s[1:], " 0")
			}
			if digits == "" {
				digits = "0"
			}
			w := len(s)
			if width > 0 {
				w = width
			}
			fill := pad
			switch flag {
			case '-':
				if width < 0 {
					w = 0
				}
				fill = ' '
			case '_':
				fill = ' '
			case '0':
				fill = '0'
			}
			if neg {
				digits = "-" + digits
			}
			if n := w - len(digits); n > 0 {
				if fill == '0' && neg {
					digits = "-" + strings.Repeat("0", n) + digits[1:]
				} else {
					digits = strings.Repeat(string(fill), n) + digits
				}
			}
			s = digits
		} else if width > len(s) {
			fill := " "
			if flag == '0' {
				fill = "0"
			}
			s = strings.Repeat(fill, width-len(s)) + s
		}
		b.WriteString(s)
	}
	return b.String()
}

// strftimeField is one conversion: its text, whether it is a number that
// flags may re-pad, and the character it pads with by default.
func strftimeField(c byte, t time.Time) (s string, num bool, pad byte, ok bool) {
	n := func(v, w int) (string, bool, byte, bool) {
		s := strconv.Itoa(v)
		if len(s) < w {
			s = strings.Repeat("0", w-len(s)) + s
		}
		return s, true, '0', true
	}
	sp := func(v, w int) (string, bool, byte, bool) {
		s := strconv.Itoa(v)
		if len(s) < w {
			s = strings.Repeat(" ", w-len(s)) + s
		}
		return s, true, ' ', true
	}
	str := func(s string) (string, bool, byte, bool) { return s, false, ' ', true }
	hour12 := t.Hour() % 12
	if hour12 == 0 {
		hour12 = 12
	}
	isoYear, isoWeek := t.ISOWeek()
	switch c {
	case 'a':
		return str(t.Format("Mon"))
	case 'A':
		return str(t.Format("Monday"))
	case 'b', 'h':
		return str(t.Format("Jan"))
	case 'B':
		return str(t.Format("January"))
	case 'c':
		return str(Format("%a %b %e %H:%M:%S %Y", t))
	case 'C':
		return n(t.Year()/100, 2)
	case 'd':
		return n(t.Day(), 2)
	case 'D', 'x':
		return str(Format("%m/%d/%y", t))
	case 'e':
		return sp(t.Day(), 2)
	case 'F':
		return str(Format("%Y-%m-%d", t))
	case 'g':
		return n(isoYear%100, 2)
	case 'G':
		return n(isoYear, 1)
	case 'H':
		return n(t.Hour(), 2)
	case 'I':
		return n(hour12, 2)
	case 'j':
		return n(t.YearDay(), 3)
	case 'k':
		return sp(t.Hour(), 2)
	case 'l':
		return sp(hour12, 2)
	case 'm':
		return n(int(t.Month()), 2)
	case 'M':
		return n(t.Minute(), 2)
	case 'n':
		return str("\n")
	case 'p':
		return str(t.Format("PM"))
	case 'P':
		return str(strings.ToLower(t.Format("PM")))
	case 'r':
		return str(Format("%I:%M:%S %p", t))
	case 'R':
		return str(Format("%H:%M", t))
	case 's':
		return n(int(t.Unix()), 1)
	case 'S':
		return n(t.Second(), 2)
	case 't':
		return str("\t")
	case 'T', 'X':
		return str(Format("%H:%M:%S", t))
	case 'u':
		return n((int(t.Weekday())+6)%7+1, 1)
	case 'U':
		return n((t.YearDay()+6-int(t.Weekday()))/7, 2)
	case 'V':
		return n(isoWeek, 2)
	case 'w':
		return n(int(t.Weekday()), 1)
	case 'W':
		return n((t.YearDay()+6-(int(t.Weekday())+6)%7)/7, 2)
	case 'y':
		return n(t.Year()%100, 2)
	case 'Y':
		return n(t.Year(), 1)
	case 'z':
		return str(t.Format("-0700"))
	case 'Z':
		name, _ := t.Zone()
		return str(name)
	case '%':
		return str("%")
	}
	return "", false, 0, false
}

// maxWidth bounds a field's width, as printf's (a width is no way to ask
// for gigabytes).
const maxWidth = 1 << 20

// digits reads a decimal width at f[i:].
func digits(f string, i int) (n, end int) {
	for ; i < len(f) && f[i] >= '0' && f[i] <= '9'; i++ {
		n = min(n*10+int(f[i]-'0'), maxWidth)
	}
	return n, i
}
