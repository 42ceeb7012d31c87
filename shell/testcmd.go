package shell

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
)

// test and [, as bash's: what the arguments mean depends on how many there
// are (POSIX's rules for up to four), longer ones are parsed with -a over
// -o and parentheses; integers are decimal; -o NAME asks qsh's options,
// -v a variable.

// errTestSyntax is a usage error: status 2.
type errTestSyntax struct{ msg string }

func (e errTestSyntax) Error() string { return e.msg }

type tester struct {
	s    *Shell
	hc   interp.HandlerContext
	args []string
	pos  int
}

func (s *Shell) testBuiltin(hc interp.HandlerContext, b builtinIO, args []string) int {
	if b.name == "[" {
		if len(args) == 0 || args[len(args)-1] != "]" {
			return b.fail(2, "missing `]'")
		}
		args = args[:len(args)-1]
	}
	t := &tester{s: s, hc: hc, args: args}
	ok, err := t.eval()
	if err != nil {
		return b.fail(2, "%s", err.Error())
	}
	if ok {
		return 0
	}
	return 1
}

// eval is POSIX's algorithm by the number of arguments, then bash's
// parser for more.
func (t *tester) eval() (bool, error) {
	a := t.args
	switch len(a) {
	case 0:
		return false, nil
	case 1:
		return a[0] != "", nil
	case 2:
		if a[0] == "!" {
			return a[1] == "", nil
		}
		if isUnaryTest(a[0]) {
			return t.unary(a[0], a[1])
		}
		return false, errTestSyntax{a[0] + ": unary operator expected"}
	case 3:
		if isBinaryTest(a[1]) {
			return t.binary(a[0], a[1], a[2])
		}
		if a[1] == "-a" || a[1] == "-o" {
			l, r := a[0] != "", a[2] != ""
			if a[1] == "-a" {
				return l && r, nil
			}
			return l || r, nil
		}
		if a[0] == "!" {
			sub := &tester{s: t.s, hc: t.hc, args: a[1:]}
			v, err := sub.eval()
			return !v, err
		}
		if a[0] == "(" && a[2] == ")" {
			return a[1] != "", nil
		}
		return false, errTestSyntax{a[1] + ": binary operator expected"}
	case 4:
		if a[0] == "!" {
			sub := &tester{s: t.s, hc: t.hc, args: a[1:]}
			v, err := sub.eval()
			return !v, err
		}
		if a[0] == "(" && a[3] == ")" {
			sub := &tester{s: t.s, hc: t.hc, args: a[1:3]}
			return sub.eval()
		}
	}
	v, err := t.or()
	if err == nil && t.pos < len(t.args) {
		err = errTestSyntax{"too many arguments"}
	}
	return v, err
}

func (t *tester) peek() (string, bool) {
	if t.pos < len(t.args) {
		return t.args[t.pos], true
	}
	return "", false
}

func (t *tester) or() (bool, error) {
	v, err := t.and()
	for err == nil {
		if a, ok := t.peek(); !ok || a != "-o" {
			break
		}
		t.pos++
		var r bool
		r, err = t.and()
		v = v || r
	}
	return v, err
}

func (t *tester) and() (bool, error) {
	v, err := t.not()
	for err == nil {
		if a, ok := t.peek(); !ok || a != "-a" {
			break
		}
		t.pos++
		var r bool
		r, err = t.not()
		v = v && r
	}
	return v, err
}

func (t *tester) not() (bool, error) {
	if a, ok := t.peek(); ok && a == "!" && t.pos+1 < len(t.args) {
		t.pos++
		v, err := t.not()
		return !v, err
	}
	return t.primary()
}

func (t *tester) primary() (bool, error) {
	a, ok := t.peek()
	if !ok {
		return false, errTestSyntax{"argument expected"}
	}
	rest := len(t.args) - t.pos
	if a == "(" {
		t.pos++
		v, err := t.or()
		if err != nil {
			return v, err
		}
		if c, ok := t.peek(); !ok || c != ")" {
			return false, errTestSyntax{"`)' expected"}
		}
		t.pos++
		return v, nil
	}
	// A binary operator between two words wins over the other readings.
	if rest >= 3 && isBinaryTest(t.args[t.pos+1]) {
		l, op, r := a, t.args[t.pos+1], t.args[t.pos+2]
		t.pos += 3
		return t.binary(l, op, r)
	}
	if isUnaryTest(a) && rest >= 2 {
		t.pos += 2
		return t.unary(a, t.args[t.pos-1])
	}
	t.pos++
	return a != "", nil
}

func isUnaryTest(op string) bool {
	return len(op) == 2 && op[0] == '-' && strings.IndexByte("abcdefghkprstuwxzGLNOSnovR", op[1]) >= 0
}

func isBinaryTest(op string) bool {
	switch op {
	case "=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef":
		return true
	}
	return false
}

func (t *tester) path(p string) string {
	if p != "" && !filepath.IsAbs(p) {
		return filepath.Join(t.hc.Dir, p)
	}
	return p
}

func (t *tester) unary(op, arg string) (bool, error) {
	switch op {
	case "-z":
		return arg == "", nil
	case "-n":
		return arg != "", nil
	case "-o":
		o := findOpt(arg, true)
		return o != nil && t.s.optStates(t.hc.Env).on(o), nil
	case "-v":
		return varIsSet(t.hc, arg), nil
	case "-R":
		return t.hc.Env.Get(arg).Kind == expand.NameRef, nil
	case "-t":
		fd, err := strconv.Atoi(strings.TrimSpace(arg))
		return err == nil && fdIsTerminal(t.hc, fd), nil
	}
	if arg == "" {
		return false, nil
	}
	p := t.path(arg)
	if op == "-h" || op == "-L" {
		fi, err := os.Lstat(p)
		return err == nil && fi.Mode()&os.ModeSymlink != 0, nil
	}
	var st unix.Stat_t
	if unix.Stat(p, &st) != nil {
		return false, nil
	}
	mode := st.Mode & unix.S_IFMT
	switch op {
	case "-a", "-e":
		return true, nil
	case "-b":
		return mode == unix.S_IFBLK, nil
	case "-c":
		return mode == unix.S_IFCHR, nil
	case "-d":
		return mode == unix.S_IFDIR, nil
	case "-f":
		return mode == unix.S_IFREG, nil
	case "-p":
		return mode == unix.S_IFIFO, nil
	case "-S":
		return mode == unix.S_IFSOCK, nil
	case "-g":
		return st.Mode&unix.S_ISGID != 0, nil
	case "-u":
		return st.Mode&unix.S_ISUID != 0, nil
	case "-k":
		return st.Mode&unix.S_ISVTX != 0, nil
	case "-s":
		return st.Size > 0, nil
	case "-G":
		return int(st.Gid) == os.Getegid(), nil
	case "-O":
		return int(st.Uid) == os.Geteuid(), nil
	case "-N":
		atime, mtime := statTimes(&st)
		return mtime > atime, nil
	case "-r":
		return unix.Faccessat(unix.AT_FDCWD, p, unix.R_OK, unix.AT_EACCESS) == nil, nil
	case "-w":
		return unix.Faccessat(unix.AT_FDCWD, p, unix.W_OK, unix.AT_EACCESS) == nil, nil
	case "-x":
		return unix.Faccessat(unix.AT_FDCWD, p, unix.X_OK, unix.AT_EACCESS) == nil, nil
	}
	return false, errTestSyntax{op + ": unary operator expected"}
}

func (t *tester) binary(l, op, r string) (bool, error) {
	switch op {
	case "=", "==":
		return l == r, nil
	case "!=":
		return l != r, nil
	case "<":
		return l < r, nil
	case ">":
		return l > r, nil
	case "-nt", "-ot":
		lt, lok := mtime(t.path(l))
		rt, rok := mtime(t.path(r))
		if op == "-ot" {
			lt, lok, rt, rok = rt, rok, lt, lok
		}
		return lok && (!rok || lt > rt), nil
	case "-ef":
		var a, b unix.Stat_t
		if unix.Stat(t.path(l), &a) != nil || unix.Stat(t.path(r), &b) != nil {
			return false, nil
		}
		return a.Dev == b.Dev && a.Ino == b.Ino, nil
	}
	x, err := testInt(l)
	if err != nil {
		return false, err
	}
	y, err := testInt(r)
	if err != nil {
		return false, err
	}
	switch op {
	case "-eq":
		return x == y, nil
	case "-ne":
		return x != y, nil
	case "-lt":
		return x < y, nil
	case "-le":
		return x <= y, nil
	case "-gt":
		return x > y, nil
	}
	return x >= y, nil // -ge
}

// testInt reads a decimal integer with white space around it, as test
// does (no octal, no hex).
func testInt(s string) (int64, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, errTestSyntax{s + ": integer expression expected"}
	}
	return v, nil
}

func mtime(p string) (int64, bool) {
	var st unix.Stat_t
	if unix.Stat(p, &st) != nil {
		return 0, false
	}
	_, m := statTimes(&st)
	return m, true
}

// varIsSet is -v: a variable, or an array's element (name[i]), is set.
func varIsSet(hc interp.HandlerContext, ref string) bool {
	name, sub, isElem := strings.Cut(ref, "[")
	vr := hc.Env.Get(name)
	if !isElem {
		return vr.IsSet() || len(vr.List) > 0 || len(vr.Map) > 0
	}
	sub = strings.TrimSuffix(sub, "]")
	switch {
	case sub == "@" || sub == "*":
		return len(vr.List) > 0 || len(vr.Map) > 0
	case vr.Map != nil:
		_, ok := vr.Map[sub]
		return ok
	}
	i, err := strconv.Atoi(strings.TrimSpace(sub))
	if err != nil {
		return false
	}
	if i < 0 {
		i += len(vr.List)
		if vr.Indexes != nil && len(vr.Indexes) > 0 {
			i = vr.Indexes[len(vr.Indexes)-1] + 1 + i - len(vr.List)
		}
	}
	if vr.Indexes != nil {
		for _, x := range vr.Indexes {
			if x == i {
				return true
			}
		}
		return false
	}
	if i >= 0 && i < len(vr.List) {
		return true
	}
	return i == 0 && vr.Kind == expand.String && vr.IsSet() // a string is element 0
}

// fdIsTerminal is -t: whether the shell's fd is a terminal.
func fdIsTerminal(hc interp.HandlerContext, fd int) bool {
	var f any
	switch fd {
	case 0:
		f = hc.Stdin
	case 1:
		f = hc.Stdout
	case 2:
		f = hc.Stderr
	default:
		return term.IsTerminal(fd)
	}
	file, ok := f.(*os.File)
	return ok && isTerminalFile(file)
}

// statTimes are a file's access and modification times, in nanoseconds.
func statTimes(st *unix.Stat_t) (atime, mtime int64) { return st.Atim.Nano(), st.Mtim.Nano() }
