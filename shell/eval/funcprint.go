package eval

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// FuncText is a function's definition as bash 5.2 prints it for
// declare -f, type and set: `name () `, the body as a brace group with a
// command a line, four spaces a level, comments dropped, and words as they
// were written (bash keeps a word's text, not its meaning: only $'…' and
// $"…" are rewritten, and command substitutions printed again in this
// layout). Scripts re-source bash's text and people compare it, so its
// quirks are kept too, down to where here-document bodies land and where
// a `;` goes missing after one.
func FuncText(fn *Func) string {
	p := &funcPrinter{src: fn.src, exact: sourceMatches(fn.Body, fn.src)}
	p.WriteString(fn.Name + " () \n")
	p.funcBody(fn.Body)
	p.flushWith("")
	p.WriteString("\n")
	return UnescapeRawBytes(p.String()) // the source's bytes, as read
}

// funcPrinter prints syntax trees in bash's layout. Bash has two: inside
// a function's body every list is a command a line and a brace group
// spreads over lines; elsewhere (the body of a command substitution) a list
// keeps its `;` and newlines and a group stays on one line. Compound
// commands are laid out over lines in both.
//
// Bash sees a list or an && || | chain as nested connections (lists and
// && || nest to the left, pipes to the right). A here-document's body
// goes right after its command's redirections, unless a connection is
// being printed: then it waits for the connection's operator or its end,
// or for the end of the compound command around it.
type funcPrinter struct {
	strings.Builder
	src    string
	exact  bool // src is the text the tree was parsed from, positions and all
	level  int  // indentation, in steps of four spaces
	inFunc int  // how many function bodies are being printed
	inConn int  // how many connections are being printed
	inSub  bool // printing a command substitution's body, as bash parses one
	// pending are the here-documents whose bodies wait; hdocSeen says
	// bodies were printed since the last list separator, which bash then
	// prints without its `;`.
	pending  []*syntax.Redirect
	hdocSeen bool
}

func (p *funcPrinter) indent() string { return strings.Repeat("    ", p.level) }

// flushWith prints op (a connection's operator), then the bodies of the
// waiting here-documents, if any, on the lines below.
func (p *funcPrinter) flushWith(op string) {
	if len(p.pending) == 0 {
		p.WriteString(op)
		return
	}
	show := op != "" && op != ";"
	if show {
		p.WriteString(op)
	}
	p.WriteString("\n")
	for _, r := range p.pending {
		body, delim := p.hdoc(r)
		p.WriteString(body + delim + "\n")
	}
	p.pending = nil
	p.hdocSeen = true
	if show {
		p.WriteString(" ")
	}
}

// semicolon ends a command before a keyword (then, do, fi, done, }):
// bash leaves it out after a `&` or at the start of a line.
func (p *funcPrinter) semicolon() {
	if s := p.String(); s != "" && (s[len(s)-1] == '&' || s[len(s)-1] == '\n') {
		return
	}
	p.WriteString(";")
}

// funcBody prints a function's body as a brace group: a body of another
// kind (f() ( … ), f() if …) goes inside one, as in bash.
func (p *funcPrinter) funcBody(body *syntax.Stmt) {
	p.inFunc++
	savedConn := p.inConn
	p.inConn = 0
	defer func() { p.inFunc--; p.inConn = savedConn }()
	if body == nil {
		p.WriteString("{ \n" + p.indent() + "}")
		return
	}
	if _, ok := body.Cmd.(*syntax.Block); ok && !body.Negated && !body.Background {
		p.stmt(body)
		return
	}
	p.WriteString("{ \n")
	p.level++
	p.WriteString(p.indent())
	p.list([]*syntax.Stmt{body})
	p.level--
	p.flushWith("")
	p.WriteString("\n" + p.indent() + "}")
}

// conn is one of bash's connections: first, an operator (`;`, `&`, or
// a newline that bash keeps as one inside a command substitution), and
// second (nil after a final `&`). first and second are a *syntax.Stmt or
// a *conn.
type conn struct {
	first, second any
	op            byte
}

// list prints a list of commands as bash's chain of connections.
func (p *funcPrinter) list(stmts []*syntax.Stmt) {
	if len(stmts) == 0 {
		return
	}
	var tree any = stmts[0]
	for i, st := range stmts {
		var next any
		if i+1 < len(stmts) {
			next = stmts[i+1]
		} else if !st.Background {
			break
		}
		switch {
		case st.Background:
			tree = async(tree, next)
		case p.inSub && !st.Semicolon.IsValid():
			tree = &conn{tree, next, '\n'}
		default:
			tree = &conn{tree, next, ';'}
		}
	}
	p.node(tree)
}

// async connects next after a `&`: as bash's parser does, in a ;-list
// the & takes only the last command (a; b & c is a; (b & c)).
func async(tree, next any) any {
	c, ok := tree.(*conn)
	if !ok || c.op != ';' {
		return &conn{tree, next, '&'}
	}
	for {
		inner, ok := c.second.(*conn)
		if !ok || inner.op != ';' {
			break
		}
		c = inner
	}
	c.second = &conn{c.second, next, '&'}
	return tree
}

func (p *funcPrinter) node(n any) {
	switch n := n.(type) {
	case *syntax.Stmt:
		p.stmt(n)
	case *conn:
		p.inConn++
		p.node(n.first)
		p.connector(n)
		if n.second != nil {
			p.node(n.second)
		}
		p.flushWith("")
		p.inConn--
	}
}

// connector prints a connection's operator. Waiting bodies take the
// place of a `;`, and after bodies the next `;` is left out. Inside a
// function a command comes a line; elsewhere a `;` is followed by a
// space, and a newline stays one, the next command indented only after
// bodies.
func (p *funcPrinter) connector(c *conn) {
	if c.op == '&' {
		p.flushWith(" &")
		if c.second != nil {
			p.WriteString(" ")
		}
		return
	}
	plain := false
	switch {
	case len(p.pending) > 0:
		if p.inFunc > 0 {
			p.flushWith("")
		} else {
			p.flushWith(";")
		}
	case p.hdocSeen:
		p.hdocSeen = false
	default:
		p.WriteByte(c.op)
		plain = true
	}
	switch {
	case p.inFunc > 0:
		p.WriteString("\n" + p.indent())
	case c.op == ';':
		p.WriteString(" ")
	case !plain:
		p.WriteString("\n" + p.indent())
	}
}

// body prints the body of a compound command on the lines below, one
// level in.
func (p *funcPrinter) body(stmts []*syntax.Stmt) {
	p.level++
	p.WriteString("\n" + p.indent())
	p.list(stmts)
	p.flushWith("")
	p.semicolon()
	p.level--
}

func (p *funcPrinter) stmt(st *syntax.Stmt) {
	if st == nil {
		return
	}
	if tc, ok := st.Cmd.(*syntax.TimeClause); ok {
		p.time(tc, st.Negated) // bash puts time before the !
	} else {
		if st.Negated {
			p.WriteString("! ")
		}
		p.command(st.Cmd)
	}
	p.redirects(st.Redirs, !emptyCommand(st.Cmd))
}

func emptyCommand(cmd syntax.Command) bool {
	switch c := cmd.(type) {
	case nil:
		return true
	case *syntax.CallExpr:
		return len(c.Assigns) == 0 && len(c.Args) == 0
	}
	return false
}

func (p *funcPrinter) time(tc *syntax.TimeClause, negated bool) {
	p.WriteString("time ")
	posix := tc.PosixFormat
	// time time a: bash times the pipeline once.
	for st := tc.Stmt; st != nil && !st.Negated && !st.Background && len(st.Redirs) == 0; st = tc.Stmt {
		inner, ok := st.Cmd.(*syntax.TimeClause)
		if !ok {
			break
		}
		tc, posix = inner, posix || inner.PosixFormat
	}
	if posix {
		p.WriteString("-p ")
	}
	if negated {
		p.WriteString("! ")
	}
	p.stmt(tc.Stmt)
}

func (p *funcPrinter) command(cmd syntax.Command) {
	switch c := cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		words := make([]string, 0, len(c.Assigns)+len(c.Args))
		for _, a := range c.Assigns {
			words = append(words, p.assign(a))
		}
		for _, w := range c.Args {
			words = append(words, p.text(w))
		}
		p.WriteString(strings.Join(words, " "))
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			var stmts []*syntax.Stmt
			var ops []syntax.BinCmdOperator
			pipeline(c, &stmts, &ops)
			p.pipeline(stmts, ops)
			return
		}
		p.inConn++
		p.stmt(c.X)
		p.flushWith(" " + c.Op.String() + " ")
		p.stmt(c.Y)
		p.flushWith("")
		p.inConn--
	case *syntax.Block:
		p.block(c)
	case *syntax.Subshell:
		p.WriteString("( ")
		p.list(c.Stmts)
		p.flushWith("")
		p.WriteString(" )")
	case *syntax.IfClause:
		p.ifClause(c)
	case *syntax.WhileClause:
		if c.Until {
			p.WriteString("until ")
		} else {
			p.WriteString("while ")
		}
		p.list(c.Cond)
		p.flushWith("")
		p.semicolon()
		p.WriteString(" do")
		p.body(c.Do)
		p.WriteString("\n" + p.indent() + "done")
	case *syntax.ForClause:
		p.forClause(c)
	case *syntax.CaseClause:
		p.caseClause(c)
	case *syntax.FuncDecl:
		name := ""
		if c.Name != nil {
			name = c.Name.Value
		}
		p.WriteString("function " + name + " () \n" + p.indent())
		p.funcBody(c.Body)
		p.hdocSeen = false
	case *syntax.ArithmCmd:
		p.WriteString("((" + p.arithRange(c.Left, 2, c.Right, c.X) + "))")
	case *syntax.TestClause:
		p.WriteString("[[ " + p.test(c.X) + " ]]")
	case *syntax.DeclClause:
		words := []string{""}
		if c.Variant != nil {
			words[0] = c.Variant.Value
		}
		for _, a := range c.Args {
			words = append(words, p.assign(a))
		}
		p.WriteString(strings.Join(words, " "))
	case *syntax.LetClause:
		p.WriteString("let")
		for _, x := range c.Exprs {
			p.WriteString(" " + p.text(x))
		}
	case *syntax.TimeClause:
		p.time(c, false)
	case *syntax.CoprocClause:
		name := "COPROC"
		if c.Name != nil {
			name = p.text(c.Name)
		}
		p.WriteString("coproc " + name + " ")
		p.stmt(c.Stmt)
	default:
		p.WriteString(printed(c))
	}
}

// pipeline flattens the parser's left-nested pipeline into its commands
// and operators.
func pipeline(c *syntax.BinaryCmd, stmts *[]*syntax.Stmt, ops *[]syntax.BinCmdOperator) {
	if x := c.X; x != nil && !x.Negated && !x.Background && len(x.Redirs) == 0 {
		if inner, ok := x.Cmd.(*syntax.BinaryCmd); ok && (inner.Op == syntax.Pipe || inner.Op == syntax.PipeAll) {
			pipeline(inner, stmts, ops)
			*ops = append(*ops, c.Op)
			*stmts = append(*stmts, c.Y)
			return
		}
	}
	*stmts = append(*stmts, c.X, c.Y)
	*ops = append(*ops, c.Op)
}

// pipeline prints a | b | c as bash nests it, a | (b | c); its |& is a
// 2>&1 on the command before a |.
func (p *funcPrinter) pipeline(stmts []*syntax.Stmt, ops []syntax.BinCmdOperator) {
	p.inConn++
	p.stmt(stmts[0])
	if ops[0] == syntax.PipeAll {
		p.WriteString(" 2>&1")
		p.hdocSeen = false
	}
	p.flushWith(" |")
	p.WriteString(" ")
	if len(stmts) > 2 {
		p.pipeline(stmts[1:], ops[1:])
	} else {
		p.stmt(stmts[1])
	}
	p.flushWith("")
	p.inConn--
}

func (p *funcPrinter) block(c *syntax.Block) {
	if p.inFunc == 0 {
		p.WriteString("{ ")
		p.list(c.Stmts)
		p.flushWith("")
		p.semicolon()
		p.WriteString(" }")
		return
	}
	p.WriteString("{ \n")
	p.level++
	p.WriteString(p.indent())
	p.list(c.Stmts)
	p.level--
	p.flushWith("")
	p.WriteString("\n" + p.indent() + "}")
}

func (p *funcPrinter) ifClause(c *syntax.IfClause) {
	p.WriteString("if ")
	p.list(c.Cond)
	// Unlike a loop's, an if's condition does not print the bodies that
	// wait: they come after the first command of the then part.
	p.semicolon()
	p.WriteString(" then")
	p.body(c.Then)
	if e := c.Else; e != nil {
		p.WriteString("\n" + p.indent() + "else")
		if len(e.Cond) > 0 { // elif: bash prints an if inside the else
			p.body([]*syntax.Stmt{{Cmd: e}})
		} else {
			p.body(e.Then)
		}
	}
	p.WriteString("\n" + p.indent() + "fi")
}

func (p *funcPrinter) forClause(c *syntax.ForClause) {
	kw := "for "
	if c.Select {
		kw = "select "
	}
	p.WriteString(kw)
	switch l := c.Loop.(type) {
	case *syntax.WordIter:
		if l.Name != nil {
			p.WriteString(l.Name.Value)
		}
		p.WriteString(" in ")
		if !l.InPos.IsValid() {
			p.WriteString(`"$@"`)
		}
		words := make([]string, len(l.Items))
		for i, w := range l.Items {
			words[i] = p.text(w)
		}
		p.WriteString(strings.Join(words, " ") + ";")
	case *syntax.CStyleLoop:
		p.WriteString("((" + strings.Join(p.cFor(l), "; ") + "))")
	}
	p.WriteString("\n" + p.indent() + "do")
	p.body(c.Do)
	p.WriteString("\n" + p.indent() + "done")
}

// cFor is the three expressions of for ((…)) as bash keeps them: each
// as written from its first character to the `;` or `))` after it, and 1
// where one is empty.
func (p *funcPrinter) cFor(l *syntax.CStyleLoop) []string {
	exprs := []syntax.ArithmExpr{l.Init, l.Cond, l.Post}
	texts := make([]string, 3)
	if !p.exact || !l.Lparen.IsValid() || !l.Rparen.IsValid() {
		for i, x := range exprs {
			texts[i] = "1"
			if x != nil {
				texts[i] = printedArith(x)
			}
		}
		return texts
	}
	from, rparen := offset(l.Lparen)+2, offset(l.Rparen)
	for i, x := range exprs {
		// The expression ends at the `;` (or, last, the `))`) after it.
		end := rparen
		if i < 2 {
			end = from
			if x != nil {
				end = offset(x.End())
			}
			for end < rparen && p.src[end] != ';' {
				end++
			}
		}
		start := from
		if x != nil {
			start = offset(x.Pos())
		}
		t := p.textRange(start, end, x)
		t = strings.TrimLeft(t, " \t\n")
		if x == nil && strings.TrimSpace(t) == "" {
			t = "1"
		}
		texts[i] = t
		from = end + 1
	}
	return texts
}

func (p *funcPrinter) caseClause(c *syntax.CaseClause) {
	p.WriteString("case " + p.text(c.Word) + " in \n")
	p.level++
	for _, item := range c.Items {
		pats := make([]string, len(item.Patterns))
		for i, w := range item.Patterns {
			pats[i] = p.text(w)
		}
		p.WriteString(p.indent() + strings.Join(pats, " | ") + ")\n")
		p.level++
		if len(item.Stmts) > 0 {
			p.WriteString(p.indent())
			p.list(item.Stmts)
		}
		p.level--
		p.flushWith("")
		op := item.Op.String()
		switch item.Op {
		case syntax.Break, syntax.Fallthrough, syntax.Resume:
		default:
			op = ";;"
		}
		p.WriteString("\n" + p.indent() + op + "\n")
	}
	p.level--
	p.WriteString(p.indent() + "esac")
}

// test prints the expression of [[ ]]: bash rebuilds it from its parts,
// a lone word as a -n test.
func (p *funcPrinter) test(x syntax.TestExpr) string {
	switch x := x.(type) {
	case *syntax.BinaryTest:
		if x.Op == syntax.AndTest || x.Op == syntax.OrTest {
			return p.test(x.X) + " " + x.Op.String() + " " + p.test(x.Y)
		}
		return p.operand(x.X) + " " + x.Op.String() + " " + p.operand(x.Y)
	case *syntax.UnaryTest:
		if x.Op == syntax.TsNot {
			// Bash's parser drops a ! that another ! undoes.
			if inner, ok := x.X.(*syntax.UnaryTest); ok && inner.Op == syntax.TsNot {
				return p.test(inner.X)
			}
			return "! " + p.test(x.X)
		}
		return x.Op.String() + " " + p.operand(x.X)
	case *syntax.ParenTest:
		return "( " + p.test(x.X) + " )"
	case *syntax.Word:
		return "-n " + p.text(x)
	case nil:
		return ""
	}
	return printed(x)
}

func (p *funcPrinter) operand(x syntax.TestExpr) string {
	if w, ok := x.(*syntax.Word); ok {
		return p.text(w)
	}
	return p.test(x)
}

// redirects prints a command's redirections after it, the way bash
// normalises them: `>&2` names its 1, `<&-` becomes `0>&-`, a file
// operator is followed by a space, a here-document's body is due.
func (p *funcPrinter) redirects(rs []*syntax.Redirect, space bool) {
	if len(rs) > 0 {
		p.hdocSeen = false // bash forgets the bodies when it prints a redirection
	}
	for _, r := range rs {
		if space {
			p.WriteString(" ")
		}
		space = true
		p.WriteString(p.redirect(r))
	}
	if p.inConn == 0 {
		p.flushWith("")
	}
}

func (p *funcPrinter) redirect(r *syntax.Redirect) string {
	fd := ""
	if r.N != nil {
		fd = r.N.Value
	}
	// unless is the fd bash leaves out, when it is the one written.
	unless := func(def string) string {
		if fd == def {
			return ""
		}
		return fd
	}
	word := ""
	if r.Word != nil {
		word = p.text(r.Word)
	}
	op := r.Op.String()
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob:
		return unless("1") + op + " " + word
	case syntax.RdrIn:
		return unless("0") + op + " " + word
	case syntax.RdrInOut:
		if fd == "" {
			fd = "0"
		}
		return fd + op + " " + word
	case syntax.WordHdoc:
		return unless("0") + op + " " + word
	case syntax.Hdoc, syntax.DashHdoc:
		p.pending = append(p.pending, r)
		delim, quoted := p.delimiter(r)
		if quoted {
			delim = printQuote(delim) // as '…', whatever quotes it had
		}
		return unless("0") + op + delim
	case syntax.DplIn, syntax.DplOut:
		def := "1"
		if r.Op == syntax.DplIn {
			def = "0"
		}
		lit := ""
		if r.Word != nil {
			lit = r.Word.Lit()
		}
		switch {
		case lit == "-":
			if fd == "" {
				fd = def
			}
			return fd + ">&-"
		case isFd(strings.TrimSuffix(lit, "-")):
			if fd == "" {
				fd = def
			}
			return fd + op + lit
		}
		return unless(def) + op + word
	}
	return fd + op + " " + word
}

func isFd(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// hdoc is a here-document's body as bash keeps it (the text read, joined
// where a line ends in a backslash unless the delimiter is quoted, with
// <<- its leading tabs removed) and the line that ends it.
func (p *funcPrinter) hdoc(r *syntax.Redirect) (body, delim string) {
	delim, quoted := p.delimiter(r)
	if r.Hdoc != nil {
		start, end := offset(r.Hdoc.Pos()), offset(r.Hdoc.End())
		if p.exact && start <= end && end <= len(p.src) {
			// The parser's end falls inside the delimiter's line: the
			// body is the lines before it.
			body = p.src[start:end]
			body = body[:strings.LastIndexByte(body, '\n')+1]
		} else {
			body = printed(r.Hdoc)
		}
	}
	if !quoted {
		body = dropContinuations(body)
	}
	if r.Op == syntax.DashHdoc {
		lines := strings.SplitAfter(body, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimLeft(l, "\t")
		}
		body = strings.Join(lines, "")
	}
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	return body, delim
}

// delimiter is the word that ends a here-document, without its quotes,
// and whether it had some.
func (p *funcPrinter) delimiter(r *syntax.Redirect) (delim string, quoted bool) {
	if r.Word == nil {
		return "", false
	}
	if quotedWord(r.Word) {
		return unquoteDelim(r.Word), true
	}
	return p.text(r.Word), false
}

func quotedWord(w *syntax.Word) bool {
	for _, part := range w.Parts {
		switch part := part.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(part.Value, `\`) {
				return true
			}
		}
	}
	return false
}

// unquoteDelim is a quoted here-document delimiter without its quotes.
func unquoteDelim(w *syntax.Word) string {
	var sb strings.Builder
	lit := func(s string, dq bool) {
		for i := 0; i < len(s); i++ {
			if s[i] == '\\' && i+1 < len(s) && (!dq || strings.IndexByte("\\$`\"", s[i+1]) >= 0) {
				i++
			}
			sb.WriteByte(s[i])
		}
	}
	for _, part := range w.Parts {
		switch part := part.(type) {
		case *syntax.Lit:
			lit(part.Value, false)
		case *syntax.SglQuoted:
			if part.Dollar {
				sb.WriteString(ansiCValue(part.Value))
			} else {
				sb.WriteString(part.Value)
			}
		case *syntax.DblQuoted:
			for _, q := range part.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					lit(l.Value, true)
				} else {
					sb.WriteString(printed(q))
				}
			}
		default:
			sb.WriteString(printed(part))
		}
	}
	return sb.String()
}

// printQuote quotes s as bash does when it turns $'…' into '…'.
func printQuote(s string) string {
	if s == "'" {
		return `\'`
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ansiCValue is the value of $'…': bash ends it at a NUL.
func ansiCValue(s string) string {
	v, _, _ := strings.Cut(ansiC(s), "\x00")
	return v
}

// assign prints an assignment or a declare argument as written, a
// compound array's elements one space apart.
func (p *funcPrinter) assign(a *syntax.Assign) string {
	if !p.exact {
		return printed(a)
	}
	start := offset(a.Pos())
	switch {
	case a.Array != nil:
		if !a.Array.Lparen.IsValid() {
			return printed(a)
		}
		elems := make([]string, 0, len(a.Array.Elems))
		for _, e := range a.Array.Elems {
			elems = append(elems, p.arrayElem(e))
		}
		return p.textRange(start, offset(a.Array.Lparen), a.Name, a.Index) + "(" + strings.Join(elems, " ") + ")"
	case a.Value != nil || a.Naked:
		return p.textRange(start, offset(a.End()), a)
	}
	// An empty value: the text runs to the `=`, past any index.
	end := offset(a.Name.End())
	if a.Index != nil {
		end = offset(a.Index.End())
	}
	end = p.scan(end, '=') + 1
	return p.textRange(start, end, a)
}

func (p *funcPrinter) arrayElem(e *syntax.ArrayElem) string {
	if e.Index == nil {
		return p.text(e.Value)
	}
	start := offset(e.Index.Pos())
	for start > 0 && p.src[start-1] != '[' {
		start--
	}
	start--
	var end int
	if e.Value != nil {
		end = offset(e.Value.End())
	} else {
		end = p.scan(offset(e.Index.End()), '=') + 1
	}
	if start < 0 || end > len(p.src) || start > end {
		return "[" + printedArith(e.Index) + "]=" + p.text(e.Value)
	}
	return p.textRange(start, end, e.Index, e.Value)
}

// scan is the offset of the first c at or after i, or the end of src.
func (p *funcPrinter) scan(i int, c byte) int {
	for i < len(p.src) && p.src[i] != c {
		i++
	}
	return min(i, len(p.src)-1)
}

// arithRange is the text of an arithmetic expression between its
// delimiters, from skip bytes after left to right.
func (p *funcPrinter) arithRange(left syntax.Pos, skip int, right syntax.Pos, x syntax.ArithmExpr) string {
	if !p.exact || !left.IsValid() || !right.IsValid() {
		if x == nil {
			return ""
		}
		return printedArith(x)
	}
	return p.textRange(offset(left)+skip, offset(right), x)
}

// text is the source text of a word or an expression as bash keeps it.
func (p *funcPrinter) text(n syntax.Node) string {
	if n == nil || isNilNode(n) {
		return ""
	}
	if !p.exact {
		if x, ok := n.(syntax.ArithmExpr); ok {
			if _, isWord := n.(*syntax.Word); !isWord {
				return printedArith(x)
			}
		}
		return printed(n)
	}
	return p.textRange(offset(n.Pos()), offset(n.End()), n)
}

// isNilNode reports a typed nil in an interface.
func isNilNode(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.Word:
		return n == nil
	case *syntax.Lit:
		return n == nil
	}
	return false
}

// edit replaces src[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// textRange is src[start:end] as bash prints it: continued lines joined
// (but inside single quotes), command and process substitutions printed
// again, $'…' turned into '…' and $"…" into "…". The nodes are those the
// text holds.
func (p *funcPrinter) textRange(start, end int, nodes ...syntax.Node) string {
	if start < 0 || end > len(p.src) || start > end {
		var parts []string
		for _, n := range nodes {
			if n != nil && !isNilNode(n) {
				parts = append(parts, printed(n))
			}
		}
		return strings.Join(parts, " ")
	}
	var edits []edit
	for _, n := range nodes {
		if n != nil && !isNilNode(n) {
			edits = p.edits(n, edits)
		}
	}
	slices.SortStableFunc(edits, func(a, b edit) int { return a.start - b.start })
	var sb strings.Builder
	at := start
	for _, e := range edits {
		if e.start < at || e.end > end || e.start > e.end {
			continue
		}
		sb.WriteString(dropContinuations(p.src[at:e.start]))
		sb.WriteString(e.text)
		at = e.end
	}
	sb.WriteString(dropContinuations(p.src[at:end]))
	return sb.String()
}

// edits adds to es the places in n's text that bash prints otherwise than
// as written.
func (p *funcPrinter) edits(n syntax.Node, es []edit) []edit {
	var stack []syntax.Node
	dq, rawProc := 0, 0
	syntax.Walk(n, func(node syntax.Node) bool {
		if node == nil {
			switch stack[len(stack)-1].(type) {
			case *syntax.DblQuoted:
				dq--
			case *syntax.ProcSubst:
				rawProc--
			}
			stack = stack[:len(stack)-1]
			return true
		}
		start, end := offset(node.Pos()), offset(node.End())
		written := func() string {
			if start < 0 || end > len(p.src) || start > end {
				return printed(node)
			}
			return p.src[start:end]
		}
		switch x := node.(type) {
		case *syntax.CmdSubst:
			if x.Backquotes {
				es = append(es, edit{start, end, dropContinuations(written())})
			} else {
				es = append(es, edit{start, end, "$(" + p.sub(x.Stmts) + ")"})
			}
			return false
		case *syntax.ProcSubst:
			// Bash keeps <((… as written, but for the $(…) and $'…'
			// inside, and any <(…) in it.
			if rawProc > 0 || start+2 < len(p.src) && p.src[start+2] == '(' {
				rawProc++
				break
			}
			es = append(es, edit{start, end, x.Op.String() + p.sub(x.Stmts) + ")"})
			return false
		case *syntax.SglQuoted:
			switch {
			case !x.Dollar:
				es = append(es, edit{start, end, written()})
			case dq > 0:
				es = append(es, edit{start, end, ansiCValue(x.Value)})
			default:
				es = append(es, edit{start, end, printQuote(ansiCValue(x.Value))})
			}
			return false
		case *syntax.DblQuoted:
			if x.Dollar && start < len(p.src) && p.src[start] == '$' {
				es = append(es, edit{start, start + 1, ""})
			}
			dq++
		}
		stack = append(stack, node)
		return true
	})
	return es
}

// sub prints the body of a command substitution, as bash does when it
// reads one: on its own, outside any function's layout.
func (p *funcPrinter) sub(stmts []*syntax.Stmt) string {
	q := &funcPrinter{src: p.src, exact: p.exact, inSub: true}
	q.list(stmts)
	q.flushWith("")
	s := q.String()
	if strings.HasPrefix(s, "(") {
		s = " " + s // not $(( nor <((
	}
	return s
}

// dropContinuations removes each backslash-newline, as bash's reader does.
func dropContinuations(s string) string {
	if !strings.Contains(s, "\\\n") {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			if s[i+1] != '\n' {
				sb.WriteByte(s[i])
				sb.WriteByte(s[i+1])
			}
			i++
			continue
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

func offset(p syntax.Pos) int { return int(p.Offset()) }

// sourceMatches reports whether the tree's positions index src: where
// they do not (a tree built or parsed elsewhere), words are printed from
// the tree alone.
func sourceMatches(body *syntax.Stmt, src string) bool {
	if body == nil || src == "" {
		return false
	}
	ok := true
	var check func(n syntax.Node)
	check = func(n syntax.Node) {
		syntax.Walk(n, func(node syntax.Node) bool {
			switch x := node.(type) {
			case *syntax.Redirect:
				// A here-document body's positions run past its text.
				if x.N != nil {
					check(x.N)
				}
				if x.Word != nil {
					check(x.Word)
				}
				return false
			case *syntax.Lit:
				s, e := offset(x.ValuePos), offset(x.ValueEnd)
				if !x.ValuePos.IsValid() || s > e || e > len(src) {
					ok = false
					break
				}
				// A literal can end between a backslash and its newline.
				ok = dropContinuations(src[s:e]) == x.Value ||
					e < len(src) && dropContinuations(src[s:e+1]) == x.Value

			}
			return ok
		})
	}
	check(body)
	return ok
}

// printed is a node as mvdan.cc/sh's printer writes it, on one line: for
// trees whose text is not known.
func printed(n syntax.Node) string {
	var sb strings.Builder
	if syntax.NewPrinter(syntax.SingleLine(true)).Print(&sb, n) != nil {
		return ""
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

func printedArith(x syntax.ArithmExpr) string {
	if w, ok := x.(*syntax.Word); ok {
		return printed(w)
	}
	s := printed(&syntax.ArithmExp{X: x})
	// A node without positions makes the printer break lines.
	s = strings.ReplaceAll(s, "\\\n", "")
	return strings.TrimSuffix(strings.TrimPrefix(s, "$(("), "))")
}
