package eval

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Syntax errors in bash's words. mvdan/sh's parser says what it expected;
// bash says which token it did not expect, and where: "syntax error near
// unexpected token `)'" and the line's text, "syntax error: unexpected
// end of file", "unexpected EOF while looking for matching `"'", each at
// the line bash's reader was on. A here-document that ends at the end of
// the input is no error for bash but a warning (see fixParseError).

// bashSyntax is a parse error as bash reports it.
type bashSyntax struct {
	line int
	msg  string
	// status is the shell's status after it: 2, but 1 for an array
	// assignment the input ended inside.
	status int
	// text is the line bash shows after the message, quoted `…'; empty
	// when it shows none.
	text string
}

// describeSyntaxError words err, from parsing src, as bash would.
func describeSyntaxError(src string, err error) bashSyntax {
	var pe syntax.ParseError
	if !errors.As(err, &pe) {
		var le syntax.LangError
		if errors.As(err, &le) {
			off := min(int(le.Pos.Offset()), len(src))
			tok := tokenAt(src, off)
			if tok == "function" {
				// function { … }: a function named {, then no body.
				off = skipBlanks(src, off+len(tok))
				if strings.HasPrefix(src[off:], "{") {
					off = skipBlanks(src, off+1)
				}
				tok = tokenAt(src, off)
			}
			return nearToken(src, off, tok)
		}
		var be badSyntax
		if errors.As(err, &be) {
			off := min(int(be.pos.Offset()), len(src))
			return nearToken(src, off, tokenAt(src, off))
		}
		return bashSyntax{line: 1, msg: "syntax error: " + err.Error()}
	}
	off := min(int(pe.Pos.Offset()), len(src))
	text := pe.Text
	eofLine := lineCount(src) + 1
	if pe.Incomplete {
		switch {
		case strings.HasPrefix(text, "reached EOF without closing quote "):
			q := strings.TrimPrefix(text, "reached EOF without closing quote ")
			if len(q) >= 2 {
				q = q[1:2] // `"` or "`"
			}
			return bashSyntax{line: lineAt(src, off), msg: "unexpected EOF while looking for matching `" + q + "'"}
		case strings.Contains(text, "without matching `$((`"), strings.Contains(text, "without matching `((`"):
			return bashSyntax{line: lineAt(src, off), msg: "unexpected EOF while looking for matching `)'"}
		case strings.Contains(text, "without matching `$(`"):
			return bashSyntax{line: eofLine, msg: "unexpected EOF while looking for matching `)'"}
		case strings.Contains(text, "without matching `${`"):
			return bashSyntax{line: lineAt(src, off), msg: "unexpected EOF while looking for matching `}'"}
		case strings.Contains(text, "without matching `(`") && off > 0 && src[off-1] == '=':
			return bashSyntax{line: lineAt(src, off), msg: "unexpected EOF while looking for matching `)'", status: 1}
		case strings.HasSuffix(text, "must be followed by an expression"):
			if open, close, ok := openArith(src, off); ok {
				return bashSyntax{line: lineAt(src, open), msg: "unexpected EOF while looking for matching `" + close + "'"}
			}
		case strings.HasSuffix(text, "must be followed by a word") && !strings.HasPrefix(text, "`case` "),
			strings.HasSuffix(text, "must be followed by a literal"),
			text == "`case` must be followed by a word",
			text == "coproc clause requires a command":
			return nearToken(src, len(src), "newline")
		}
		return bashSyntax{line: eofLine, msg: "syntax error: unexpected end of file"}
	}
	tok := tokenAt(src, off)
	if strings.Contains(text, "parameter expansion") {
		// ${x with a newline: bash reads on to the end for the }.
		if start := strings.LastIndex(src[:min(off+1, len(src))], "${"); start >= 0 &&
			!strings.Contains(src[start:], "}") {
			return bashSyntax{line: lineAt(src, start), msg: "unexpected EOF while looking for matching `}'"}
		}
	}
	switch {
	case strings.HasPrefix(text, "a command can only contain words and redirects; encountered "):
	case strings.HasSuffix(text, "must be followed by a statement list"),
		strings.HasSuffix(text, "must be followed by a word"):
		// `if ;`, `{ }`: the token after the keyword.
		next := skipBlanks(src, off+len(tok))
		return nearToken(src, next, tokenAt(src, next))
	case text == "invalid func name":
		// foo$x('z'): the token after the parenthesis.
		i := off + len(tok)
		if i < len(src) && src[i] == '(' {
			next := skipBlanks(src, i+1)
			return nearToken(src, next, tokenAt(src, next))
		}
	case strings.HasPrefix(text, "`((` can only be used"):
		tok = "("
	}
	return nearToken(src, off, tok)
}

// nearToken is "syntax error near unexpected token" at off.
func nearToken(src string, off int, tok string) bashSyntax {
	if tok == "" {
		tok = "newline"
	}
	line := lineAt(src, off)
	return bashSyntax{line: line, msg: "syntax error near unexpected token `" + tok + "'", text: lineText(src, off)}
}

// tokenAt reads the token bash's reader would read at off: an operator, a
// word (quotes kept), or "newline" at a line's or the input's end.
func tokenAt(src string, off int) string {
	if off >= len(src) || src[off] == '\n' {
		return "newline"
	}
	for _, op := range []string{";;&", "<<<", "<<-", "&>>", "&&", "||", ";;", ";&", "|&", "<<", ">>", "<&", ">&",
		"<>", ">|", "&>", "|", "&", ";", "(", ")", "<", ">"} {
		if strings.HasPrefix(src[off:], op) {
			return op
		}
	}
	i := off
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\\' && i+1 < len(src):
			i += 2
			continue
		case c == '\'' || c == '"' || c == '`':
			if j := strings.IndexByte(src[i+1:], c); j >= 0 {
				i += j + 2
				continue
			}
			return src[off:]
		case strings.IndexByte(" \t\n|&;()<>", c) >= 0:
			return src[off:i]
		}
		i++
	}
	return src[off:]
}

func skipBlanks(src string, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i
}

// openArith finds the arithmetic still open at off: $(( or (( (closed by
// `)') or $[ (by `]'), and where it starts.
func openArith(src string, off int) (int, string, bool) {
	head := src[:min(off+3, len(src))]
	a := strings.LastIndex(head, "((")
	b := strings.LastIndex(head, "$[")
	switch {
	case a < 0 && b < 0:
		return 0, "", false
	case b > a:
		return b, "]", true
	}
	return a, ")", true
}

// lineAt is the line (from 1) of offset off.
func lineAt(src string, off int) int { return strings.Count(src[:min(off, len(src))], "\n") + 1 }

// lineCount is how many lines src has, a last one without its newline
// counted.
func lineCount(src string) int {
	n := strings.Count(src, "\n")
	if src != "" && !strings.HasSuffix(src, "\n") {
		n++
	}
	return n
}

// lineText is the text of the line off is on.
func lineText(src string, off int) string {
	off = min(off, len(src))
	start := strings.LastIndexByte(src[:off], '\n') + 1
	end := strings.IndexByte(src[off:], '\n')
	if end < 0 {
		return src[start:]
	}
	return src[start : off+end]
}

// reportSyntax prints a syntax error as bash does, where naming the input
// when bash does ("-c", "eval"); an interactive shell shows the message
// alone. It returns the status the error leaves.
func (r *Runner) reportSyntax(src string, err error, where string) int {
	d := describeSyntaxError(src, err)
	if d.status == 0 {
		d.status = 2
	}
	w := r.stderr()
	file := r.errSource()
	if r.sess.interactive && file == "" && where != "eval" {
		fmt.Fprintf(w, "%s: %s\n", r.sess.name, d.msg)
		return d.status
	}
	prefix := r.sess.name + ": "
	if file != "" {
		prefix = file + ": "
		if r.sess.interactive {
			// bash: ./file: line 2: … in a file an interactive
			// shell sources.
			prefix = r.sess.name + ": " + file + ": "
		}
	}
	if where != "" {
		prefix += where + ": "
	}
	prefix += fmt.Sprintf("line %d: ", d.line+r.lineBase)
	fmt.Fprintf(w, "%s%s\n", prefix, d.msg)
	if d.text != "" {
		fmt.Fprintf(w, "%s`%s'\n", prefix, d.text)
	}
	return d.status
}

// badSyntax is what bash refuses and the parser takes: a function whose
// body is no compound command (f() echo).
type badSyntax struct{ pos syntax.Pos }

func (e badSyntax) Error() string { return "syntax error" }

// readStmt readies a statement just read to run: it fixes it as [Fix]
// does and finds in it what bash's grammar refuses, in one walk (the
// walks were a fifth of sourcing bash-completion). hdoc reports whether
// it has a here-document, which [batchEnd] must then look for.
func readStmt(st *syntax.Stmt) (hdoc bool, err error) {
	walk(st, func(n syntax.Node) bool {
		fixNode(n)
		switch n := n.(type) {
		case *syntax.Redirect:
			hdoc = hdoc || n.Hdoc != nil
		case *syntax.FuncDecl:
			if err == nil {
				err = bashSyntaxError(n)
			}
		}
		return !holdsNoStmt(n)
	})
	return hdoc, err
}

// bashSyntaxError is what bash's grammar refuses in a function
// definition the parser takes: a body that is no compound command.
func bashSyntaxError(fd *syntax.FuncDecl) error {
	if fd.Body == nil {
		return nil
	}
	switch fd.Body.Cmd.(type) {
	case *syntax.CallExpr, *syntax.DeclClause, *syntax.LetClause, *syntax.TimeClause,
		*syntax.CoprocClause, *syntax.TestDecl:
		return badSyntax{pos: fd.Body.Pos()}
	}
	return nil
}
