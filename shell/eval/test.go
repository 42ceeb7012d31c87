package eval

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/term"
	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/shell/pattern"
)

// test evaluates [[ … ]].
func (r *Runner) test(x syntax.TestExpr) bool {
	switch x := x.(type) {
	case *syntax.Word:
		return r.Literal(x) != ""
	case *syntax.ParenTest:
		return r.test(x.X)
	case *syntax.UnaryTest:
		if x.Op == syntax.TsNot {
			return !r.test(x.X)
		}
		w, ok := x.X.(*syntax.Word)
		if !ok {
			return false
		}
		return r.unaryTest(x.Op.String(), r.Literal(w), true)
	case *syntax.BinaryTest:
		switch x.Op {
		case syntax.AndTest:
			return r.test(x.X) && r.test(x.Y)
		case syntax.OrTest:
			return r.test(x.X) || r.test(x.Y)
		}
		left := r.Literal(x.X.(*syntax.Word))
		yw := x.Y.(*syntax.Word)
		switch x.Op {
		case syntax.TsMatch, syntax.TsMatchShort, syntax.TsNoMatch:
			mode := r.patMode() | pattern.ExtGlob // [[ == ]] always has extglob
			if r.opts.shopt[optNocasematch] {
				mode |= pattern.NoCase
			}
			p, err := pattern.Compile(r.Pattern(yw), mode)
			m := err == nil && p.Match(left)
			return m == (x.Op != syntax.TsNoMatch)
		case syntax.TsReMatch:
			return r.regexMatch(left, yw)
		}
		right := r.Literal(yw)
		switch x.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLss, syntax.TsLeq, syntax.TsGtr, syntax.TsGeq:
			a, err := r.arithString(left)
			if err != nil {
				r.errorf("[[: %s", err.Error())
				panic(abort{status: 1})
			}
			b, err := r.arithString(right)
			if err != nil {
				r.errorf("[[: %s", err.Error())
				panic(abort{status: 1})
			}
			return intCompare(x.Op.String(), a, b)
		}
		return r.binaryTest(x.Op.String(), left, right)
	}
	return false
}

// regexMatch is [[ s =~ re ]]: quoted parts of re match literally; the
// match and its groups go to BASH_REMATCH.
func (r *Runner) regexMatch(s string, w *syntax.Word) bool {
	b := &builder{r: r}
	var re strings.Builder
	r.regexParts(w.Parts, false, b, &re)
	expr := re.String()
	if r.opts.shopt[optNocasematch] {
		expr = "(?i)" + expr
	}
	rx, err := regexp.Compile(expr)
	if err != nil {
		r.status = 2
		r.SetArray("BASH_REMATCH", nil)
		panic(testError{})
	}
	rx.Longest()
	m := rx.FindStringSubmatchIndex(s)
	if m == nil {
		r.SetArray("BASH_REMATCH", nil)
		return false
	}
	groups := make([]string, len(m)/2)
	for i := range groups {
		if m[2*i] >= 0 {
			groups[i] = s[m[2*i]:m[2*i+1]]
		}
	}
	r.SetArray("BASH_REMATCH", groups)
	return true
}

// testError is a [[ ]] that cannot be evaluated (a bad regular
// expression): status 2.
type testError struct{}

// regexParts builds a regular expression from a word: quoted text and the
// results of quoted expansions are escaped.
func (r *Runner) regexParts(parts []syntax.WordPart, quoted bool, b *builder, re *strings.Builder) {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if quoted {
				re.WriteString(regexp.QuoteMeta(unescapeDouble(p.Value)))
				continue
			}
			s := p.Value
			for i := 0; i < len(s); i++ {
				if s[i] == '\\' && i+1 < len(s) {
					re.WriteString(regexp.QuoteMeta(s[i+1 : i+2]))
					i++
					continue
				}
				re.WriteByte(s[i])
			}
		case *syntax.SglQuoted:
			v := p.Value
			if p.Dollar {
				v = ansiC(v)
			}
			re.WriteString(regexp.QuoteMeta(v))
		case *syntax.DblQuoted:
			r.regexParts(p.Parts, true, b, re)
		default:
			sub := &builder{r: r}
			r.parts([]syntax.WordPart{p}, quoted, sub, false)
			if quoted {
				re.WriteString(regexp.QuoteMeta(string(sub.cur.val)))
			} else {
				re.WriteString(string(sub.cur.val))
			}
		}
	}
}

func intCompare(op string, a, b int64) bool {
	switch op {
	case "-eq":
		return a == b
	case "-ne":
		return a != b
	case "-lt":
		return a < b
	case "-le":
		return a <= b
	case "-gt":
		return a > b
	case "-ge":
		return a >= b
	}
	return false
}

// binaryTest is a binary test other than the arithmetic and pattern ones.
func (r *Runner) binaryTest(op, a, b string) bool {
	switch op {
	case "=", "==":
		return a == b
	case "!=":
		return a != b
	case "<":
		return a < b
	case ">":
		return a > b
	case "-nt", "-ot":
		fa, ea := os.Stat(r.abs(a))
		fb, eb := os.Stat(r.abs(b))
		if op == "-nt" {
			return ea == nil && (eb != nil || fa.ModTime().After(fb.ModTime()))
		}
		return eb == nil && (ea != nil || fa.ModTime().Before(fb.ModTime()))
	case "-ef":
		fa, ea := os.Stat(r.abs(a))
		fb, eb := os.Stat(r.abs(b))
		return ea == nil && eb == nil && os.SameFile(fa, fb)
	}
	return false
}

func (r *Runner) abs(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(r.dir, p)
}

// unaryTest is a unary test: files, strings, options, variables.
func (r *Runner) unaryTest(op, s string, dbl bool) bool {
	switch op {
	case "-z":
		return s == ""
	case "-n":
		return s != ""
	case "-o":
		o, ok := lookupSetOpt(s)
		return ok && r.opts.set[o]
	case "-v":
		n, sub, hasSub, ok := splitRef(s)
		if !ok {
			if v, err := strconv.Atoi(s); err == nil {
				return v >= 1 && v <= len(r.params) || v == 0
			}
			return false
		}
		v := r.lookup(n)
		if v == nil {
			return false
		}
		if hasSub {
			if sub == "@" || sub == "*" {
				return v.count() > 0
			}
			if v.m != nil {
				_, ok := v.m.get(sub)
				return ok
			}
			i, err := r.arithString(sub)
			if err != nil {
				return false
			}
			_, ok := r.index(v, i)
			return ok
		}
		return v.IsSet()
	case "-R":
		v, _ := r.vars.find(s)
		return v != nil && v.Attr&AttrNameref != 0 && v.set
	case "-t":
		n, err := strconv.Atoi(s)
		if err != nil {
			return false
		}
		f := r.fds.get(n)
		return f != nil && f.f != nil && term.IsTerminal(int(f.f.Fd()))
	}
	if s == "" {
		return false
	}
	path := r.abs(s)
	if f, ok := r.specialFile(s); ok && f != nil && f.f != nil {
		path = f.f.Name()
		if fi, err := f.f.Stat(); err == nil {
			return fileTest(op, path, fi, nil)
		}
	}
	var fi os.FileInfo
	var err error
	if op == "-h" || op == "-L" {
		fi, err = os.Lstat(path)
	} else {
		fi, err = os.Stat(path)
	}
	if err != nil {
		return false
	}
	return fileTest(op, path, fi, err)
}

func fileTest(op, path string, fi os.FileInfo, _ error) bool {
	m := fi.Mode()
	st, _ := fi.Sys().(*syscall.Stat_t)
	switch op {
	case "-e", "-a":
		return true
	case "-f":
		return m.IsRegular()
	case "-d":
		return m.IsDir()
	case "-b":
		return m&os.ModeDevice != 0 && m&os.ModeCharDevice == 0
	case "-c":
		return m&os.ModeCharDevice != 0
	case "-p":
		return m&os.ModeNamedPipe != 0
	case "-S":
		return m&os.ModeSocket != 0
	case "-h", "-L":
		return m&os.ModeSymlink != 0
	case "-g":
		return m&os.ModeSetgid != 0
	case "-u":
		return m&os.ModeSetuid != 0
	case "-k":
		return m&os.ModeSticky != 0
	case "-s":
		return fi.Size() > 0
	case "-r":
		return syscall.Access(path, 4) == nil
	case "-w":
		return syscall.Access(path, 2) == nil
	case "-x":
		return syscall.Access(path, 1) == nil
	case "-O":
		return st != nil && int(st.Uid) == os.Geteuid()
	case "-G":
		return st != nil && int(st.Gid) == os.Getegid()
	case "-N":
		if st == nil {
			return false
		}
		return fi.ModTime().After(accessTime(st))
	}
	return false
}

// isUnaryOp reports whether s is a unary operator of test.
func isUnaryOp(s string) bool {
	switch s {
	case "-a", "-b", "-c", "-d", "-e", "-f", "-g", "-h", "-k", "-p", "-r", "-s", "-t", "-u", "-w", "-x",
		"-G", "-L", "-N", "-O", "-S", "-z", "-n", "-o", "-v", "-R":
		return true
	}
	return false
}

func isBinaryOp(s string) bool {
	switch s {
	case "=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef":
		return true
	}
	return false
}

// testBuiltin is test and [, with POSIX's rules for how many arguments
// there are, and bash's precedence otherwise.
func testBuiltin(b *B) int {
	args := b.Args[1:]
	if b.Args[0] == "[" {
		if len(args) == 0 || args[len(args)-1] != "]" {
			b.Errorf("missing `]'")
			return 2
		}
		args = args[:len(args)-1]
	}
	t := &testParser{b: b, args: args}
	res, ok := t.eval()
	if !ok {
		return 2
	}
	return int(b2i(!res))
}

type testParser struct {
	b    *B
	args []string
	pos  int
	bad  bool
}

func (t *testParser) fail(format string, args ...any) {
	if !t.bad {
		t.b.Errorf(format, args...)
		t.bad = true
	}
}

func (t *testParser) eval() (bool, bool) {
	n := len(t.args)
	var res bool
	switch n {
	case 0:
		return false, true
	case 1:
		return t.args[0] != "", true
	case 2:
		res = t.two(0)
	case 3:
		res = t.three(0)
	case 4:
		if t.args[0] == "!" {
			res = !t.three(1)
			break
		}
		if t.args[0] == "(" && t.args[3] == ")" {
			res = t.two(1)
			break
		}
		res = t.expr()
	default:
		res = t.expr()
	}
	if !t.bad && n > 4 && t.pos < n {
		t.fail("too many arguments")
	}
	return res, !t.bad
}

func (t *testParser) two(i int) bool {
	a, b := t.args[i], t.args[i+1]
	if a == "!" {
		return b == ""
	}
	if isUnaryOp(a) {
		return t.unary(a, b)
	}
	if a == "(" || b == ")" {
		t.fail("`)' expected")
		return false
	}
	t.fail("%s: unary operator expected", a)
	return false
}

func (t *testParser) three(i int) bool {
	a, op, c := t.args[i], t.args[i+1], t.args[i+2]
	if isBinaryOp(op) || op == "-a" || op == "-o" {
		switch op {
		case "-a":
			return a != "" && c != ""
		case "-o":
			return a != "" || c != ""
		}
		return t.binary(a, op, c)
	}
	if a == "!" {
		return !t.two(i + 1)
	}
	if a == "(" && c == ")" {
		return op != ""
	}
	t.fail("%s: binary operator expected", op)
	return false
}

func (t *testParser) unary(op, s string) bool {
	return t.b.R.unaryTest(op, s, false)
}

func (t *testParser) binary(a, op, c string) bool {
	switch op {
	case "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
		x, ok1 := testInt(a)
		if !ok1 {
			t.fail("%s: integer expression expected", a)
			return false
		}
		y, ok2 := testInt(c)
		if !ok2 {
			t.fail("%s: integer expression expected", c)
			return false
		}
		return intCompare(op, x, y)
	}
	return t.b.R.binaryTest(op, a, c)
}

// testInt reads an integer as test does: decimal, blanks around allowed.
func testInt(s string) (int64, bool) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return n, err == nil
}

// expr: or-expressions of and-expressions of negations and primaries.
func (t *testParser) expr() bool {
	x := t.and()
	for !t.bad && t.pos < len(t.args) && t.args[t.pos] == "-o" {
		t.pos++
		y := t.and()
		x = x || y
	}
	return x
}

func (t *testParser) and() bool {
	x := t.not()
	for !t.bad && t.pos < len(t.args) && t.args[t.pos] == "-a" {
		t.pos++
		y := t.not()
		x = x && y
	}
	return x
}

func (t *testParser) not() bool {
	if t.pos < len(t.args) && t.args[t.pos] == "!" {
		t.pos++
		return !t.not()
	}
	return t.primary()
}

func (t *testParser) primary() bool {
	if t.pos >= len(t.args) {
		t.fail("argument expected")
		return false
	}
	a := t.args[t.pos]
	if a == "(" {
		t.pos++
		x := t.expr()
		if t.pos >= len(t.args) || t.args[t.pos] != ")" {
			t.fail("`)' expected")
			return false
		}
		t.pos++
		return x
	}
	if t.pos+2 < len(t.args)+0 && t.pos+2 <= len(t.args)-1 && isBinaryOp(t.args[t.pos+1]) {
		op, c := t.args[t.pos+1], t.args[t.pos+2]
		t.pos += 3
		return t.binary(a, op, c)
	}
	if isUnaryOp(a) && t.pos+1 < len(t.args) {
		t.pos += 2
		return t.unary(a, t.args[t.pos-1])
	}
	t.pos++
	return a != ""
}
