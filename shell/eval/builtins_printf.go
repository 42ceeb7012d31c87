package eval

import (
	"fmt"
	"math"
	"math/big"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/qsh-shell/qsh/internal/strftime"
)

// printf as bash 5.2 prints, byte for byte in a UTF-8 locale: -v (also
// to an array element), %b and %q, %(…)T, widths and precisions from *,
// the format reused while arguments remain, numbers read as strtoimax and
// strtold do ('c character constants, overflow clamped with a message)
// and floats formatted as x87 long doubles.

// maxField bounds a field width or precision, so that a typo such as
// %99999999999d cannot make the shell allocate gigabytes.
const maxField = 1 << 20

// strftimeMax is bash's strftime buffer: a longer result prints nothing.
const strftimeMax = 128

func builtinPrintf(b *B) int {
	f, args, ok := b.flags("v:", false)
	if !ok {
		return 2
	}
	dest, toVar := f.val('v'), f.has('v')
	if toVar {
		if _, _, _, ok := splitRef(dest); !ok {
			b.Errorf("`%s': not a valid identifier", dest)
			return 2
		}
	}
	if len(args) == 0 {
		b.usage()
		return 2
	}
	p := &printer{
		args:  args[1:],
		warn:  func(msg string) { b.Errorf("%s", msg) },
		zone:  b.R.timeZone,
		start: b.R.sess.start,
	}
	p.run(args[0])
	if !toVar {
		return writeOut(b, p.out, p.status)
	}
	val := string(p.out)
	if i := strings.IndexByte(val, 0); i >= 0 {
		val = val[:i] // a variable, a C string in bash, ends at a NUL
	}
	if err := b.R.assignRef(dest, val); err != nil {
		return b.assignError(err)
	}
	return p.status
}

// printer runs one printf: what it printed, its status, and the
// arguments not yet used.
type printer struct {
	out    []byte
	args   []string
	used   int
	status int
	stop   bool // \c in a %b argument ends all output
	warn   func(msg string)
	zone   func() *time.Location
	start  time.Time // the shell's start, %(…)T's -2
}

// run prints the format once, and again while it uses up arguments.
func (p *printer) run(format string) {
	for {
		before := p.used
		if !p.once(format) || p.stop || p.used == before || p.used >= len(p.args) {
			return
		}
	}
}

func (p *printer) fail(format string, args ...any) {
	p.warn(fmt.Sprintf(format, args...))
	p.status = 1
}

// fmtSpec is one conversion's flags, width and precision; prec < 0 when
// the conversion has none.
type fmtSpec struct {
	minus, plus, space, sharp, zero bool
	width, prec                     int
}

// once prints the format once; false means an error that ends printf.
func (p *printer) once(f string) bool {
	for i := 0; i < len(f); {
		switch c := f[i]; c {
		case '\\':
			// \c is not special in the format itself.
			p.out, i, _ = unescape(p.out, f, i, false, p.warn)
		case '%':
			n, ok := p.conversion(f[i:])
			if !ok || p.stop {
				return false
			}
			i += n
		default:
			j := i + 1
			for j < len(f) && f[j] != '\\' && f[j] != '%' {
				j++
			}
			p.out = append(p.out, f[i:j]...)
			i = j
		}
	}
	return true
}

// conversion prints the conversion at the start of f and says how long
// it was.
func (p *printer) conversion(f string) (int, bool) {
	if len(f) > 1 && f[1] == '%' {
		p.out = append(p.out, '%')
		return 2, true
	}
	sp := fmtSpec{prec: -1}
	i := 1
flags:
	for ; i < len(f); i++ {
		switch f[i] {
		case '-':
			sp.minus = true
		case '+':
			sp.plus = true
		case ' ':
			sp.space = true
		case '#':
			sp.sharp = true
		case '0':
			sp.zero = true
		case '\'':
		default:
			break flags
		}
	}
	if i < len(f) && f[i] == '*' {
		i++
		w := p.intArg()
		if w < 0 {
			sp.minus = true
			w = -w
		}
		sp.width = int(min(w, maxField+1))
	} else {
		var ok bool
		if sp.width, i, ok = digits(f, i); !ok {
			sp.width = maxField + 1
		}
	}
	if i < len(f) && f[i] == '.' {
		i++
		if i < len(f) && f[i] == '*' {
			i++
			pr := p.intArg()
			sp.prec = int(max(min(pr, maxField+1), -1))
		} else {
			var ok bool
			if sp.prec, i, ok = digits(f, i); !ok {
				sp.prec = maxField + 1
			}
		}
	}
	if sp.width > maxField || sp.prec > maxField {
		p.fail("%s: field width or precision too large", f[:i])
		return 0, false
	}
	for i < len(f) && strings.IndexByte("hlLjzt", f[i]) >= 0 {
		i++
	}
	if i >= len(f) {
		p.fail("`%s': missing format character", f)
		return 0, false
	}
	switch c := f[i]; c {
	case 's':
		p.pad(p.strArg(), sp, true)
	case 'b':
		arg := p.strArg()
		var out []byte
		for j := 0; j < len(arg) && !p.stop; {
			if arg[j] != '\\' {
				out = append(out, arg[j])
				j++
				continue
			}
			out, j, p.stop = unescape(out, arg, j, true, p.warn)
		}
		p.pad(string(out), sp, true)
	case 'q':
		p.pad(printfQuote(p.strArg()), sp, true)
	case 'Q':
		arg := p.strArg()
		if sp.prec >= 0 && sp.prec < len(arg) {
			arg = arg[:sp.prec]
		}
		sp.prec = -1
		p.pad(printfQuote(arg), sp, true)
	case 'c':
		arg := p.strArg()
		if arg == "" {
			arg = "\x00"
		}
		sp.prec = -1
		p.pad(arg[:1], sp, true)
	case 'd', 'i':
		n := p.intArg()
		mag := uint64(n)
		if n < 0 {
			mag = -mag
		}
		p.pad(formatInt(mag, n < 0, 10, false, sp), sp, false)
	case 'u', 'o', 'x', 'X':
		base := map[byte]int{'u': 10, 'o': 8, 'x': 16, 'X': 16}[c]
		sp.plus, sp.space = false, false
		p.pad(formatInt(p.uintArg(), false, base, c == 'X', sp), sp, false)
	case 'e', 'E', 'f', 'F', 'g', 'G', 'a', 'A':
		p.pad(formatFloat(p.floatArg(), c, sp), fmtSpec{minus: sp.minus, width: sp.width, prec: -1}, true)
	case '(':
		// %(format)T, parentheses nested in format.
		j, depth := i+1, 1
		for ; j < len(f); j++ {
			if f[j] == '(' {
				depth++
			} else if f[j] == ')' {
				if depth--; depth == 0 {
					break
				}
			}
		}
		tf := f[i+1 : j]
		var next byte
		if j+1 < len(f) {
			next = f[j+1]
		}
		if next != 'T' {
			// bash warns, prints the % and reads on after it.
			p.warn("warning: `" + string([]byte{next}) + "': invalid time format specification")
			p.out = append(p.out, '%')
			return 1, true
		}
		i = j + 1
		p.pad(p.timeArg(tf), sp, true)
	default:
		p.fail("`%c': invalid format character", c)
		return 0, false
	}
	return i + 1, true
}

// digits reads a decimal number at f[i:]; ok is false if it is too large.
func digits(f string, i int) (n, end int, ok bool) {
	ok = true
	for ; i < len(f) && f[i] >= '0' && f[i] <= '9'; i++ {
		n = n*10 + int(f[i]-'0')
		if n > maxField {
			ok = false
			n = maxField
		}
	}
	return n, i, ok
}

// pad writes s as a field: cut to the precision (if cut), padded with
// spaces to the width. Numbers come here already padded with zeros.
func (p *printer) pad(s string, sp fmtSpec, cut bool) {
	if cut && sp.prec >= 0 && sp.prec < len(s) {
		s = s[:sp.prec]
	}
	fill := max(sp.width-len(s), 0)
	if !sp.minus {
		p.out = appendSpaces(p.out, fill)
	}
	p.out = append(p.out, s...)
	if sp.minus {
		p.out = appendSpaces(p.out, fill)
	}
}

func appendSpaces(out []byte, n int) []byte {
	for range n {
		out = append(out, ' ')
	}
	return out
}

func (p *printer) next() (string, bool) {
	if p.used >= len(p.args) {
		return "", false
	}
	p.used++
	return p.args[p.used-1], true
}

func (p *printer) strArg() string {
	s, _ := p.next()
	return s
}

func (p *printer) intArg() int64 {
	s, _ := p.next()
	return p.parseInt(s)
}

func (p *printer) parseInt(s string) int64 {
	if v, ok := charConst(s); ok {
		return int64(v)
	}
	neg, mag, over, rest, ok := scanInt(s)
	switch {
	case !ok || rest != "":
		p.fail("%s: invalid number", s)
	case over || !neg && mag > math.MaxInt64 || neg && mag > 1<<63:
		p.warn("warning: " + s + ": Numerical result out of range")
		if neg {
			return math.MinInt64
		}
		return math.MaxInt64
	}
	if neg {
		return int64(-mag)
	}
	return int64(mag)
}

func (p *printer) uintArg() uint64 {
	s, _ := p.next()
	if v, ok := charConst(s); ok {
		return uint64(v)
	}
	neg, mag, over, rest, ok := scanInt(s)
	switch {
	case !ok || rest != "":
		p.fail("%s: invalid number", s)
	case over:
		p.warn("warning: " + s + ": Numerical result out of range")
		return math.MaxUint64
	}
	if neg {
		return -mag
	}
	return mag
}

// floatArg reads the next argument as strtold does, to the precision of
// the x87 long double bash formats with: a 64-bit mantissa.
func (p *printer) floatArg() longDouble {
	s, _ := p.next()
	if v, ok := charConst(s); ok {
		return longDouble{f: big.NewFloat(float64(v))}
	}
	zero := longDouble{f: new(big.Float)}
	if s == "" {
		return zero
	}
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	n := floatPrefix(t)
	if n == 0 {
		p.fail("%s: invalid number", s)
		return zero
	}
	if n < len(t) {
		p.fail("%s: invalid number", s)
	}
	num := t[:n]
	neg := num[0] == '-'
	l := strings.ToLower(strings.TrimLeft(num, "+-"))
	switch {
	case strings.HasPrefix(l, "nan"):
		return longDouble{nan: true, f: new(big.Float)}
	case strings.HasPrefix(l, "inf"):
		return longDouble{f: new(big.Float).SetInf(neg)}
	case strings.HasPrefix(l, "0x") && !strings.Contains(l, "p"):
		num += "p0"
	}
	f, _, err := big.ParseFloat(num, 0, 64, big.ToNearestEven)
	if err != nil {
		p.fail("%s: invalid number", s)
		return zero
	}
	// The range of a long double, not of big.Float.
	if e := f.MantExp(nil); e > 16384 {
		p.warn("warning: " + s + ": Numerical result out of range")
		f.SetInf(f.Signbit())
	} else if e < -16445 {
		f.SetInt64(0)
	}
	return longDouble{f: f}
}

// longDouble is a float argument: finite or infinite in f, or NaN.
type longDouble struct {
	f   *big.Float
	nan bool
}

// charConst is the value of a printf argument that starts with a quote:
// the code of the character after it, or of its first byte if that is not
// valid UTF-8.
func charConst(s string) (rune, bool) {
	if s == "" || s[0] != '\'' && s[0] != '"' {
		return 0, false
	}
	if len(s) == 1 {
		return 0, true
	}
	return decodeWide(s[1:]), true
}

// decodeWide decodes one UTF-8 sequence as glibc does, which takes code
// points up to 2^31 (5 and 6 byte forms) but no overlong forms or
// surrogates; an invalid sequence is its first byte.
func decodeWide(s string) rune {
	c := s[0]
	n := 0
	switch {
	case c < 0x80:
		return rune(c)
	case c&0xe0 == 0xc0:
		n = 2
	case c&0xf0 == 0xe0:
		n = 3
	case c&0xf8 == 0xf0:
		n = 4
	case c&0xfc == 0xf8:
		n = 5
	case c&0xfe == 0xfc:
		n = 6
	default:
		return rune(c)
	}
	if len(s) < n {
		return rune(c)
	}
	v := rune(c) & (0x7f >> n)
	for i := 1; i < n; i++ {
		if s[i]&0xc0 != 0x80 {
			return rune(c)
		}
		v = v<<6 | rune(s[i]&0x3f)
	}
	least := []rune{0, 0, 0x80, 0x800, 0x10000, 0x200000, 0x4000000}[n]
	if v < least || v >= 0xd800 && v <= 0xdfff {
		return rune(c)
	}
	return v
}

// scanInt reads an integer as C's strtoimax does in base 0: leading
// space, a sign, then decimal, 0 octal or 0x hex digits. rest is what
// follows the number; ok is false when there are no digits at all, except
// for the empty string, which bash takes as 0.
func scanInt(s string) (neg bool, mag uint64, over bool, rest string, ok bool) {
	if s == "" {
		return false, 0, false, "", true
	}
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	if t != "" && (t[0] == '-' || t[0] == '+') {
		neg = t[0] == '-'
		t = t[1:]
	}
	base := uint64(10)
	if len(t) > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X') && digitVal(t[2]) < 16 {
		base, t = 16, t[2:]
	} else if t != "" && t[0] == '0' {
		base = 8
	}
	i := 0
	for ; i < len(t); i++ {
		d := digitVal(t[i])
		if d >= base {
			break
		}
		if mag > (math.MaxUint64-d)/base {
			over = true
		}
		mag = mag*base + d
	}
	if i == 0 {
		return false, 0, false, s, false
	}
	return neg, mag, over, t[i:], true
}

func digitVal(c byte) uint64 {
	switch {
	case c >= '0' && c <= '9':
		return uint64(c - '0')
	case c >= 'a' && c <= 'z':
		return uint64(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return uint64(c-'A') + 10
	}
	return 99
}

// floatPrefix is the length of the number at the start of s, as strtold
// reads it: decimal, hex, inf, infinity or nan.
func floatPrefix(s string) int {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	l := strings.ToLower(s[i:])
	for _, w := range []string{"infinity", "inf", "nan"} {
		if strings.HasPrefix(l, w) {
			return i + len(w)
		}
	}
	base := uint64(10)
	exp := byte('e')
	if strings.HasPrefix(l, "0x") && len(l) > 2 && (digitVal(l[2]) < 16 || l[2] == '.' && len(l) > 3 && digitVal(l[3]) < 16) {
		base, exp = 16, 'p'
		i += 2
	}
	start, nd := i, 0
	for i < len(s) && digitVal(s[i]) < base {
		i, nd = i+1, nd+1
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && digitVal(s[i]) < base {
			i, nd = i+1, nd+1
		}
	}
	if nd == 0 {
		if base == 16 {
			return start - 1 // the "0" of "0x"
		}
		return 0
	}
	if i < len(s) && (s[i]|0x20) == exp {
		j := i + 1
		if j < len(s) && (s[j] == '-' || s[j] == '+') {
			j++
		}
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k > j {
			i = k
		}
	}
	return i
}

// formatInt formats a magnitude as C's printf does for d, u, o, x and X:
// the precision is a minimum number of digits, and the 0 flag pads after
// the sign unless there is a precision.
func formatInt(mag uint64, neg bool, base int, upper bool, sp fmtSpec) string {
	digits := strconv.FormatUint(mag, base)
	if upper {
		digits = strings.ToUpper(digits)
	}
	if sp.prec == 0 && mag == 0 {
		digits = ""
	}
	if len(digits) < sp.prec {
		digits = strings.Repeat("0", sp.prec-len(digits)) + digits
	}
	var prefix string
	switch {
	case neg:
		prefix = "-"
	case sp.plus:
		prefix = "+"
	case sp.space:
		prefix = " "
	}
	if sp.sharp {
		switch {
		case base == 8 && !strings.HasPrefix(digits, "0"):
			digits = "0" + digits
		case base == 16 && mag != 0 && upper:
			prefix += "0X"
		case base == 16 && mag != 0:
			prefix += "0x"
		}
	}
	if sp.zero && !sp.minus && sp.prec < 0 {
		if n := sp.width - len(prefix) - len(digits); n > 0 {
			digits = strings.Repeat("0", n) + digits
		}
	}
	return prefix + digits
}

// formatFloat formats v as C's printf does for the float conversions,
// padded to the width with zeros if asked.
func formatFloat(v longDouble, verb byte, sp fmtSpec) string {
	upper := verb >= 'A' && verb <= 'Z'
	sign := ""
	switch {
	case v.f.Signbit() && !v.nan:
		sign = "-"
	case sp.plus:
		sign = "+"
	case sp.space:
		sign = " "
	}
	if v.f.IsInf() || v.nan {
		s := "inf"
		if v.nan {
			s = "nan"
		}
		if upper {
			s = strings.ToUpper(s)
		}
		return sign + s
	}
	abs := new(big.Float).Abs(v.f)
	prec := sp.prec
	if prec < 0 {
		prec = 6
	}
	var body string
	switch verb | 0x20 {
	case 'a':
		body = hexFloat(abs, sp)
	case 'f':
		body = abs.Text('f', prec)
		if sp.sharp && prec == 0 {
			body += "."
		}
	case 'e':
		body = abs.Text('e', prec)
		if sp.sharp && prec == 0 {
			body = strings.Replace(body, "e", ".e", 1)
		}
	case 'g':
		body = formatG(abs, max(prec, 1), sp.sharp)
	}
	if upper {
		body = strings.ToUpper(body)
	}
	if sp.zero && !sp.minus {
		if n := sp.width - len(sign) - len(body); n > 0 {
			zeros := strings.Repeat("0", n)
			if strings.HasPrefix(body, "0x") || strings.HasPrefix(body, "0X") {
				return sign + body[:2] + zeros + body[2:]
			}
			return sign + zeros + body
		}
	}
	return sign + body
}

// formatG is C's %g with precision p: %e when the exponent is below -4
// or not below p, else %f, without trailing zeros unless sharp.
func formatG(abs *big.Float, p int, sharp bool) string {
	e := abs.Text('e', p-1)
	i := strings.LastIndexByte(e, 'e')
	x, _ := strconv.Atoi(e[i+1:])
	body, exp := e[:i], e[i:]
	if x >= -4 && x < p {
		body, exp = abs.Text('f', p-1-x), ""
	}
	if !sharp {
		if strings.Contains(body, ".") {
			body = strings.TrimRight(strings.TrimRight(body, "0"), ".")
		}
	} else if !strings.Contains(body, ".") {
		body += "."
	}
	return body + exp
}

// hexFloat is %a as glibc prints a long double: the leading hex digit
// holds the top four bits of the 64-bit mantissa.
func hexFloat(abs *big.Float, sp fmtSpec) string {
	if abs.Sign() == 0 {
		d := "0x0"
		if sp.prec > 0 {
			d += "." + strings.Repeat("0", sp.prec)
		} else if sp.sharp {
			d += "."
		}
		return d + "p+0"
	}
	m := new(big.Float)
	exp := abs.MantExp(m) - 4
	mant, _ := m.SetMantExp(m, 64).Uint64()
	if sp.prec >= 0 && sp.prec < 15 {
		shift := uint(4 * (15 - sp.prec))
		trunc := mant >> shift << shift
		rest, half := mant-trunc, uint64(1)<<(shift-1)
		if rest > half || rest == half && mant>>shift&1 == 1 {
			trunc += 1 << shift
			if trunc == 0 { // carried out of the top digit
				trunc = 1 << 63
				exp += 4
			}
		}
		mant = trunc
	}
	hex := fmt.Sprintf("%016x", mant)
	rest := strings.TrimRight(hex[1:], "0")
	if sp.prec >= 0 {
		rest = hex[1:1+min(sp.prec, 15)] + strings.Repeat("0", max(sp.prec-15, 0))
	}
	s := "0x" + hex[:1]
	if rest != "" || sp.sharp {
		s += "." + rest
	}
	return s + fmt.Sprintf("p%+d", exp)
}

// unescape decodes the backslash escape at s[i:], appending it to out.
// inArg selects %b's and echo's rules (\c stops, \0 takes three more octal
// digits) over the format string's (\', \" and \? are escapes). stop
// reports \c.
func unescape(out []byte, s string, i int, inArg bool, warn func(string)) (_ []byte, next int, stop bool) {
	if i+1 >= len(s) {
		return append(out, '\\'), i + 1, false
	}
	c := s[i+1]
	i += 2
	if e := strings.IndexByte("abefnrtv\\E", c); e >= 0 {
		return append(out, "\a\b\x1b\f\n\r\t\v\\\x1b"[e]), i, false
	}
	switch {
	case c == '\'' || c == '"' || c == '?':
		if inArg {
			return append(out, '\\', c), i, false
		}
		return append(out, c), i, false
	case c == 'c' && inArg:
		return out, i, true
	case c >= '0' && c <= '7':
		n := 3
		v := 0
		if inArg && c == '0' {
			n = 4 // \0 and up to three digits
		}
		j := i - 1
		for ; j < len(s) && j < i-1+n && s[j] >= '0' && s[j] <= '7'; j++ {
			v = v*8 + int(s[j]-'0')
		}
		return append(out, byte(v)), j, false
	case c == 'x' || c == 'u' || c == 'U':
		n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
		j := i
		v := 0
		for ; j < len(s) && j < i+n && digitVal(s[j]) < 16; j++ {
			v = v*16 + int(digitVal(s[j]))
		}
		if j == i {
			if c == 'x' {
				warn("missing hex digit for \\x")
			} else {
				warn("missing unicode digit for \\" + string(c))
			}
			return append(out, '\\', c), i, false
		}
		if c == 'x' {
			return append(out, byte(v)), j, false
		}
		return appendWide(out, v), j, false
	}
	return append(out, '\\', c), i, false
}

// appendWide encodes a code point as UTF-8 the way glibc does, surrogates
// and values past U+10FFFF included.
func appendWide(out []byte, v int) []byte {
	if v < 0x80 {
		return append(out, byte(v))
	}
	n := 2
	for _, lim := range []int{0x800, 0x10000, 0x200000, 0x4000000} {
		if v < lim {
			break
		}
		n++
	}
	buf := make([]byte, n)
	for k := n - 1; k > 0; k-- {
		buf[k] = byte(0x80 | v&0x3f)
		v >>= 6
	}
	buf[0] = byte(0xff<<(8-n)) | byte(v)
	return append(out, buf...)
}

// printfQuote quotes s as bash's printf %q does: backslashes before
// special characters, or $'…' when s holds a control character or bytes
// that are not printable UTF-8.
func printfQuote(s string) string {
	if s == "" {
		return "''"
	}
	if needsANSIC(s) {
		return ansiCQuote(s)
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case strings.IndexByte("\t\n !\"$&'()*,;<>?[\\]^`{|}", c) >= 0,
			c == '#' && i == 0,
			c == '~' && (i == 0 || s[i-1] == ':' || s[i-1] == '='):
			sb.WriteByte('\\')
		}
		sb.WriteByte(c)
	}
	return sb.String()
}

// timeArg formats the next argument, seconds since the epoch (-1 now, -2
// when the shell started, none at all now), with strftime.
func (p *printer) timeArg(format string) string {
	var sec int64 = -1
	if s, ok := p.next(); ok {
		sec = p.parseInt(s)
	}
	var t time.Time
	switch sec {
	case -1:
		t = time.Now()
	case -2:
		t = p.start
	default:
		t = time.Unix(sec, 0)
	}
	if format == "" {
		format = "%X"
	}
	out := strftime.Format(format, t.In(p.zone()))
	if len(out) >= strftimeMax {
		return ""
	}
	return out
}

// timeZone is the zone strftime uses: TZ if the shell exports it (bash
// calls tzset only then), else the system's. Go's time.Local will not
// do: it was fixed from the environment qsh started with.
func (r *Runner) timeZone() *time.Location {
	if v := r.lookup("TZ"); v != nil && v.IsSet() && v.Attr&AttrExport != 0 {
		return loadTZ(v.String())
	}
	return localZone()
}

// loadTZ reads a TZ value: a zone name, or a POSIX `NAME[+-]hours`
// offset; anything else is UTC, as in glibc.
func loadTZ(tz string) *time.Location {
	tz = strings.TrimPrefix(tz, ":")
	if tz == "" {
		return time.UTC
	}
	if loc, err := time.LoadLocation(tz); err == nil {
		return loc
	}
	i := strings.IndexAny(tz, "+-0123456789")
	if i > 0 {
		j := i + 1
		for j < len(tz) && tz[j] >= '0' && tz[j] <= '9' {
			j++
		}
		if h, err := strconv.Atoi(tz[i:j]); err == nil && j == len(tz) {
			return time.FixedZone(tz[:i], -h*3600)
		}
	}
	return time.FixedZone(tz, 0)
}

// localZone is the system's zone, from /etc/localtime; UTC without one.
func localZone() *time.Location {
	if data, err := os.ReadFile("/etc/localtime"); err == nil {
		if loc, err := time.LoadLocationFromTZData("Local", data); err == nil {
			return loc
		}
	}
	return time.UTC
}
