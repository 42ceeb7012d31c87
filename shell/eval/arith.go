package eval

import (
	"strings"
)

// Arithmetic is evaluated from text, as bash does: $((…)), ((…)), let and
// subscripts are expanded first (as in double quotes), then parsed and
// computed here. A variable's value is itself evaluated as an expression
// (x='1+1'; $((x*2)) is 4), while $x was already replaced by its text
// ($(($x*2)) is 3).

// arithError is an error in an expression, reported as bash reports it:
// the expression, what is wrong, and the text from where it went wrong.
type arithError struct {
	expr, msg, token string
}

func (e *arithError) Error() string {
	return e.expr + ": " + e.msg + " (error token is \"" + e.token + "\")"
}

// arithNode is a parsed expression.
type arithNode interface{}

type (
	arithNum struct{ n int64 }
	arithVar struct {
		name string
		sub  *string // the subscript's text, for name[sub]
		at   int     // where the name starts, for errors
	}
	arithUnary struct {
		op string // - + ! ~ ++ -- (prefix), p++ p-- (postfix)
		x  arithNode
		at int
	}
	arithBinary struct {
		op   string
		x, y arithNode
		at   int // the operator
		yEnd int // the last token of y, where bash's errors about it point
	}
	arithCond struct {
		c, t, f arithNode
	}
	arithAssign struct {
		op string // = += -= …
		v  *arithVar
		x  arithNode
		at int
	}
	arithComma struct{ x, y arithNode }
)

type arithParser struct {
	src string
	pos int
	// last is where the last token read starts: bash's errors show the
	// text from there.
	last int
	err  *arithError
}

func (p *arithParser) fail(msg string, at int) {
	if p.err == nil {
		p.err = newArithError(p.src, msg, at)
	}
}

// newArithError words an error as bash: the expression without its
// leading blanks, and the text from the token at fault.
func newArithError(src, msg string, at int) *arithError {
	tok := ""
	if at >= 0 && at < len(src) {
		tok = src[at:]
	}
	return &arithError{expr: strings.TrimLeft(src, " \t\n"), msg: msg, token: tok}
}

func (p *arithParser) skip() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			p.pos++
		default:
			return
		}
	}
}

// peekOp reports whether one of ops is next, and which, longest first.
func (p *arithParser) peekOp(ops ...string) string {
	p.skip()
	best := ""
	for _, op := range ops {
		if strings.HasPrefix(p.src[p.pos:], op) && len(op) > len(best) {
			best = op
		}
	}
	if best != "" {
		p.last = p.pos // the caller consumes it
	}
	return best
}

// parseArith parses a whole expression; an empty one is 0.
func parseArith(src string) (arithNode, *arithError) {
	p := &arithParser{src: src}
	p.skip()
	if p.pos == len(src) {
		return arithNum{0}, nil
	}
	n := p.comma()
	p.skip()
	if p.err == nil && p.pos < len(src) {
		p.fail("syntax error in expression", p.pos)
	}
	if p.err != nil {
		return nil, p.err
	}
	return n, nil
}

func (p *arithParser) comma() arithNode {
	x := p.assign()
	for p.err == nil && p.peekOp(",") != "" {
		p.pos++
		y := p.assign()
		x = arithComma{x, y}
	}
	return x
}

var assignOps = []string{"=", "*=", "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|="}

func (p *arithParser) assign() arithNode {
	x := p.cond()
	if p.err != nil {
		return x
	}
	op := p.peekOp(assignOps...)
	if op == "" || op == "=" && strings.HasPrefix(p.src[p.pos:], "==") {
		return x
	}
	v, ok := x.(*arithVar)
	if !ok {
		p.fail("attempted assignment to non-variable", p.pos) // bash's token starts at the operator
		return x
	}
	at := p.pos
	p.pos += len(op)
	y := p.assign()
	return arithAssign{op: op, v: v, x: y, at: at}
}

func (p *arithParser) cond() arithNode {
	c := p.binary(0)
	if p.err != nil || p.peekOp("?") == "" {
		return c
	}
	p.pos++
	t := p.comma()
	if p.err != nil {
		return c
	}
	if p.peekOp(":") == "" {
		p.fail("`:' expected for conditional expression", p.last)
		return c
	}
	p.pos++
	f := p.cond()
	return arithCond{c, t, f}
}

// binLevels are the binary operators by precedence, lowest first; ** is
// handled apart, as it binds right to left.
var binLevels = [][]string{
	{"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"<<", ">>"},
	{"+", "-"}, {"*", "/", "%"},
}

func (p *arithParser) binary(level int) arithNode {
	if level == len(binLevels) {
		return p.power()
	}
	x := p.binary(level + 1)
	for p.err == nil {
		op := p.peekOp(binLevels[level]...)
		if op == "" || p.isAssignAhead(op) {
			return x
		}
		at := p.pos
		p.pos += len(op)
		y := p.binary(level + 1)
		x = arithBinary{op: op, x: x, y: y, at: at, yEnd: p.last}
	}
	return x
}

// isAssignAhead reports whether the operator op at the position is the
// start of an assignment operator or of a longer operator of a lower
// level (| of ||, & of &&, < of <<=).
func (p *arithParser) isAssignAhead(op string) bool {
	rest := p.src[p.pos+len(op):]
	switch op {
	case "|", "&":
		return strings.HasPrefix(rest, op) || strings.HasPrefix(rest, "=")
	case "<", ">":
		return strings.HasPrefix(rest, op) || strings.HasPrefix(rest, "=")
	case "<<", ">>", "+", "-", "*", "/", "%", "^":
		if (op == "+" || op == "-") && strings.HasPrefix(rest, op) {
			return false
		}
		if op == "*" && strings.HasPrefix(rest, "*") {
			return true
		}
		return strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "==")
	}
	return false
}

func (p *arithParser) power() arithNode {
	x := p.unary()
	if p.err == nil && p.peekOp("**") != "" {
		at := p.pos
		p.pos += 2
		y := p.power()
		return arithBinary{op: "**", x: x, y: y, at: at, yEnd: p.last}
	}
	return x
}

func (p *arithParser) unary() arithNode {
	op := p.peekOp("++", "--", "-", "+", "!", "~")
	if op == "" {
		return p.postfix()
	}
	at := p.pos
	if op == "++" || op == "--" {
		// An increment only before a name: bash reads --5 as - -5.
		i := p.pos + 2
		for i < len(p.src) && (p.src[i] == ' ' || p.src[i] == '\t') {
			i++
		}
		if i < len(p.src) && isNameStart(p.src[i]) {
			p.pos += 2
			return arithUnary{op: op, x: p.postfixless(), at: at}
		}
		op = op[:1]
	}
	p.pos += len(op)
	x := p.unary()
	return arithUnary{op: op, x: x, at: at}
}

// postfixless is the variable after a prefix ++ or --.
func (p *arithParser) postfixless() arithNode {
	return p.primary()
}

func (p *arithParser) postfix() arithNode {
	x := p.primary()
	if p.err != nil {
		return x
	}
	if v, ok := x.(*arithVar); ok {
		if op := p.peekOp("++", "--"); op != "" {
			at := p.pos
			p.pos += 2
			return arithUnary{op: "p" + op, x: v, at: at}
		}
	}
	return x
}

func isNameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isNameChar(c byte) bool  { return isNameStart(c) || c >= '0' && c <= '9' }

func (p *arithParser) primary() arithNode {
	p.skip()
	if p.pos >= len(p.src) {
		p.fail("syntax error: operand expected", p.last)
		return nil
	}
	c := p.src[p.pos]
	p.last = p.pos
	switch {
	case c == '(':
		p.pos++
		x := p.comma()
		if p.err != nil {
			return x
		}
		if p.peekOp(")") == "" {
			p.fail("missing `)'", p.pos)
			return x
		}
		p.pos++
		return x
	case c >= '0' && c <= '9':
		start := p.pos
		for p.pos < len(p.src) && (isNameChar(p.src[p.pos]) || p.src[p.pos] == '#' || p.src[p.pos] == '@') {
			p.pos++
		}
		n, msg := parseArithNumber(p.src[start:p.pos])
		if msg != "" && p.err == nil {
			// bash shows a bad constant with the expression up to it.
			e := newArithError(p.src[:p.pos], msg, start)
			p.err = e
			return nil
		}
		return arithNum{n}
	case isNameStart(c):
		start := p.pos
		for p.pos < len(p.src) && isNameChar(p.src[p.pos]) {
			p.pos++
		}
		v := &arithVar{name: p.src[start:p.pos], at: start}
		p.skip()
		if p.pos < len(p.src) && p.src[p.pos] == '[' {
			end := matchBracket(p.src, p.pos)
			if end < 0 {
				p.fail("bad array subscript", start)
				return nil
			}
			sub := p.src[p.pos+1 : end]
			v.sub = &sub
			p.pos = end + 1
		}
		return v
	}
	op := p.src[p.pos:]
	if isBinaryStart(c) {
		p.fail("syntax error: operand expected", p.pos)
	} else {
		p.fail("syntax error: invalid arithmetic operator", p.pos)
	}
	_ = op
	return nil
}

func isBinaryStart(c byte) bool { return strings.IndexByte("*/%<>=&|^?:,)", c) >= 0 }

// matchBracket is the index of the ] that closes the [ at i, -1 if none.
func matchBracket(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// parseArithNumber reads a constant: decimal, 0x hex, 0 octal, or base#n.
func parseArithNumber(s string) (int64, string) {
	base := int64(10)
	digits := s
	if b, rest, ok := strings.Cut(s, "#"); ok {
		n, msg := parseArithNumber(b)
		if msg != "" || n < 2 || n > 64 || strings.ContainsAny(b, "xX") {
			return 0, "invalid arithmetic base"
		}
		base, digits = n, rest
		if digits == "" {
			return 0, "invalid integer constant"
		}
	} else if len(s) > 1 && s[0] == '0' {
		if s[1] == 'x' || s[1] == 'X' {
			base, digits = 16, s[2:]
			if digits == "" {
				return 0, "" // bash reads a bare 0x as 0
			}
		} else {
			base, digits = 8, s[1:]
		}
	}
	var n int64
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		var d int64
		switch {
		case c >= '0' && c <= '9':
			d = int64(c - '0')
		case c >= 'a' && c <= 'z':
			d = int64(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			d = int64(c - 'A' + 10)
			if base > 36 {
				d += 26
			}
		case c == '@':
			d = 62
		case c == '_':
			d = 63
		default:
			return 0, "value too great for base"
		}
		if d >= base {
			return 0, "value too great for base"
		}
		n = n*base + d
	}
	return n, ""
}

// maxArithDepth bounds the evaluation of values that name other values.
const maxArithDepth = 1024

// arith evaluates parsed arithmetic.
type arith struct {
	r     *Runner
	src   string
	depth int
	err   error
}

func (a *arith) fail(msg string, at int) {
	if a.err == nil {
		a.err = newArithError(a.src, msg, at)
	}
}

// arithString evaluates text as an arithmetic expression, as a variable's
// value or a subscript is.
func (r *Runner) arithString(s string) (int64, error) {
	return r.arithEval(s, 0)
}

func (r *Runner) arithEval(s string, depth int) (int64, error) {
	if n, ok := fastNumber(s); ok {
		return n, nil
	}
	if depth > maxArithDepth {
		return 0, &arithError{expr: s, msg: "expression recursion level exceeded", token: s}
	}
	node, perr := r.sess.parseArithCached(s)
	if perr != nil {
		return 0, perr
	}
	a := &arith{r: r, src: s, depth: depth}
	n := a.eval(node)
	return n, a.err
}

// fastNumber reads plain decimal numbers, the common case, without the
// parser.
func fastNumber(s string) (int64, bool) {
	if s == "" || len(s) > 18 {
		return 0, s == ""
	}
	neg := false
	i := 0
	if s[0] == '-' {
		neg, i = true, 1
		if len(s) == 1 {
			return 0, false
		}
	}
	if s[i] == '0' && len(s) > i+1 {
		return 0, false
	}
	var n int64
	for ; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

func (a *arith) eval(n arithNode) int64 {
	if a.err != nil {
		return 0
	}
	switch n := n.(type) {
	case arithNum:
		return n.n
	case *arithVar:
		return a.value(n)
	case arithUnary:
		return a.unary(n)
	case arithBinary:
		return a.binary(n)
	case arithCond:
		if a.eval(n.c) != 0 {
			return a.eval(n.t)
		}
		return a.eval(n.f)
	case arithAssign:
		return a.assign(n)
	case arithComma:
		a.eval(n.x)
		return a.eval(n.y)
	}
	return 0
}

// value is the value of a variable or element, its text evaluated in turn.
func (a *arith) value(v *arithVar) int64 {
	s, ok := a.read(v)
	if !ok {
		if a.r.opts.set[optNounset] {
			name := v.name
			if v.sub != nil {
				name += "[" + *v.sub + "]"
			}
			a.r.errorf("%s: unbound variable", name)
			panic(abort{status: 127, exit: true})
		}
		return 0
	}
	n, err := a.r.arithEval(s, a.depth+1)
	if err != nil && a.err == nil {
		a.err = err
	}
	return n
}

func (a *arith) read(v *arithVar) (string, bool) {
	r := a.r
	if v.sub == nil {
		return r.Get(v.name)
	}
	target, _, _ := r.resolve(v.name)
	vr := r.lookup(target)
	if vr == nil {
		if _, err := r.arithString(*v.sub); err != nil && a.err == nil {
			a.err = err
		}
		return "", false
	}
	if vr.m != nil {
		return vr.m.get(r.assocKey(*v.sub))
	}
	i, err := r.arithString(*v.sub)
	if err != nil {
		a.err = err
		return "", false
	}
	return r.index(v.name, vr, i)
}

func (a *arith) write(v *arithVar, n int64) {
	if a.err != nil {
		return
	}
	r := a.r
	var err error
	if v.sub == nil {
		err = r.assign(v.name, itoa(n), false)
	} else {
		target, _, _ := r.resolve(v.name)
		if vr, _ := r.vars.find(target); vr != nil && vr.m != nil {
			err = r.assignElem(target, r.assocKey(*v.sub), itoa(n), false)
		} else {
			var i int64
			i, err = r.arithString(*v.sub)
			if err == nil {
				err = r.assignIndex(target, i, itoa(n), false)
			}
		}
	}
	if err != nil && err.Error() != "" { // a nameref cycle is only warned about
		a.err = err
	}
}

func (a *arith) unary(n arithUnary) int64 {
	switch n.op {
	case "-":
		return -a.eval(n.x)
	case "+":
		return a.eval(n.x)
	case "!":
		if a.eval(n.x) == 0 {
			return 1
		}
		return 0
	case "~":
		return ^a.eval(n.x)
	}
	v := n.x.(*arithVar)
	old := a.value(v)
	nv := old + 1
	if n.op == "--" || n.op == "p--" {
		nv = old - 1
	}
	a.write(v, nv)
	if n.op[0] == 'p' {
		return old
	}
	return nv
}

func (a *arith) binary(n arithBinary) int64 {
	switch n.op {
	case "&&":
		if a.eval(n.x) == 0 {
			return 0 // the right side is not evaluated
		}
		return b2i(a.eval(n.y) != 0)
	case "||":
		if a.eval(n.x) != 0 {
			return 1
		}
		return b2i(a.eval(n.y) != 0)
	}
	x := a.eval(n.x)
	y := a.eval(n.y)
	return a.op(n.op, x, y, n.yEnd)
}

func (a *arith) op(op string, x, y int64, at int) int64 {
	switch op {
	case "+":
		return x + y
	case "-":
		return x - y
	case "*":
		return x * y
	case "/", "%":
		if y == 0 {
			a.fail("division by 0", at)
			return 0
		}
		if op == "/" {
			return x / y
		}
		return x % y
	case "**":
		if y < 0 {
			a.fail("exponent less than 0", at)
			return 0
		}
		r := int64(1)
		for ; y > 0; y >>= 1 {
			if y&1 == 1 {
				r *= x
			}
			x *= x
		}
		return r
	case "<<":
		return x << (uint64(y) & 63)
	case ">>":
		return x >> (uint64(y) & 63)
	case "<":
		return b2i(x < y)
	case "<=":
		return b2i(x <= y)
	case ">":
		return b2i(x > y)
	case ">=":
		return b2i(x >= y)
	case "==":
		return b2i(x == y)
	case "!=":
		return b2i(x != y)
	case "&":
		return x & y
	case "^":
		return x ^ y
	case "|":
		return x | y
	}
	return 0
}

func (a *arith) assign(n arithAssign) int64 {
	y := a.eval(n.x)
	if a.err != nil {
		return 0
	}
	if n.op != "=" {
		y = a.op(strings.TrimSuffix(n.op, "="), a.value(n.v), y, n.at)
	}
	a.write(n.v, y)
	return y
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func itoa(n int64) string {
	if n >= 0 && n < 10 {
		return string(rune('0' + n))
	}
	var b [20]byte
	i := len(b)
	u := uint64(n)
	if n < 0 {
		u = uint64(-n)
	}
	for u > 0 {
		i--
		b[i] = byte('0' + u%10)
		u /= 10
	}
	if n < 0 {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
