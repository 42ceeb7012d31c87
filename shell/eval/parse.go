package eval

import (
	"errors"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Program is parsed bash: the tree, and the text it came from (the tree
// does not keep every piece's text: an associative array's key [a-b] is
// parsed as arithmetic, and bash expands arithmetic from its text).
type Program struct {
	File    *syntax.File
	src     string
	lenient *lenient
}

// Source is the text the program was parsed from.
func (p *Program) Source() string { return p.src }

// NewParser is the parser qsh reads bash with.
func NewParser(opts ...syntax.ParserOption) *syntax.Parser {
	return syntax.NewParser(append([]syntax.ParserOption{syntax.Variant(syntax.LangBash)}, opts...)...)
}

// Parse parses bash source; name is the file's name for positions.
func Parse(src, name string) (*Program, error) {
	f, text, l, err := parseLenient(src, name)
	if err != nil {
		return nil, err
	}
	Fix(f)
	return &Program{File: f, src: text, lenient: l}, nil
}

// ProgramOf wraps a tree parsed elsewhere (and [Fix]ed) with its source.
func ProgramOf(f *syntax.File, src string) *Program { return &Program{File: f, src: src} }

// Fix makes a parsed tree mean what bash means, where the parser builds
// another: `[[ ! a && b ]]` is parsed as ! (a && b), bash's ! binds to the
// next operand only. Run it once, right after parsing.
func Fix(node syntax.Node) {
	walk(node, func(n syntax.Node) bool {
		fixNode(n)
		return !holdsNoStmt(n)
	})
}

// holdsNoStmt reports whether n is a word, or a part of one, that no
// statement can be inside: walks for statements and what they hold need
// not go in, which saves a third of the nodes of a script.
func holdsNoStmt(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.Lit, *syntax.SglQuoted:
		return true
	case *syntax.ParamExp:
		return n.NestedParam == nil && n.Index == nil && n.Slice == nil && n.Repl == nil && n.Exp == nil
	case *syntax.Word:
		for _, p := range n.Parts {
			if !holdsNoStmt(p) {
				return false
			}
		}
		return true
	}
	return false
}

// fixNode is Fix's work on one node, its children not yet visited.
func fixNode(n syntax.Node) {
	switch n := n.(type) {
	case *syntax.TestClause:
		n.X = fixAndOr(fixNot(n.X))
	case *syntax.Stmt:
		fixFuncList(n)
	}
}

// fixFuncList gives `f() { …; } && cmd` bash's meaning: the parser takes
// the list for the function's body, bash the function's definition for
// the list's first command (bash-completion ends its loader's definition
// with `&& complete -D -F _completion_loader`).
func fixFuncList(st *syntax.Stmt) {
	fd, ok := st.Cmd.(*syntax.FuncDecl)
	if !ok || fd.Body == nil {
		return
	}
	list, ok := fd.Body.Cmd.(*syntax.BinaryCmd)
	if !ok || list.Op != syntax.AndStmt && list.Op != syntax.OrStmt || fd.Body.Negated || fd.Body.Background ||
		len(fd.Body.Redirs) > 0 {
		return
	}
	first := list
	for {
		b, ok := first.X.Cmd.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.AndStmt && b.Op != syntax.OrStmt || first.X.Negated {
			break
		}
		first = b
	}
	fd.Body = first.X
	// A ! before the definition negates it alone, as bash reads it.
	first.X = &syntax.Stmt{Position: st.Position, Cmd: fd, Negated: st.Negated}
	st.Cmd, st.Negated = list, false
}

// fixNot moves each ! that the parser put above an && or || down to the
// operand it negates.
func fixNot(x syntax.TestExpr) syntax.TestExpr {
	switch t := x.(type) {
	case *syntax.BinaryTest:
		t.X, t.Y = fixNot(t.X), fixNot(t.Y)
	case *syntax.ParenTest:
		t.X = fixNot(t.X)
	case *syntax.UnaryTest:
		t.X = fixNot(t.X)
		if t.Op != syntax.TsNot {
			return t
		}
		if b, ok := t.X.(*syntax.BinaryTest); ok && (b.Op == syntax.AndTest || b.Op == syntax.OrTest) {
			t.X = b.X
			b.X = pushNot(t)
			return b
		}
	}
	return x
}

// pushNot puts the ! of n on the leftmost operand of its && || chain.
func pushNot(n *syntax.UnaryTest) syntax.TestExpr {
	if b, ok := n.X.(*syntax.BinaryTest); ok && (b.Op == syntax.AndTest || b.Op == syntax.OrTest) {
		n.X = b.X
		b.X = pushNot(n)
		return b
	}
	return n
}

// fixAndOr gives && its precedence over || in [[ ]], as bash's grammar
// does: the parser chains both to the right as equals, and so read
// `a && b || c` as a && (b || c) (pass's mv tests
// `! [[ -f $p.gpg && -d $p && $1 == */ || ! -f $p.gpg ]]`). A chain of
// the two is cut at each ||, and its parts joined again from the left.
func fixAndOr(x syntax.TestExpr) syntax.TestExpr {
	switch t := x.(type) {
	case *syntax.ParenTest:
		t.X = fixAndOr(t.X)
	case *syntax.UnaryTest:
		t.X = fixAndOr(t.X)
	case *syntax.BinaryTest:
		if t.Op != syntax.AndTest && t.Op != syntax.OrTest {
			return t
		}
		var ors []*syntax.BinaryTest
		var ands [][]*syntax.BinaryTest
		var terms [][]syntax.TestExpr
		group := func() {
			ands = append(ands, nil)
			terms = append(terms, nil)
		}
		group()
		var cur syntax.TestExpr = t
		for {
			b, ok := cur.(*syntax.BinaryTest)
			last := len(terms) - 1
			if !ok || b.Op != syntax.AndTest && b.Op != syntax.OrTest {
				terms[last] = append(terms[last], fixAndOr(cur))
				break
			}
			terms[last] = append(terms[last], fixAndOr(b.X))
			if b.Op == syntax.AndTest {
				ands[last] = append(ands[last], b)
			} else {
				ors = append(ors, b)
				group()
			}
			cur = b.Y
		}
		joined := make([]syntax.TestExpr, len(terms))
		for i, ts := range terms {
			joined[i] = joinTests(ands[i], ts)
		}
		return joinTests(ors, joined)
	}
	return x
}

// joinTests joins terms from the left with the operators ops, one fewer.
func joinTests(ops []*syntax.BinaryTest, terms []syntax.TestExpr) syntax.TestExpr {
	acc := terms[0]
	for i, op := range ops {
		op.X, op.Y = acc, terms[i+1]
		acc = op
	}
	return acc
}

// parseErrMsg is a parse error as bash words it, near enough.
func parseErrMsg(err error) string {
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		return pe.Error()
	}
	return err.Error()
}

// parseCache keeps what the evaluator parses from text at run time:
// words of subscripts and extglob groups, arithmetic.
type parseCache struct {
	mu    sync.Mutex
	words map[string]*syntax.Word
	docs  map[string]*syntax.Word
	arith map[string]arithNode
}

const parseCacheMax = 4096

func cachePut[V any](m map[string]V, k string, v V) {
	if len(m) >= parseCacheMax {
		clear(m)
	}
	m[k] = v
}

// parseWord parses text as one shell word.
func (s *session) parseWord(text string) (*syntax.Word, error) {
	s.cache.mu.Lock()
	w, ok := s.cache.words[text]
	s.cache.mu.Unlock()
	if ok {
		return w, nil
	}
	var words []*syntax.Word
	for w, err := range NewParser().WordsSeq(strings.NewReader(EscapeRawBytes(text))) {
		if err != nil {
			return nil, err
		}
		words = append(words, w)
	}
	if len(words) != 1 {
		return nil, errors.New("not one word")
	}
	s.cache.mu.Lock()
	if s.cache.words == nil {
		s.cache.words = map[string]*syntax.Word{}
	}
	cachePut(s.cache.words, text, words[0])
	s.cache.mu.Unlock()
	return words[0], nil
}

// parseDoc parses text as a here-document's body is: expansions and
// backslashes before $ ` \ only.
func (s *session) parseDoc(text string) (*syntax.Word, error) {
	s.cache.mu.Lock()
	w, ok := s.cache.docs[text]
	s.cache.mu.Unlock()
	if ok {
		return w, nil
	}
	w, err := NewParser().Document(strings.NewReader(EscapeRawBytes(text)))
	if err != nil {
		return nil, err
	}
	s.cache.mu.Lock()
	if s.cache.docs == nil {
		s.cache.docs = map[string]*syntax.Word{}
	}
	cachePut(s.cache.docs, text, w)
	s.cache.mu.Unlock()
	return w, nil
}

func (s *session) parseArithCached(text string) (arithNode, *arithError) {
	s.cache.mu.Lock()
	n, ok := s.cache.arith[text]
	s.cache.mu.Unlock()
	if ok {
		return n, nil
	}
	n, err := parseArith(text)
	if err != nil {
		return nil, err
	}
	s.cache.mu.Lock()
	if s.cache.arith == nil {
		s.cache.arith = map[string]arithNode{}
	}
	cachePut(s.cache.arith, text, n)
	s.cache.mu.Unlock()
	return n, nil
}

func (r *Runner) parseWordOf(text string) (*syntax.Word, error) { return r.sess.parseWord(text) }

// srcOf is the source text of a node of the running code: sliced from the
// text it was parsed from, or printed for a node parsed elsewhere (a
// confirmation's preview expands words of its own parse).
func (r *Runner) srcOf(n syntax.Node) string {
	start, end := n.Pos().Offset(), n.End().Offset()
	if r.src != "" && n.Pos().IsValid() && start <= end && int(end) <= len(r.src) {
		return r.src[start:end]
	}
	return printNode(n)
}

// printNode prints a node as source text. The printer knows no arithmetic
// expression on its own: it is printed inside $(( )).
func printNode(n syntax.Node) string {
	var sb strings.Builder
	p := syntax.NewPrinter()
	if x, ok := n.(syntax.ArithmExpr); ok {
		if _, isWord := n.(*syntax.Word); !isWord {
			p.Print(&sb, &syntax.ArithmExp{X: x})
			return strings.TrimSuffix(strings.TrimPrefix(sb.String(), "$(("), "))")
		}
	}
	p.Print(&sb, n)
	return sb.String()
}

// expandDoc expands text as a here-document body is (and as bash expands
// arithmetic: double quotes are dropped).
func (r *Runner) expandDoc(text string) string {
	if text == "" {
		return ""
	}
	w, err := r.sess.parseDoc(text)
	if err != nil {
		r.fatal(&varError{msg: err.Error()})
	}
	b := &builder{r: r}
	restore := r.withCode(text, nil) // the tree's positions are the text's
	r.docParts(w.Parts, b)
	restore()
	return string(b.cur.val)
}

// literalOf expands a word parsed from text at run time, whose positions
// are the text's.
func (r *Runner) literalOf(w *syntax.Word, text string) string {
	defer r.withCode(text, nil)()
	return r.Literal(w)
}

// docParts expands a here-document's parts: its literal text keeps every
// character but the backslashes that quote $ ` \ and newline.
func (r *Runner) docParts(parts []syntax.WordPart, b *builder) {
	for _, p := range parts {
		if l, ok := p.(*syntax.Lit); ok {
			b.text(unescapeDoc(UnescapeRawBytes(l.Value)), true)
			continue
		}
		r.parts([]syntax.WordPart{p}, true, b, false)
	}
}

func unescapeDoc(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '\\':
				sb.WriteByte(s[i+1])
				i++
				continue
			case '\n':
				i++
				continue
			}
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// arithExpansion is $((…)), from its text when the source has it.
func (r *Runner) arithExpansion(a *syntax.ArithmExp) int64 {
	if _, ok := r.arithOriginal(a.X); !ok {
		if text, ok := r.arithExpText(a); ok {
			n, err := r.arithString(r.arithText(text))
			if err != nil {
				r.fatal(err)
			}
			return n
		}
	}
	return r.arithExp(a.X)
}

// arithExp evaluates an arithmetic expression of the tree from its text.
func (r *Runner) arithExp(x syntax.ArithmExpr) int64 {
	if x == nil {
		return 0 // an empty offset or length: ${x::2}, ${x:1:}
	}
	var text string
	if orig, ok := r.arithOriginal(x); ok {
		text = r.arithText(orig)
	} else if w, ok := x.(*syntax.Word); ok {
		if s, ok := plainLit(w); ok {
			text = s
		} else {
			text = r.arithText(r.srcOf(w))
		}
	} else {
		text = r.arithText(r.srcOf(x))
	}
	n, err := r.arithString(text)
	if err != nil {
		r.fatal(err)
	}
	return n
}

// arithExpText is the text of $((…)) between its parentheses, blanks
// included, as bash evaluates (and reports) it; "" when the source does
// not have it.
func (r *Runner) arithExpText(a *syntax.ArithmExp) (string, bool) {
	start, end := a.Left.Offset()+3, a.Right.Offset()
	if a.Bracket {
		start = a.Left.Offset() + 2
	}
	if !a.Left.IsValid() || start > end || int(end) > len(r.src) || r.src[a.Left.Offset()] != '$' {
		return "", false
	}
	return r.src[start:end], true
}

// arithText expands the text of an expression: parameters, commands and
// arithmetic, with double quotes removed.
func (r *Runner) arithText(text string) string {
	if !strings.ContainsAny(text, "$`\"\\") {
		return text
	}
	s := r.expandDoc(text)
	return strings.ReplaceAll(s, `"`, "")
}
