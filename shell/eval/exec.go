package eval

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/shell/pattern"
)

// stmts runs a list of statements until one breaks the flow.
func (r *Runner) stmts(list []*syntax.Stmt) {
	for _, st := range list {
		if r.flow != flowNone || r.ctx.Err() != nil {
			return
		}
		r.stmt(st)
	}
}

// stmt runs one statement: its command with its redirections, in the
// background when it ends with &.
func (r *Runner) stmt(st *syntax.Stmt) {
	if r.flow != flowNone || r.opts.set[optNoexec] {
		return // set -n: read, never run
	}
	r.at(stmtLine(st))
	r.checkInterrupt()
	r.runTraps()
	if st.Background || st.Coprocess {
		r.background(st)
		return
	}
	if st.Negated {
		r.noErrexit++
	}
	// The shell's ends of the command's process substitutions close once
	// it is done, so that a >(…) sees its end of input.
	mark := len(r.procSubsts)
	r.commandGuarded(st)
	if len(r.procSubsts) > mark {
		r.closeProcSubsts(mark)
	}
	if st.Negated {
		r.noErrexit--
		r.status = int(b2i(r.status == 0))
		return // a negated pipeline never trips set -e
	}
	r.afterCommand(st.Cmd)
}

// stmtLine is where bash counts a statement to be, for LINENO and
// BASH_LINENO. Its parser notes a simple command's line once it has read
// the token after the first word, so `f "a<newline>b"` is on the line its
// second word ends on, and a lone word on the line it ends on.
func stmtLine(st *syntax.Stmt) syntax.Pos {
	// The two elements that start first, in one pass: a statement runs
	// this before each command, where a slice to sort cost an allocation.
	var first, second struct{ start, end syntax.Pos }
	n := 0
	add := func(start, end syntax.Pos) {
		switch {
		case n == 0 || start.Offset() < first.start.Offset():
			second, first = first, struct{ start, end syntax.Pos }{start, end}
		case n == 1 || start.Offset() < second.start.Offset():
			second = struct{ start, end syntax.Pos }{start, end}
		}
		n++
	}
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		for _, a := range c.Assigns {
			add(a.Pos(), a.End())
		}
		for _, w := range c.Args {
			add(w.Pos(), w.End())
		}
	case *syntax.DeclClause:
		add(c.Variant.Pos(), c.Variant.End())
		for _, a := range c.Args {
			add(a.Pos(), a.End())
		}
	default:
		return st.Position
	}
	for _, rd := range st.Redirs {
		if rd.Word != nil { // a here-document's body comes later
			add(rd.Pos(), rd.Word.End())
		}
	}
	switch n {
	case 0:
		return st.Position
	case 1:
		return first.end
	}
	return second.end
}

// afterCommand runs the ERR trap and set -e's exit after a command that
// failed, unless it ran where a failure is expected (a condition, the
// left side of && or ||).
func (r *Runner) afterCommand(cmd syntax.Command) {
	if r.status == 0 || r.noErrexit > 0 || r.flow != flowNone {
		return
	}
	switch c := cmd.(type) {
	case *syntax.BinaryCmd:
		if c.Op == syntax.AndStmt || c.Op == syntax.OrStmt {
			return // its last command was checked already
		}
	case *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause, *syntax.CaseClause, *syntax.Block:
		return // the command inside that failed was checked
	case *syntax.FuncDecl:
		return
	case *syntax.CallExpr:
		if c == r.pipeCmd {
			r.exit(r.status) // the element's whole process, as in bash
			return
		}
	}
	r.errTrap()
	if r.opts.set[optErrexit] && r.flow == flowNone {
		r.exit(r.status)
		r.errexitExit = true
	}
}

// exit ends the shell (or subshell) with status.
func (r *Runner) exit(status int) {
	r.status = status
	r.flow = flowExit
}

// commandGuarded runs a command; an expansion error that fails only the
// command (see [cmdError]) leaves it with status 1.
func (r *Runner) commandGuarded(st *syntax.Stmt) {
	defer func() {
		// Only a cmdError is recovered here: recovering every panic to
		// raise the others again would cost each one the depth of the
		// stack, at every level (an abort out of 10,000 nested calls
		// took a minute).
		if r.failing {
			r.failing = false
			recover()
			r.status = 1
		}
	}()
	r.command(st)
}

// command runs a statement's command with its redirections.
func (r *Runner) command(st *syntax.Stmt) {
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		r.call(st, c)
		return
	case *syntax.DeclClause:
		// Its words are expanded and traced before its redirections
		// are made, as a simple command's are.
		r.declClause(c, st.Redirs)
		return
	case nil:
		// Redirections alone: files are opened (created) and closed.
		restore, ok := r.redirect(st.Redirs, false)
		if !ok {
			r.status = 1
			return
		}
		restore()
		r.status = 0
		return
	}
	restore, ok := r.redirect(st.Redirs, false)
	if !ok {
		r.status = 1
		return
	}
	defer restore()
	r.compound(st.Cmd)
}

func (r *Runner) compound(cmd syntax.Command) {
	switch c := cmd.(type) {
	case *syntax.Block:
		r.stmts(c.Stmts)
	case *syntax.Subshell:
		r.subshellRun(func(sub *Runner) { sub.stmts(c.Stmts) })
	case *syntax.BinaryCmd:
		r.binary(c)
	case *syntax.IfClause:
		r.ifClause(c)
	case *syntax.WhileClause:
		r.whileClause(c)
	case *syntax.ForClause:
		r.forClause(c)
	case *syntax.CaseClause:
		r.caseClause(c)
	case *syntax.FuncDecl:
		r.funcDecl(c)
	case *syntax.ArithmCmd:
		r.setCmdNode("(( ", c.X, " ))")
		r.debugTrap()
		if r.flow != flowNone {
			return
		}
		if r.opts.set[optXtrace] {
			// bash shows the text between (( and )) as written, a
			// blank added on each side.
			raw := r.srcOf(c.X)
			if c.Left.IsValid() && c.Right.IsValid() && int(c.Right.Offset()) <= len(r.src) {
				raw = r.src[c.Left.Offset()+2 : c.Right.Offset()]
				if r.lenient != nil {
					if blank, ok := r.lenient.emptyArith[c.Left.Offset()]; ok {
						raw = blank
					}
				}
			}
			r.xtrace("(( " + raw + " ))")
		}
		var n int64
		var err error
		if text, ok := r.arithCmdText(c); ok {
			n, err = r.arithString(r.arithText(text))
		} else {
			n, err = r.arithCmd(c.X)
		}
		if err != nil {
			r.arithError("((", err)
			r.status = 1
			return
		}
		r.status = int(b2i(n == 0))
	case *syntax.TestClause:
		r.setCmdNode("[[ ", c.X, " ]]")
		r.debugTrap()
		if r.flow != flowNone {
			return
		}
		r.status = r.testClause(c.X)
	case *syntax.DeclClause:
		r.declClause(c, nil)
	case *syntax.LetClause:
		r.letClause(c)
	case *syntax.TimeClause:
		r.timeClause(c)
	case *syntax.CoprocClause:
		r.coproc(c)
	default:
		r.errorf("unsupported command %T", c)
		r.status = 2
	}
}

// testClause evaluates [[ … ]]: 0 true, 1 false, 2 for a bad regular
// expression.
func (r *Runner) testClause(x syntax.TestExpr) (status int) {
	defer func() {
		if e := recover(); e != nil {
			if _, ok := e.(testError); !ok {
				panic(e)
			}
			status = 2
		}
	}()
	return int(b2i(!r.test(x)))
}

// arithCmd evaluates ((…)) and reports errors rather than aborting.
func (r *Runner) arithCmd(x syntax.ArithmExpr) (int64, error) {
	var text string
	if orig, ok := r.arithOriginal(x); ok {
		text = r.arithText(orig)
	} else if w, ok := x.(*syntax.Word); ok {
		if s, ok := plainLit(w); ok {
			text = s
		}
	}
	if text == "" {
		text = r.arithText(r.srcOf(x))
	}
	return r.arithString(text)
}

func (r *Runner) binary(c *syntax.BinaryCmd) {
	switch c.Op {
	case syntax.AndStmt, syntax.OrStmt:
		r.noErrexit++
		r.stmt(c.X)
		r.noErrexit--
		if r.flow != flowNone {
			return
		}
		if (r.status == 0) == (c.Op == syntax.AndStmt) {
			r.stmt(c.Y)
		}
	case syntax.Pipe, syntax.PipeAll:
		r.pipeline(c)
	}
}

// cond runs a condition: set -e does not apply inside it.
func (r *Runner) cond(list []*syntax.Stmt) bool {
	r.noErrexit++
	r.stmts(list)
	r.noErrexit--
	return r.status == 0
}

func (r *Runner) ifClause(c *syntax.IfClause) {
	for ; c != nil; c = c.Else {
		if len(c.Cond) == 0 { // else
			r.stmts(c.Then)
			return
		}
		ok := r.cond(c.Cond)
		if r.flow != flowNone {
			return
		}
		if ok {
			r.stmts(c.Then)
			return
		}
	}
	r.status = 0
}

// loopFlow handles break and continue at the end of a loop's body: true
// when the loop is to stop.
func (r *Runner) loopFlow() bool {
	switch r.flow {
	case flowBreak:
		r.flowN--
		if r.flowN <= 0 {
			r.flow = flowNone
		}
		return true
	case flowContinue:
		r.flowN--
		if r.flowN <= 0 {
			r.flow = flowNone
			return false
		}
		return true
	case flowNone:
		return r.ctx.Err() != nil
	}
	return true
}

func (r *Runner) whileClause(c *syntax.WhileClause) {
	r.loops++
	defer func() { r.loops-- }()
	status := 0
	for {
		ok := r.cond(c.Cond)
		if r.flow != flowNone {
			if r.loopFlow() {
				if r.flow != flowNone { // return or exit: their status
					status = r.status
				}
				break
			}
			continue
		}
		if ok == c.Until {
			break
		}
		r.stmts(c.Do)
		status = r.status
		if r.loopFlow() {
			if r.flow == flowNone {
				status = r.status
			}
			break
		}
	}
	r.status = status
}

func (r *Runner) forClause(c *syntax.ForClause) {
	r.loops++
	defer func() { r.loops-- }()
	switch l := c.Loop.(type) {
	case *syntax.WordIter:
		if !validName(l.Name.Value) {
			r.errorf("`%s': not a valid identifier", l.Name.Value)
			r.status = 1
			return
		}
		var items []string
		// bash traces the loop's words as written, "$@" when there are
		// none, not as they expand.
		head := " " + l.Name.Value + ` in "$@"`
		if l.InPos.IsValid() {
			head = " " + l.Name.Value + " in " + r.srcOfList(l.Items)
			r.debugTrapText("for" + head)
			items = r.argFields(l.Items...)
		} else {
			items = r.params
		}
		if c.Select {
			r.xtrace("select" + head)
			r.selectLoop(l.Name.Value, items, c.Do)
			return
		}
		r.status = 0
		for _, it := range items {
			r.xtrace("for" + head)
			if err := r.assign(l.Name.Value, it, false); err != nil {
				if err.Error() != "" { // else reported
					r.errorf("%s", err.Error())
				}
				r.status = 1
				return
			}
			r.stmts(c.Do)
			if r.loopFlow() {
				break
			}
		}
	case *syntax.CStyleLoop:
		status := 0
		if l.Init != nil {
			if _, err := r.arithCmd(l.Init); err != nil {
				r.arithError("((", err)
				r.status = 1
				return
			}
		}
		for {
			if l.Cond != nil {
				n, err := r.arithCmd(l.Cond)
				if err != nil {
					r.arithError("((", err)
					r.status = 1
					return
				}
				if n == 0 {
					break
				}
			}
			r.stmts(c.Do)
			status = r.status
			if r.loopFlow() {
				break
			}
			if l.Post != nil {
				if _, err := r.arithCmd(l.Post); err != nil {
					r.arithError("((", err)
					r.status = 1
					return
				}
			}
		}
		r.status = status
	}
}

func (r *Runner) srcOfList(ws []*syntax.Word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = r.srcOf(w)
	}
	return strings.Join(parts, " ")
}

func (r *Runner) caseClause(c *syntax.CaseClause) {
	head := "case " + r.srcOf(c.Word) + " in"
	r.debugTrapText(head)
	r.xtrace(head) // as written, before its expansions run
	word := r.Literal(c.Word)
	r.status = 0
	mode := r.patMode()
	if r.opts.shopt[optNocasematch] {
		mode |= pattern.NoCase
	}
	for i := 0; i < len(c.Items); i++ {
		it := c.Items[i]
		matched := false
		for _, pw := range it.Patterns {
			p, err := pattern.Compile(r.Pattern(pw), mode)
			if err == nil && p.Match(word) {
				matched = true
				break
			}
		}
		if !matched {
			continue
		}
		for {
			r.stmts(it.Stmts)
			if r.flow != flowNone || it.Op == syntax.Break {
				return
			}
			if it.Op == syntax.Resume || it.Op == syntax.ResumeKorn {
				break // ;;& tests the next patterns
			}
			// ;& runs the next item's commands without a test.
			i++
			if i >= len(c.Items) {
				return
			}
			it = c.Items[i]
		}
	}
}

// arithCmdText is the text of (( … )) as bash evaluates it: from the
// first non-blank after (( to the )), blanks before it kept (its error
// messages show them).
func (r *Runner) arithCmdText(c *syntax.ArithmCmd) (string, bool) {
	if _, ok := r.arithOriginal(c.X); ok {
		return "", false
	}
	start, end := int(c.Left.Offset())+2, int(c.Right.Offset())
	if r.src == "" || start > end || end > len(r.src) || !c.Left.IsValid() || !c.Right.IsValid() {
		return "", false
	}
	text := strings.TrimLeft(r.src[start:end], " \t\n")
	if text == "" {
		return "", false
	}
	return text, true
}

func (r *Runner) letClause(c *syntax.LetClause) {
	r.setCmdNode("", c, "")
	r.debugTrap()
	if args, ok := r.letArgs(c); ok {
		// let is a builtin to bash: its arguments are words, expanded
		// and unquoted, then evaluated.
		r.xtraceWords(append([]string{"let"}, quoteAll(args)...))
		if len(args) == 0 {
			r.errorf("let: expression expected")
			r.status = 1
			return
		}
		var n int64
		for _, a := range args {
			var err error
			n, err = r.arithString(a)
			if err != nil {
				r.arithError("let", err)
				r.status = 1
				return
			}
		}
		r.status = int(b2i(n == 0))
		return
	}
	if r.opts.set[optXtrace] {
		words := []string{"let"}
		for _, x := range c.Exprs {
			words = append(words, r.srcOf(x))
		}
		r.xtraceWords(words)
	}
	var n int64
	for _, x := range c.Exprs {
		var err error
		n, err = r.arithCmd(x)
		if err != nil {
			r.arithError("let", err)
			r.status = 1
			return
		}
	}
	r.status = int(b2i(n == 0))
}

// letArgs reads a let clause's text again as the words bash gives the let
// builtin, expanded; false when the text cannot be had.
func (r *Runner) letArgs(c *syntax.LetClause) ([]string, bool) {
	text := r.srcOf(c)
	rest, ok := strings.CutPrefix(text, "let")
	if !ok || !strings.ContainsAny(rest, "'\"\\$`") {
		return nil, false
	}
	f, err := NewParser().Parse(strings.NewReader(":"+rest), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 {
		return nil, false
	}
	saved := r.src
	r.src = ":" + rest
	defer func() { r.src = saved }()
	return r.Fields(call.Args[1:]...), true
}

// arithError reports an arithmetic command's error: bash names the
// command, but not for an assignment to a readonly variable.
func (r *Runner) arithError(cmd string, err error) {
	if ve, ok := err.(*varError); ok && ve.fatal {
		r.errorf("%s", err.Error())
		return
	}
	r.errorf("%s: %s", cmd, err.Error())
}
