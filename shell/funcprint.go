package shell

import (
	"bytes"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/shell/marks"
	"github.com/qsh-shell/qsh/shell/rewrite"
)

// funcDefinition prints a function as bash does for type and command -V:
// `name () `, the body's braces on lines of their own, a command a line,
// each but a list's last followed by `;`, compound commands laid out as
// bash lays them out. What bash prints in ways of its own that are not
// written here (coproc, select, time) comes out as interp's printer
// prints it.
func funcDefinition(name string, body *syntax.Stmt) string {
	var fp funcPrinter
	fp.funcDecl(name, withoutMarkVars(body), "")
	return marks.Untrap(strings.TrimSuffix(fp.buf.String(), "\n"))
}

// withoutMarkVars is body without the prefix assignments qsh gives the
// commands in substitutions and subshells (`__qsh_nojob=1 cmd`), on a copy:
// the parser makes one from the printed body, and interp's is not ours to
// edit.
func withoutMarkVars(body *syntax.Stmt) *syntax.Stmt {
	marked := false
	syntax.Walk(body, func(n syntax.Node) bool {
		if call, ok := n.(*syntax.CallExpr); ok && slices.ContainsFunc(call.Assigns, isMarkAssign) {
			marked = true
		}
		return !marked
	})
	if !marked {
		return body
	}
	var buf bytes.Buffer
	syntax.NewPrinter().Print(&buf, body)
	f, err := syntax.NewParser().Parse(&buf, "")
	if err != nil || len(f.Stmts) != 1 {
		return body
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if call, ok := n.(*syntax.CallExpr); ok {
			call.Assigns = slices.DeleteFunc(call.Assigns, isMarkAssign)
		}
		return true
	})
	return f.Stmts[0]
}

func isMarkAssign(a *syntax.Assign) bool {
	return a.Name != nil && strings.HasPrefix(a.Name.Value, marks.Prefix)
}

// unmarked is stmts as written: without the statements qsh adds for jobs
// and $! (see package marks), a marked background statement as
// the statement it wraps, a loop as it was before package rewrite.
func unmarked(stmts []*syntax.Stmt) []*syntax.Stmt {
	var out []*syntax.Stmt
	for _, st := range stmts {
		st = rewrite.Unwrap(st)
		if d, ok := st.Cmd.(*syntax.DeclClause); ok && slices.ContainsFunc(d.Args, func(a *syntax.Assign) bool {
			return a.Name != nil && strings.HasPrefix(a.Name.Value, marks.Prefix)
		}) {
			continue
		}
		if marks.IsMarkedBackground(st) {
			b := st.Cmd.(*syntax.Block)
			inner := unmarked(b.Stmts[2:])
			if n := len(inner); n > 0 {
				if call, ok := inner[n-1].Cmd.(*syntax.CallExpr); ok && len(call.Args) > 0 && call.Args[0].Lit() == marks.BgEndMark {
					inner = inner[:n-1]
				}
			}
			if len(inner) == 1 {
				cp := *inner[0]
				cp.Background = true
				out = append(out, &cp)
				continue
			}
		}
		out = append(out, st)
	}
	return out
}

type funcPrinter struct {
	buf   bytes.Buffer
	hdocs []*syntax.Redirect // here-documents to write after the line
}

func (fp *funcPrinter) funcDecl(name string, body *syntax.Stmt, indent string) {
	fp.buf.WriteString(name + " () \n" + indent)
	if b, ok := body.Cmd.(*syntax.Block); ok && len(body.Redirs) == 0 {
		fp.block(b.Stmts, indent)
		return
	}
	fp.stmt(body, indent)
}

func (fp *funcPrinter) block(stmts []*syntax.Stmt, indent string) {
	fp.buf.WriteString("{ \n")
	fp.list(stmts, indent+"    ", false)
	fp.buf.WriteString("\n" + indent + "}")
}

// list prints stmts a line each at indent; with semi the last gets its
// `;` too, as in the body of an if or a loop.
func (fp *funcPrinter) list(stmts []*syntax.Stmt, indent string, semi bool) {
	stmts = unmarked(stmts)
	for i, st := range stmts {
		if i > 0 && !stmts[i-1].Background {
			fp.buf.WriteString("\n")
		}
		if i == 0 || !stmts[i-1].Background {
			fp.buf.WriteString(indent)
		}
		fp.stmt(st, indent)
		last := i == len(stmts)-1
		switch {
		case st.Background:
			fp.buf.WriteString(" &")
			if !last {
				fp.buf.WriteString(" ")
			}
		case len(fp.hdocs) > 0:
		case !last || semi:
			fp.buf.WriteString(";")
		}
		fp.flushHdocs()
	}
}

func (fp *funcPrinter) flushHdocs() {
	for _, r := range fp.hdocs {
		fp.buf.WriteString("\n")
		if r.Hdoc != nil {
			var buf bytes.Buffer
			syntax.NewPrinter().Print(&buf, r.Hdoc)
			fp.buf.Write(buf.Bytes())
		}
		fp.buf.WriteString(nodeText(r.Word) + "\n")
	}
	fp.hdocs = nil
}

func (fp *funcPrinter) stmt(st *syntax.Stmt, indent string) {
	if st.Negated {
		fp.buf.WriteString("! ")
	}
	fp.command(st.Cmd, indent)
	for _, r := range st.Redirs {
		fp.buf.WriteString(" ")
		if r.N != nil {
			fp.buf.WriteString(r.N.Value)
		}
		op := r.Op.String()
		fp.buf.WriteString(op)
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			fp.buf.WriteString(nodeText(r.Word))
			fp.hdocs = append(fp.hdocs, r)
		case syntax.DplIn, syntax.DplOut:
			fp.buf.WriteString(nodeText(r.Word))
		default:
			fp.buf.WriteString(" " + nodeText(r.Word))
		}
	}
}

func (fp *funcPrinter) command(cmd syntax.Command, indent string) {
	in := indent + "    "
	switch c := cmd.(type) {
	case nil:
	case *syntax.IfClause:
		fp.ifClause(c, indent)
	case *syntax.ForClause:
		fp.buf.WriteString("for ")
		switch loop := c.Loop.(type) {
		case *syntax.WordIter:
			fp.buf.WriteString(loop.Name.Value)
			if loop.InPos.IsValid() {
				fp.buf.WriteString(" in")
				for _, w := range loop.Items {
					fp.buf.WriteString(" " + nodeText(w))
				}
			}
			fp.buf.WriteString(";")
		case *syntax.CStyleLoop:
			fp.buf.WriteString("((" + arithText(loop.Init) + "; " + arithText(loop.Cond) + "; " + arithText(loop.Post) + "))")
		}
		fp.buf.WriteString("\n" + indent + "do\n")
		fp.list(c.Do, in, true)
		fp.buf.WriteString("\n" + indent + "done")
	case *syntax.WhileClause:
		if c.Until {
			fp.buf.WriteString("until ")
		} else {
			fp.buf.WriteString("while ")
		}
		fp.inline(c.Cond, indent)
		fp.buf.WriteString("; do\n")
		fp.list(c.Do, in, true)
		fp.buf.WriteString("\n" + indent + "done")
	case *syntax.CaseClause:
		fp.buf.WriteString("case " + nodeText(c.Word) + " in \n")
		for _, item := range c.Items {
			pats := make([]string, len(item.Patterns))
			for i, p := range item.Patterns {
				pats[i] = nodeText(p)
				if src, ok := rewrite.PatternSource(p); ok {
					pats[i] = src
				}
			}
			fp.buf.WriteString(in + strings.Join(pats, " | ") + ")\n")
			fp.list(item.Stmts, in+"    ", false)
			fp.buf.WriteString("\n" + in + item.Op.String() + "\n")
		}
		fp.buf.WriteString(indent + "esac")
	case *syntax.Block:
		fp.block(c.Stmts, indent)
	case *syntax.Subshell:
		fp.buf.WriteString("( ")
		for i, st := range c.Stmts {
			if i > 0 {
				fp.buf.WriteString(";\n" + indent)
			}
			fp.stmt(st, indent)
		}
		fp.buf.WriteString(" )")
	case *syntax.BinaryCmd:
		fp.stmt(c.X, indent)
		fp.buf.WriteString(" " + c.Op.String() + " ")
		fp.stmt(c.Y, indent)
	case *syntax.FuncDecl:
		fp.buf.WriteString("function ")
		fp.funcDecl(c.Name.Value, c.Body, indent)
	case *syntax.ArithmCmd:
		s := nodeText(c)
		inner := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(s, "(("), "))"))
		fp.buf.WriteString("(( " + inner + " ))")
	case *syntax.TestClause:
		fp.buf.WriteString(nodeText(&syntax.TestClause{X: rewrite.OriginalTest(c.X)}))
	default:
		fp.buf.WriteString(nodeText(c))
	}
}

// inline prints a condition's commands on one line, `;` between them.
func (fp *funcPrinter) inline(stmts []*syntax.Stmt, indent string) {
	for i, st := range stmts {
		if i > 0 {
			fp.buf.WriteString("; ")
		}
		fp.stmt(st, indent)
	}
}

func (fp *funcPrinter) ifClause(c *syntax.IfClause, indent string) {
	in := indent + "    "
	fp.buf.WriteString("if ")
	fp.inline(c.Cond, indent)
	fp.buf.WriteString("; then\n")
	fp.list(c.Then, in, true)
	if e := c.Else; e != nil {
		fp.buf.WriteString("\n" + indent + "else\n")
		if len(e.Cond) > 0 { // elif: bash prints an if inside the else
			fp.buf.WriteString(in)
			fp.ifClause(e, in)
			fp.buf.WriteString(";")
		} else {
			fp.list(e.Then, in, true)
		}
	}
	fp.buf.WriteString("\n" + indent + "fi")
}

// arithText is an arithmetic expression's text; "" for none.
func arithText(x syntax.ArithmExpr) string {
	if x == nil {
		return ""
	}
	var buf bytes.Buffer
	syntax.NewPrinter(syntax.Minify(true)).Print(&buf, &syntax.ArithmExp{X: x})
	// The new node has no place, so the printer breaks lines to reach x's.
	s := strings.ReplaceAll(strings.TrimSuffix(buf.String(), "\n"), "\\\n", "")
	return strings.TrimSuffix(strings.TrimPrefix(s, "$(("), "))")
}

// nodeText is interp's printer's text of node, on one line where it can.
func nodeText(node syntax.Node) string {
	var buf bytes.Buffer
	syntax.NewPrinter(syntax.Indent(4), syntax.SingleLine(true)).Print(&buf, node)
	return strings.TrimSuffix(buf.String(), "\n")
}
