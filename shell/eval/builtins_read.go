package eval

import (
	"io"
	"math"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"
)

// read as bash's: every option (-a -d -e -i -n -N -p -r -s -t -u),
// backslashes and IFS splitting as bash does them, the partial input kept
// at EOF and on a timeout. -e is accepted and reads without a line
// editor: qsh's editor belongs to the interactive shell, not to the
// evaluator, so -i's text is not offered either.

type readOpts struct {
	raw, silent, exact bool
	array              string
	delim              byte
	nchars             int // -1: no limit
	prompt             string
	timeout            time.Duration // -1: none
	fd                 int
	names              []string
}

// parseRead reads read's options; st is the status to return at once
// after an error, -1 when there was none.
func parseRead(b *B) (o readOpts, st int) {
	o = readOpts{delim: '\n', nchars: -1, timeout: -1}
	f, names, ok := b.flags("ersa:d:i:n:N:p:t:u:", false)
	if !ok {
		return o, 2
	}
	o.raw, o.silent, o.names = f.has('r'), f.has('s'), names
	o.array, o.prompt = f.val('a'), f.val('p')
	if f.has('d') {
		o.delim = 0
		if d := f.val('d'); d != "" {
			o.delim = d[0]
		}
	}
	for _, c := range []byte("nN") {
		if !f.has(c) {
			continue
		}
		v := f.val(c)
		n, ok := legalNumber(v)
		if !ok || n < 0 || n > math.MaxInt32 {
			b.Errorf("%s: invalid number", v)
			return o, 1
		}
		o.nchars, o.exact = int(n), c == 'N'
	}
	if f.has('t') {
		v := f.val('t')
		d, ok := parseTimeout(v)
		if !ok {
			b.Errorf("%s: invalid timeout specification", v)
			return o, 1
		}
		o.timeout = d
	}
	if f.has('u') {
		v := f.val('u')
		n, ok := legalNumber(v)
		if !ok || n < 0 || n > math.MaxInt32 {
			b.Errorf("%s: invalid file descriptor specification", v)
			return o, 1
		}
		o.fd = int(n)
		if fd := b.R.fds.get(o.fd); fd == nil || fd.r == nil && fd.f == nil {
			b.Errorf("%d: invalid file descriptor: %s", o.fd, errText(syscall.EBADF))
			return o, 1
		}
	}
	if len(o.names) > 0 && !f.has('a') {
		// The first name is checked before reading, the others as they
		// are assigned, -a's after reading: bash's order.
		if _, _, _, ok := splitRef(o.names[0]); !ok {
			b.Errorf("`%s': not a valid identifier", o.names[0])
			return o, 1
		}
	}
	return o, -1
}

// legalNumber reads a decimal integer as bash's legal_number: white space
// around it and a sign are allowed.
func legalNumber(s string) (int64, bool) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return n, err == nil
}

// parseTimeout reads read -t's seconds: digits, a fraction, a plus sign;
// nothing at all is 0, and a huge number is as good as for ever.
func parseTimeout(s string) (time.Duration, bool) {
	whole, frac, _ := strings.Cut(strings.TrimPrefix(s, "+"), ".")
	if strings.Trim(whole, "0123456789") != "" || strings.Trim(frac, "0123456789") != "" {
		return 0, false
	}
	var d time.Duration
	for _, c := range whole {
		if d > math.MaxInt64/time.Second/10 {
			return math.MaxInt64, true
		}
		d = d*10 + time.Duration(c-'0')
	}
	d *= time.Second
	unit := time.Second
	for _, c := range frac {
		unit /= 10
		d += time.Duration(c-'0') * unit
	}
	return d, true
}

func builtinRead(b *B) int {
	r := b.R
	o, st := parseRead(b)
	if st >= 0 {
		return st
	}
	fd := r.fds.get(o.fd)
	if fd == nil || fd.r == nil && fd.f == nil {
		b.Errorf("read error: %d: %s", o.fd, errText(syscall.EBADF))
		return 1
	}
	in := r.newInput(fd)
	if o.timeout == 0 {
		// -t 0: is there input to read? Nothing is read.
		if in.ready() {
			return 0
		}
		return 1
	}
	if in.tty() {
		// The modes first: what is typed after the prompt shows is read
		// as asked.
		defer in.termMode(o.nchars > 0 || o.delim != '\n', o.silent)()
		if o.prompt != "" {
			io.WriteString(b.Stderr(), o.prompt)
		}
	}
	if o.timeout > 0 {
		in.deadline = time.Now().Add(o.timeout)
	}
	text, esc, err := readLine(in, &o)
	in.finish()
	status := 0
	switch {
	case err == nil:
	case err == io.EOF:
		status = 1
	case err == errTimeout:
		status = 128 + int(syscall.SIGALRM)
	case err == errInterrupted || r.ctx.Err() != nil:
		return 128 + int(syscall.SIGINT)
	default:
		b.Errorf("read error: %d: %s", o.fd, errText(err))
		return 1
	}
	if st := r.readAssign(b, &o, text, esc); st != 0 {
		return st
	}
	return status
}

// readLine reads up to the delimiter, nchars characters or the end of the
// input, and returns the text with backslashes taken out; esc marks the
// bytes a backslash escaped, which IFS does not split on. Whatever ended
// the reading, what was read is kept.
func readLine(in *input, o *readOpts) (text []byte, esc []bool, err error) {
	add := func(c byte, escaped bool) {
		text = append(text, c)
		esc = append(esc, escaped)
	}
	for nr := 0; o.nchars < 0 || nr < o.nchars; {
		c, err := in.byte()
		if err != nil {
			return text, esc, err
		}
		escaped := false
		if c == '\\' && !o.raw {
			if c, err = in.byte(); err != nil {
				return text, esc, err
			}
			if c == '\n' {
				continue // the line goes on
			}
			escaped = true
		} else {
			if c == o.delim && !o.exact {
				return text, esc, nil
			}
			if c == 0 && (o.delim != 0 || o.exact) {
				continue // NUL bytes are dropped
			}
		}
		add(c, escaped)
		// The rest of a character of several bytes counts as one.
		for n := utf8Len(c); n > 1; n-- {
			c, err := in.byte()
			if err != nil {
				return text, esc, err
			}
			if c&0xc0 != 0x80 {
				in.unread()
				break
			}
			add(c, escaped)
		}
		nr++
	}
	return text, esc, nil
}

// utf8Len is how many bytes the UTF-8 character starting with c has; 1
// for a byte that starts none.
func utf8Len(c byte) int {
	switch {
	case c&0xe0 == 0xc0:
		return 2
	case c&0xf0 == 0xe0:
		return 3
	case c&0xf8 == 0xf0:
		return 4
	}
	return 1
}

// readAssign assigns what read got: REPLY whole, the array of -a split on
// IFS, or the names, each a field but the last, which gets the rest.
func (r *Runner) readAssign(b *B, o *readOpts, text []byte, esc []bool) int {
	set := func(name, val string) int {
		if err := r.assignRef(name, val); err != nil {
			return b.assignError(err)
		}
		return 0
	}
	if o.array != "" {
		sp := ifsSplitter{ifs: r.ifs(), text: text, esc: esc}
		var fields []string
		for rest := sp.trimLeft(0); rest < len(text); {
			var f string
			f, rest = sp.field(rest)
			fields = append(fields, f)
		}
		return r.readArray(b, o.array, fields)
	}
	if len(o.names) == 0 {
		return set("REPLY", string(text))
	}
	if o.exact {
		// -N: the first name gets all of it, unsplit.
		for i, name := range o.names {
			val := ""
			if i == 0 {
				val = string(text)
			}
			if st := set(name, val); st != 0 {
				return st
			}
		}
		return 0
	}
	sp := ifsSplitter{ifs: r.ifs(), text: text, esc: esc}
	rest := sp.trimLeft(0)
	for i, name := range o.names {
		var val string
		switch {
		case i == len(o.names)-1:
			val = sp.last(rest)
		case rest < len(text):
			val, rest = sp.field(rest)
		}
		if st := set(name, val); st != 0 {
			return st
		}
	}
	return 0
}

// readArray makes name an indexed array of vals, as read -a and mapfile
// do: each value goes through the array's attributes (declare -ai).
func (r *Runner) readArray(b *B, name string, vals []string) int {
	if !validName(name) {
		b.Errorf("`%s': not a valid identifier", name)
		return 1
	}
	target, st := r.indexedTarget(b, name)
	if st != 0 {
		return st
	}
	if err := r.SetArray(target, nil); err != nil {
		return b.assignError(err)
	}
	for i, v := range vals {
		if err := r.assignIndex(target, int64(i), v, false); err != nil {
			return b.assignError(err)
		}
	}
	return 0 // set -a does not export an array bash fills
}

// indexedTarget is the variable name names (after namerefs), checked to
// be one read -a and mapfile may fill: not readonly, not associative.
func (r *Runner) indexedTarget(b *B, name string) (string, int) {
	target, _, _ := r.resolve(name)
	if v, _ := r.vars.find(target); v != nil {
		if v.Attr&AttrReadonly != 0 {
			r.errorf("%s", readonlyErr(target).Error())
			return "", 1
		}
		if v.m != nil {
			b.Errorf("%s: not an indexed array", name)
			return "", 1
		}
	}
	return target, 0
}

// ifsSplitter splits read's text on IFS as bash does: IFS white space
// around a field is one separator, and so is one other IFS character with
// white space around it. Escaped bytes never split. Positions are offsets
// into text.
type ifsSplitter struct {
	ifs  *ifsChars
	text []byte
	esc  []bool
}

// char is the length of the character at i and whether it is an IFS
// character, not escaped.
func (sp *ifsSplitter) char(i int) (int, bool) {
	end := min(i+utf8.UTFMax, len(sp.text))
	n, in := sp.ifs.char(string(sp.text[i:end]), 0)
	return n, in && !sp.esc[i]
}

func (sp *ifsSplitter) isSpace(i int) bool { return !sp.esc[i] && sp.ifs.white(sp.text[i]) }

func (sp *ifsSplitter) trimLeft(i int) int {
	for i < len(sp.text) && sp.isSpace(i) {
		i++
	}
	return i
}

// field takes the field at i, and the separator after it.
func (sp *ifsSplitter) field(i int) (string, int) {
	j := i
	for j < len(sp.text) {
		n, in := sp.char(j)
		if in {
			break
		}
		j += n
	}
	f := string(sp.text[i:j])
	rest := sp.trimLeft(j)
	if rest < len(sp.text) && !sp.isSpace(rest) {
		if n, in := sp.char(rest); in {
			rest = sp.trimLeft(rest + n)
		}
	}
	return f, rest
}

// last is the last name's value: the rest of the text less the IFS white
// space at its end; or only its one field if a separator alone follows.
func (sp *ifsSplitter) last(i int) string {
	end := len(sp.text)
	for end > i && sp.isSpace(end-1) {
		end--
	}
	if end == i {
		return ""
	}
	whole := ifsSplitter{ifs: sp.ifs, text: sp.text[:end], esc: sp.esc[:end]}
	if f, rest := whole.field(i); rest == end {
		return f
	}
	return string(sp.text[i:end])
}
