package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
	"mvdan.cc/sh/v3/interp"
)

// bash's read, which qsh owns: every flag (-a -d -e -i -n -N -p -r -s -t
// -u), backslashes and IFS splitting as bash does them, partial input
// kept on EOF and timeouts. What follows the line is left for the next
// command: from a pipe read takes a byte at a time, from a file it gives
// back what it read ahead, as bash does.

const readUsage = "read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]"

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

// parseRead reads read's flags as getopt does: -rn1 and -d: are one
// word each; st is non-zero after a usage error.
func parseRead(b builtinIO, args []string) (o readOpts, st int) {
	o = readOpts{delim: '\n', nchars: -1, timeout: -1}
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		for i := 1; i < len(a); i++ {
			c := a[i]
			if strings.IndexByte("adinNptu", c) < 0 {
				switch c {
				case 'r':
					o.raw = true
				case 's':
					o.silent = true
				case 'e':
				default:
					b.fail(2, "-%c: invalid option", c)
					fmt.Fprintln(b.err, readUsage)
					return o, 2
				}
				continue
			}
			val := a[i+1:]
			if val == "" {
				if len(args) == 0 {
					b.fail(2, "-%c: option requires an argument", c)
					fmt.Fprintln(b.err, readUsage)
					return o, 2
				}
				val, args = args[0], args[1:]
			}
			switch c {
			case 'a':
				o.array = val
			case 'd':
				o.delim = 0
				if val != "" {
					o.delim = val[0]
				}
			case 'i':
			case 'n', 'N':
				n, err := strconv.Atoi(val)
				if err != nil || n < 0 {
					return o, b.fail(1, "%s: invalid number", val)
				}
				o.nchars, o.exact = n, c == 'N'
			case 'p':
				o.prompt = val
			case 't':
				secs, err := strconv.ParseFloat(val, 64)
				if err != nil || secs < 0 || strings.ContainsAny(val, "eEnN") {
					return o, b.fail(1, "%s: invalid timeout specification", val)
				}
				o.timeout = time.Duration(secs * float64(time.Second))
			case 'u':
				fd, err := strconv.Atoi(val)
				if err != nil || fd < 0 {
					return o, b.fail(1, "%s: invalid file descriptor specification", val)
				}
				o.fd = fd
			}
			break
		}
	}
	o.names = args
	return o, 0
}

func (s *Shell) readBuiltin(ctx context.Context, hc interp.HandlerContext, b builtinIO, args []string) int {
	o, st := parseRead(b, args)
	if st != 0 {
		return st
	}
	for _, n := range append(o.names, o.array) {
		if n != "" && !validVarRef(n) {
			return b.fail(1, "`%s': not a valid identifier", n)
		}
	}
	in, done, err := readSource(ctx, hc, o.fd)
	if err != nil {
		return b.fail(1, "%d: invalid file descriptor: %s", o.fd, errno(err))
	}
	defer done()
	tty := isTerminalFile(in)
	if o.prompt != "" && tty {
		io.WriteString(hc.Stderr, o.prompt)
	}
	if o.timeout == 0 {
		// -t 0: is there input to read? Nothing is read.
		if ready, _ := waitReadable(ctx, in, time.Now()); ready {
			return 0
		}
		return 1
	}
	if o.silent && tty {
		if restore := noEcho(in); restore != nil {
			defer restore()
		}
	}
	var deadline time.Time
	if o.timeout > 0 {
		deadline = time.Now().Add(o.timeout)
	}
	line, status, err := readInput(ctx, in, o, deadline)
	if err != nil {
		b.fail(1, "read error: %d: %s", o.fd, errno(err))
		return 1
	}
	if ctx.Err() != nil {
		return 130
	}
	if src := readAssignments(hc, o, line); src != "" {
		if hc.Builtin(ctx, []string{"eval", src}) != nil {
			return 1
		}
	}
	return status
}

// readSource is the file read reads: stdin, or the descriptor of -u,
// and what to call when done with it. In the assistant's subshell only
// stdin: the shell's other descriptors are the user's terminal and qsh's
// own files, not the run's.
func readSource(ctx context.Context, hc interp.HandlerContext, fd int) (*os.File, func(), error) {
	if fd == 0 {
		if f, ok := hc.Stdin.(*os.File); ok && f != nil {
			return f, func() {}, nil
		}
		return nil, nil, unix.EBADF
	}
	if inRun(ctx) {
		return nil, nil, unix.EBADF
	}
	// A copy: the *os.File closes what it holds when it is collected, and
	// fd is the shell's, not this read's.
	dup, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	f := os.NewFile(uintptr(dup), "fd")
	return f, func() { f.Close() }, nil
}

// readChar is one character read, and whether a backslash escaped it.
type readChar struct {
	s       string
	escaped bool
}

// readInput reads up to the delimiter, or nchars characters, or EOF.
// status is 0, or 1 at EOF, or 142 when the deadline passed; what was
// read before is kept in every case.
func readInput(ctx context.Context, f *os.File, o readOpts, deadline time.Time) (line []readChar, status int, err error) {
	r := byteReader{ctx: ctx, f: f, deadline: deadline}
	defer r.finish()
	for o.nchars < 0 || len(line) < o.nchars {
		c, err := r.byte()
		if err != nil {
			status, err := r.status(err)
			return line, status, err
		}
		escaped := false
		if c == '\\' && !o.raw {
			c, err = r.byte()
			if err != nil {
				status, err := r.status(err)
				return line, status, err
			}
			if c == '\n' {
				continue // a line goes on
			}
			escaped = true
		}
		if c == o.delim && !escaped && !o.exact {
			return line, 0, nil
		}
		ch := string(c)
		// The rest of a character of several bytes.
		if n := utf8SeqLen(c); n > 1 {
			buf := []byte{c}
			for len(buf) < n {
				c2, err := r.byte()
				if err != nil {
					break
				}
				buf = append(buf, c2)
			}
			ch = string(buf)
		}
		line = append(line, readChar{ch, escaped})
	}
	return line, 0, nil
}

// utf8SeqLen is how many bytes the UTF-8 character that starts with c
// has; 1 for bytes that start none.
func utf8SeqLen(c byte) int {
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

// byteReader reads input a byte at a time, until a deadline or the end
// of ctx. From a regular file it reads ahead and gives back what it did
// not use (finish); greedy, it reads ahead from anything, for a reader
// that takes all of the input anyway.
type byteReader struct {
	ctx      context.Context
	f        *os.File
	deadline time.Time
	greedy   bool
	seekable bool
	buf      []byte
	pos      int
	checked  bool
}

var errTimeout = errors.New("timed out")

func (r *byteReader) byte() (byte, error) {
	if r.pos < len(r.buf) {
		r.pos++
		return r.buf[r.pos-1], nil
	}
	if !r.checked {
		r.checked = true
		fi, err := r.f.Stat()
		r.seekable = err == nil && fi.Mode().IsRegular()
	}
	if !r.seekable { // a regular file never makes one wait
		ready, err := waitReadable(r.ctx, r.f, r.deadline)
		if err != nil {
			return 0, err
		}
		if !ready {
			return 0, errTimeout
		}
	}
	// Read ahead in small pieces from a file (each read gives most of
	// them back), in large ones for a reader that takes all.
	size := 1
	switch {
	case r.greedy:
		size = 64 << 10
	case r.seekable:
		size = 256
	}
	if cap(r.buf) < size {
		r.buf = make([]byte, size)
	}
	n, err := r.f.Read(r.buf[:size])
	r.buf, r.pos = r.buf[:n], 0
	if n > 0 {
		r.pos = 1
		return r.buf[0], nil
	}
	if err == nil {
		err = io.EOF
	}
	return 0, err
}

// finish gives a regular file back what was read ahead.
func (r *byteReader) finish() {
	if r.seekable && r.pos < len(r.buf) {
		r.f.Seek(int64(r.pos-len(r.buf)), io.SeekCurrent)
	}
	r.buf, r.pos = r.buf[:0], 0
}

// status is read's status and error for what ended the reading.
func (r *byteReader) status(err error) (int, error) {
	switch {
	case err == io.EOF:
		return 1, nil
	case err == errTimeout:
		return 128 + int(unix.SIGALRM), nil
	case r.ctx.Err() != nil:
		return 130, nil
	}
	return 1, err
}

// waitReadable waits until f has input, or the deadline (zero: none)
// passes, or ctx ends. It polls in slices, so that Ctrl-C ends a read of
// the terminal.
func waitReadable(ctx context.Context, f *os.File, deadline time.Time) (bool, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return true, nil
	}
	const slice = 250 * time.Millisecond
	for {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		wait := slice
		if !deadline.IsZero() {
			wait = min(wait, time.Until(deadline))
		}
		ms := int((wait + time.Millisecond - 1) / time.Millisecond)
		var n int
		var perr error
		if cerr := rc.Control(func(fd uintptr) {
			n, perr = unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, max(ms, 0))
		}); cerr != nil {
			return true, nil
		}
		switch {
		case perr == unix.EINTR:
		case perr != nil || n > 0:
			return true, nil // a poll error is the read's to report
		case !deadline.IsZero() && !time.Now().Before(deadline):
			return false, nil
		}
	}
}

// noEcho turns the terminal's echo off for read -s; it returns what
// turns it back on.
func noEcho(f *os.File) func() {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	var old *unix.Termios
	rc.Control(func(fd uintptr) {
		t, err := unix.IoctlGetTermios(int(fd), ioctlGetTermios)
		if err != nil {
			return
		}
		old = t
		quiet := *t
		quiet.Lflag &^= unix.ECHO
		unix.IoctlSetTermios(int(fd), ioctlSetTermios, &quiet)
	})
	if old == nil {
		return nil
	}
	return func() {
		rc.Control(func(fd uintptr) { unix.IoctlSetTermios(int(fd), ioctlSetTermios, old) })
	}
}

// readAssignments is the source that assigns what read got: REPLY whole,
// or the names (or -a's array) split on IFS as bash splits.
func readAssignments(hc interp.HandlerContext, o readOpts, line []readChar) string {
	if o.array == "" && len(o.names) == 0 {
		var sb strings.Builder
		for _, c := range line {
			sb.WriteString(c.s)
		}
		return "REPLY=" + singleQuote(sb.String())
	}
	ifs := " \t\n"
	if v := hc.Env.Get("IFS"); v.IsSet() {
		ifs = v.String()
	}
	sp := splitter{ifs: ifs}
	rest := sp.trimLeft(line)
	if o.array != "" {
		var sb strings.Builder
		sb.WriteString(o.array + "=(")
		for len(rest) > 0 {
			var field string
			field, rest = sp.field(rest)
			sb.WriteString(singleQuote(field) + " ")
		}
		return sb.String() + ")"
	}
	var sb strings.Builder
	for i, name := range o.names {
		var val string
		switch {
		case o.exact:
			// -N: the first name gets all of it, unsplit.
			if i == 0 {
				val = joinChars(line)
			}
		case i < len(o.names)-1:
			val, rest = sp.field(rest)
		default:
			val = sp.last(rest)
		}
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(name + "=" + singleQuote(val))
	}
	return sb.String()
}

func joinChars(cs []readChar) string {
	var sb strings.Builder
	for _, c := range cs {
		sb.WriteString(c.s)
	}
	return sb.String()
}

// splitter splits on IFS as read does: IFS white space (space, tab,
// newline) around a field is one separator, and so is one other IFS
// character with white space around it. Escaped characters never split.
type splitter struct{ ifs string }

func (sp splitter) isIFS(c readChar) bool {
	return !c.escaped && len(c.s) == 1 && strings.IndexByte(sp.ifs, c.s[0]) >= 0
}

func (sp splitter) isSpace(c readChar) bool {
	return sp.isIFS(c) && (c.s == " " || c.s == "\t" || c.s == "\n")
}

func (sp splitter) trimLeft(cs []readChar) []readChar {
	for len(cs) > 0 && sp.isSpace(cs[0]) {
		cs = cs[1:]
	}
	return cs
}

// field takes one field off cs, and the separator after it.
func (sp splitter) field(cs []readChar) (string, []readChar) {
	i := 0
	for i < len(cs) && !sp.isIFS(cs[i]) {
		i++
	}
	field := joinChars(cs[:i])
	rest := sp.trimLeft(cs[i:])
	if len(rest) > 0 && sp.isIFS(rest[0]) && !sp.isSpace(rest[0]) {
		rest = sp.trimLeft(rest[1:])
	}
	return field, rest
}

// last is the last name's value: the rest of the line less the IFS white
// space at its end; or only its one field if a separator alone follows.
func (sp splitter) last(cs []readChar) string {
	for len(cs) > 0 && sp.isSpace(cs[len(cs)-1]) {
		cs = cs[:len(cs)-1]
	}
	if len(cs) == 0 {
		return ""
	}
	if field, rest := sp.field(cs); len(rest) == 0 {
		return field
	}
	return joinChars(cs)
}

// isTerminalFile reports whether f is a terminal, without making it
// blocking (as Fd would).
func isTerminalFile(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	tty := false
	rc.Control(func(fd uintptr) { tty = term.IsTerminal(int(fd)) })
	return tty
}
