package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// jobVar holds, in the subshell of a background statement, the token of
// that statement (see [jobs.reserve]); jobMark is the builtin that
// reserves one.
const (
	jobVar  = "__qsh_job"
	jobMark = "__qsh_job"
)

// markJobs marks the background statements of a command line about to
// run: `cmd &` becomes
//
//	__qsh_job=$(__qsh_job 'cmd'); cmd & unset __qsh_job
//
// The assignment runs when the statement does, in the shell, so every run
// of it (in a loop, say) gets a token of its own, and the statement's
// subshell starts with a copy of the variable: its programs find their
// job by it. interp gives them no other sign that they are in the
// background.
func (s *Shell) markJobs(f *syntax.File) *syntax.File {
	if s.jobs == nil {
		return f
	}
	s.jobs.ran()
	markBackground(f)
	return f
}

// markEval marks the background statements of an `eval` string; the
// arguments come back unchanged when it has none.
func (s *Shell) markEval(args []string) []string {
	src := strings.Join(args[1:], " ")
	if s.jobs == nil || !strings.Contains(src, "&") {
		return args
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil || !markBackground(f) {
		return args
	}
	var b strings.Builder
	if syntax.NewPrinter().Print(&b, f) != nil {
		return args
	}
	return []string{args[0], b.String()}
}

// markBackground marks the background statements in node and reports
// whether there were any.
func markBackground(node syntax.Node) bool {
	any := false
	mark := func(list *[]*syntax.Stmt) {
		if !slices.ContainsFunc(*list, isBackground) {
			return
		}
		any = true
		var out []*syntax.Stmt
		for _, st := range *list {
			if isBackground(st) {
				out = append(out, reserveStmt(stmtText(st)), st, unsetStmt())
				continue
			}
			out = append(out, st)
		}
		*list = out
	}
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.File:
			mark(&n.Stmts)
		case *syntax.Block:
			mark(&n.Stmts)
		case *syntax.Subshell:
			mark(&n.Stmts)
		case *syntax.IfClause:
			mark(&n.Cond)
			mark(&n.Then)
		case *syntax.WhileClause:
			mark(&n.Cond)
			mark(&n.Do)
		case *syntax.ForClause:
			mark(&n.Do)
		case *syntax.CaseItem:
			mark(&n.Stmts)
		case *syntax.CmdSubst:
			mark(&n.Stmts)
		case *syntax.ProcSubst:
			mark(&n.Stmts)
		}
		return true
	})
	return any
}

func isBackground(st *syntax.Stmt) bool {
	return (st.Background || st.Disown) && !st.Coprocess
}

// stmtText is a background statement as `jobs` shows it, on one line,
// without the `&`.
func stmtText(st *syntax.Stmt) string {
	st2 := *st
	st2.Background, st2.Disown, st2.Comments = false, false, nil
	var b strings.Builder
	if syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, &st2) != nil {
		return "?"
	}
	return strings.TrimSpace(b.String())
}

func reserveStmt(text string) *syntax.Stmt {
	return parseStmt(jobVar + "=$(" + jobMark + " " + quote(text) + ")")
}

func unsetStmt() *syntax.Stmt { return parseStmt("unset " + jobVar) }

func parseStmt(src string) *syntax.Stmt {
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil || len(f.Stmts) != 1 {
		panic("shell: bad job mark " + src) // src is ours
	}
	return f.Stmts[0]
}
