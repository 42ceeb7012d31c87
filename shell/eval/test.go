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
func (r *Runner) test(x syntax.TestExpr) bool { return r.testNeg(x, false) }

// testTrace is set -x's line for one primary of [[ ]], as bash prints
// each it evaluates: [[ ! -e f ]], [[ x y == \x\ \y ]].
func (r *Runner) testTrace(neg bool, parts ...string) {
	if !r.opts.set[optXtrace] {
		return
	}
	for i, p := range parts {
		if p == "" {
			parts[i] = "''"
		}
	}
	if neg {
		parts = append([]string{"!"}, parts...)
	}
	r.xtrace("[[ " + strings.Join(parts, " ") + " ]]")
}

// tracePattern is a pattern as set -x shows it: quoted characters each
// behind a backslash, the rest as expanded.
func (r *Runner) tracePattern(w *syntax.Word) string {
	if !r.opts.set[optXtrace] {
		return ""
	}
	var sb strings.Builder
	escape := func(s string) {
		for _, c := range s {
			sb.WriteByte('\\')
			sb.WriteRune(c)
		}
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			sb.WriteString(p.Value)
		case *syntax.SglQuoted:
			v := p.Value
			if p.Dollar {
				v = ansiC(v)
			}
			escape(v)
		case *syntax.DblQuoted:
			escape(r.Literal(&syntax.Word{Parts: p.Parts}))
		default:
			sb.WriteString(r.Literal(&syntax.Word{Parts: []syntax.WordPart{p}}))
		}
	}
	return sb.String()
}

func (r *Runner) testNeg(x syntax.TestExpr, neg bool) bool {
	switch x := x.(type) {
	case *syntax.Word:
		v := r.Literal(x)
		r.testTrace(neg, "-n", v)
		return v != ""
	case *syntax.ParenTest:
		return r.testNeg(x.X, neg)
	case *syntax.UnaryTest:
		if x.Op == syntax.TsNot {
			switch x.X.(type) {
			case *syntax.Word, *syntax.UnaryTest:
				return !r.testNeg(x.X, !neg)
			case *syntax.BinaryTest:
				if b := x.X.(*syntax.BinaryTest); b.Op != syntax.AndTest && b.Op != syntax.OrTest {
					return !r.testNeg(x.X, !neg)
				}
			}
			return !r.test(x.X)
		}
		w, ok := x.X.(*syntax.Word)
		if !ok {
			return false
		}
		v := r.Literal(w)
		r.testTrace(neg, x.Op.String(), v)
		return r.unaryTest(x.Op.String(), v, true)
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
			pat := r.Pattern(yw)
			r.testTrace(neg, left, x.Op.String(), r.tracePattern(yw))
			p, err := pattern.Compile(pat, mode)
			m := err == nil && p.Match(left)
			return m == (x.Op != syntax.TsNoMatch)
		case syntax.TsReMatch:
			r.testTrace(neg, left, "=~", r.srcOf(yw))
			return r.regexMatch(left, yw)
		}
		right := r.Literal(yw)
		r.testTrace(neg, left, x.Op.String(), right)
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
			_, ok := r.index(n, v, i)
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
	if len(s) != 2 || s[0] != '-' {
		return false
	}
	return strings.IndexByte("abcdefghknoprstuvwxzGLOSNR", s[1]) >= 0
}

// isBinaryOp reports whether s is a binary operator of the test builtin
// (=~ is [['s alone).
func isBinaryOp(s string) bool {
	switch s {
	case "=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef":
		return true
	}
	return false
}

// testBuiltin is test and [, as bash's test.c: POSIX's rules by the
// number of arguments up to four, then a recursive descent over -o, -a,
// !, parentheses and the operators; the first syntax error ends it with
// status 2.
func testBuiltin(b *B) (status int) {
	args := b.Args[1:]
	if b.Args[0] == "[" {
		if len(args) == 0 || args[len(args)-1] != "]" {
			b.Errorf("missing `]'")
			return 2
		}
		args = args[:len(args)-1]
	}
	if len(args) == 0 {
		return 1
	}
	t := &testParser{b: b, args: args}
	defer func() {
		if e := recover(); e != nil {
			if _, ok := e.(testSyntax); !ok {
				panic(e)
			}
			status = 2
		}
	}()
	res := t.posix()
	if t.pos != len(args) {
		if t.pos < len(args) && strings.HasPrefix(args[t.pos], "-") {
			t.fail("syntax error: `%s' unexpected", args[t.pos])
		}
		t.fail("too many arguments")
	}
	return int(b2i(!res))
}

type testParser struct {
	b    *B
	args []string
	pos  int
}

// testSyntax ends a test with a syntax error, already reported.
type testSyntax struct{}

func (t *testParser) fail(format string, args ...any) {
	t.b.Errorf(format, args...)
	panic(testSyntax{})
}

func (t *testParser) arg(i int) string {
	if i < len(t.args) {
		return t.args[i]
	}
	return ""
}

// advance moves past an argument; with need, one must follow.
func (t *testParser) advance(need bool) {
	t.pos++
	if need && t.pos >= len(t.args) {
		t.fail("argument expected")
	}
}

func (t *testParser) posix() bool {
	n := len(t.args)
	switch n {
	case 1:
		t.pos = n
		return t.args[0] != ""
	case 2:
		v := t.two()
		t.pos = n
		return v
	case 3:
		return t.three()
	case 4:
		if t.args[0] == "!" {
			t.advance(true)
			return !t.three()
		}
		if t.args[0] == "(" && t.args[3] == ")" {
			t.advance(true)
			v := t.two()
			t.pos = n
			return v
		}
	}
	return t.expr()
}

func (t *testParser) two() bool {
	a := t.arg(t.pos)
	if a == "!" {
		return t.arg(t.pos+1) == ""
	}
	if isUnaryOp(a) {
		return t.unary()
	}
	t.fail("%s: unary operator expected", a)
	return false
}

func (t *testParser) three() bool {
	a, op, c := t.arg(t.pos), t.arg(t.pos+1), t.arg(t.pos+2)
	var v bool
	switch {
	case isBinaryOp(op):
		v = t.binary()
	case op == "-a":
		v = a != "" && c != ""
	case op == "-o":
		v = a != "" || c != ""
	case a == "!":
		t.advance(true)
		v = !t.two()
	case a == "(" && c == ")":
		v = op != ""
	default:
		t.fail("%s: binary operator expected", op)
	}
	t.pos = len(t.args)
	return v
}

func (t *testParser) expr() bool {
	if t.pos >= len(t.args) {
		t.fail("argument expected")
	}
	return t.or()
}

func (t *testParser) or() bool {
	v := t.and()
	if t.pos < len(t.args) && t.args[t.pos] == "-o" {
		t.advance(false)
		w := t.or()
		return v || w
	}
	return v
}

func (t *testParser) and() bool {
	v := t.term()
	if t.pos < len(t.args) && t.args[t.pos] == "-a" {
		t.advance(false)
		w := t.and()
		return v && w
	}
	return v
}

func (t *testParser) term() bool {
	if t.pos >= len(t.args) {
		t.fail("argument expected")
	}
	if t.args[t.pos] == "!" {
		neg := false
		for t.pos < len(t.args) && t.args[t.pos] == "!" {
			t.advance(true)
			neg = !neg
		}
		return t.term() != neg
	}
	if t.args[t.pos] == "(" {
		t.advance(true)
		v := t.expr()
		switch {
		case t.pos >= len(t.args) && t.b.Args[0] == "[":
			// bash's [ reads on into its ] as the word found.
			t.fail("`)' expected, found ]")
		case t.pos >= len(t.args):
			t.fail("`)' expected")
		case t.args[t.pos] != ")":
			t.fail("`)' expected, found %s", t.args[t.pos])
		}
		t.advance(false)
		return v
	}
	if t.pos+3 <= len(t.args) && isBinaryOp(t.args[t.pos+1]) {
		return t.binary()
	}
	if t.pos+2 <= len(t.args) && isUnaryOp(t.args[t.pos]) {
		return t.unary()
	}
	v := t.args[t.pos] != ""
	t.advance(false)
	return v
}

func (t *testParser) unary() bool {
	op := t.args[t.pos]
	if op == "-t" {
		// -t alone is -t 1; a word that is no number is false.
		t.advance(false)
		if t.pos >= len(t.args) {
			return t.b.R.unaryTest(op, "1", false)
		}
		if _, ok := testInt(t.args[t.pos]); !ok {
			return false
		}
		t.advance(false)
		return t.b.R.unaryTest(op, t.args[t.pos-1], false)
	}
	t.advance(true)
	t.pos++
	return t.b.R.unaryTest(op, t.args[t.pos-1], false)
}

func (t *testParser) binary() bool {
	a, op, c := t.args[t.pos], t.args[t.pos+1], t.args[t.pos+2]
	t.pos += 3
	switch op {
	case "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
		x, ok := testInt(a)
		if !ok {
			t.fail("%s: integer expression expected", a)
		}
		y, ok := testInt(c)
		if !ok {
			t.fail("%s: integer expression expected", c)
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
