package marks

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// JobVar holds, in the subshell of a background statement, the token of
// that statement (see the shell's jobs.reserve); JobMark is the builtin that
// reserves one.
const (
	JobVar  = "__qsh_job"
	JobMark = "__qsh_job"
)

// NoJobVar is set in every command and process substitution of a command
// line (see [markNoJobs]): their programs run without job control, in the
// shell's process group. In `vim $(find . | fzf)` the substitution's
// pipeline must not take the terminal from the shell, which waits for its
// output; bash does no job control there either.
const NoJobVar = "__qsh_nojob"

// MixedVar is set for the programs of a pipeline that the shell runs
// part of (see [markMixed]).
const MixedVar = "__qsh_mixed"

// markNoJobs marks the command and process substitutions in node (see
// [NoJobVar]) and reports whether there were any: each simple command in
// them gets the variable as a prefix assignment, `__qsh_nojob=1 cmd`,
// which leaves $? and `set -e` alone, and which a function called there
// sees too.
func markNoJobs(node syntax.Node) bool {
	return noJobCalls(node, func(call *syntax.CallExpr) { PrefixVar(call, NoJobVar) })
}

// noJobCalls calls mark with each simple command in the substitutions of
// node, and reports whether there were any substitutions.
func noJobCalls(node syntax.Node, mark func(*syntax.CallExpr)) bool {
	any := false
	markCalls := func(n syntax.Node) bool {
		if call, ok := n.(*syntax.CallExpr); ok {
			mark(call)
		}
		return true
	}
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			any = true
			syntax.Walk(n, markCalls)
			return false
		}
		return true
	})
	return any
}

// markMixed marks the pipelines in node that the shell runs part of: a
// loop, a function, a builtin, a subshell. Such a pipeline cannot be
// stopped as a whole (goroutines do not stop), and if its programs alone
// stopped, the shell's part would wait on them for ever; so Ctrl-Z does
// not stop them (see the shell's jobs.resumeForeground). Each simple command in it
// gets [MixedVar] as a prefix assignment, seen by the functions it calls
// too.
func markMixed(node syntax.Node, programs Programs) bool {
	return mixedCalls(node, programs, func(call *syntax.CallExpr) { PrefixVar(call, MixedVar) })
}

// mixedCalls calls mark with each simple command in the pipelines of node
// that the shell runs part of, and reports whether there were any.
func mixedCalls(node syntax.Node, programs Programs, mark func(*syntax.CallExpr)) bool {
	any := false
	syntax.Walk(node, func(n syntax.Node) bool {
		bc, ok := n.(*syntax.BinaryCmd)
		if !ok || bc.Op != syntax.Pipe && bc.Op != syntax.PipeAll {
			return true
		}
		if externalMembers(bc, programs) {
			return true
		}
		any = true
		syntax.Walk(bc, func(n syntax.Node) bool {
			if call, ok := n.(*syntax.CallExpr); ok {
				mark(call)
			}
			return true
		})
		return false
	})
	return any
}

// eachFunc calls mark with the body of each function node defines.
func eachFunc(node syntax.Node, mark func(body *syntax.Stmt)) {
	syntax.Walk(node, func(n syntax.Node) bool {
		if fd, ok := n.(*syntax.FuncDecl); ok {
			mark(fd.Body)
		}
		return true
	})
}

// funcEdits are the edits that mark, in place, the bodies of the functions
// f (parsed from a sourced file) defines for job control. Only those: the
// file's own commands run as the file is read, and such a function was
// marked, in the shell's table, only by the next command line before.
func funcEdits(f *syntax.File, programs Programs) []Edit {
	var edits []Edit
	done := map[*syntax.CallExpr]map[string]bool{}
	add := func(name string) func(*syntax.CallExpr) {
		return func(call *syntax.CallExpr) {
			if len(call.Args) == 0 || hasAssign(call, name) || done[call][name] {
				return
			}
			if done[call] == nil {
				done[call] = map[string]bool{}
			}
			done[call][name] = true
			off := int(call.Pos().Offset())
			edits = append(edits, Edit{Off: off, End: off, Text: name + "=1 ", optional: true})
		}
	}
	var bodies []*syntax.Stmt
	eachFunc(f, func(body *syntax.Stmt) { bodies = append(bodies, body) })
	// The text File makes: `__qsh_nojob=1 __qsh_mixed=1 cmd` (insertions
	// at one offset keep their order).
	for _, body := range bodies {
		noJobCalls(body, add(NoJobVar))
	}
	// The file's own too: `(cmd &)` is no job wherever it is.
	for _, st := range subshellBackgrounds(f) {
		eachCall(st, add(NoJobVar))
	}
	for _, body := range bodies {
		mixedCalls(body, programs, add(MixedVar))
	}
	return edits
}

// PrefixVar gives call the prefix assignment name=1, once.
func PrefixVar(call *syntax.CallExpr, name string) {
	if len(call.Args) == 0 || hasAssign(call, name) {
		return
	}
	as := &syntax.Assign{Name: &syntax.Lit{Value: name},
		Value: &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: "1"}}}}
	call.Assigns = append([]*syntax.Assign{as}, call.Assigns...)
}

func hasAssign(call *syntax.CallExpr, name string) bool {
	return slices.ContainsFunc(call.Assigns, func(as *syntax.Assign) bool { return as.Name != nil && as.Name.Value == name })
}

// externalMembers reports whether every member of pipeline bc is a
// simple command that runs a program.
func externalMembers(bc *syntax.BinaryCmd, programs Programs) bool {
	for _, st := range []*syntax.Stmt{bc.X, bc.Y} {
		if inner, ok := st.Cmd.(*syntax.BinaryCmd); ok && (inner.Op == syntax.Pipe || inner.Op == syntax.PipeAll) {
			if !externalMembers(inner, programs) {
				return false
			}
			continue
		}
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 || st.Background || st.Coprocess {
			return false
		}
		if name := call.Args[0].Lit(); name == "" || !programs(name) {
			return false
		}
	}
	return true
}

// markBackground marks the background statements in node and reports
// whether there were any: `cmd &` becomes
//
//	declare -g __qsh_job=$(__qsh_job 'cmd' 2>/dev/null)
//	cmd &
//	declare -g __qsh_job=$(__qsh_job 2>/dev/null)
//
// The first line runs when the statement does, in the shell, so every run
// of it (in a loop, say) gets a token of its own, and the statement's
// subshell starts with a copy of the variable: its programs find their
// job by it. interp gives them no other sign that they are in the
// background. The last line empties it, once the statement's program has
// started (the shell's jobMarkBuiltin). declare, as for $!'s marks, so
// that set -x shows none of it. Then $! is marked as well, see
// [markPids].
//
// A background statement inside a subshell, `(cmd &)`, is no job, as in
// bash, where the subshell has no job control: the idiom for starting a
// program detached and unannounced (autojump's prompt hook). Its commands
// are marked as those of substitutions are.
func markBackground(node syntax.Node) bool {
	any := false
	inSubshell := map[*syntax.Stmt]bool{}
	for _, st := range subshellBackgrounds(node) {
		inSubshell[st] = true
	}
	mark := func(list *[]*syntax.Stmt) {
		if !slices.ContainsFunc(*list, IsBackground) {
			return
		}
		var out []*syntax.Stmt
		for _, st := range *list {
			// Not twice: a function printed by declare -f has its
			// marks, and runs again by eval.
			marked := len(out) > 0 && isJobReserve(out[len(out)-1])
			if IsBackground(st) && !marked && !inSubshell[st] {
				any = true
				out = append(out, reserveStmt(stmtText(st)), st, unsetStmt())
				continue
			}
			out = append(out, st)
		}
		*list = out
	}
	// No job control in substitutions: see [NoJobVar].
	EachList(node, false, mark)
	// After the jobs' texts are taken, which show none of it.
	for st := range inSubshell {
		any = true
		eachCall(st, func(call *syntax.CallExpr) { PrefixVar(call, NoJobVar) })
	}
	return any
}

// subshellBackgrounds are the background statements inside the subshells
// of node, which are no jobs (see [markBackground]).
func subshellBackgrounds(node syntax.Node) []*syntax.Stmt {
	var sts []*syntax.Stmt
	syntax.Walk(node, func(n syntax.Node) bool {
		sub, ok := n.(*syntax.Subshell)
		if !ok {
			return true
		}
		EachList(sub, false, func(list *[]*syntax.Stmt) {
			for _, st := range *list {
				if IsBackground(st) {
					sts = append(sts, st)
				}
			}
		})
		return false
	})
	return sts
}

// eachCall calls f with each simple command in node.
func eachCall(node syntax.Node, f func(*syntax.CallExpr)) {
	syntax.Walk(node, func(n syntax.Node) bool {
		if call, ok := n.(*syntax.CallExpr); ok {
			f(call)
		}
		return true
	})
}

func IsBackground(st *syntax.Stmt) bool {
	return (st.Background || st.Disown) && !st.Coprocess
}

// isJobReserve reports whether st is the first line of a job's marks, see
// [reserveStmt].
func isJobReserve(st *syntax.Stmt) bool {
	call := markCall(st, JobVar)
	return call != nil && len(call.Args) == 2 && call.Args[0].Lit() == JobMark
}

// stmtText is a background statement as `jobs` shows it, on one line,
// without the `&` (and without $!'s marks, in a function printed by
// declare -f, then run again).
func stmtText(st *syntax.Stmt) string {
	if IsMarkedBackground(st) {
		st = st.Cmd.(*syntax.Block).Stmts[2]
	}
	st2 := *st
	st2.Background, st2.Disown, st2.Comments = false, false, nil
	var b strings.Builder
	if syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, &st2) != nil {
		return "?"
	}
	return strings.TrimSpace(b.String())
}

func reserveStmt(text string) *syntax.Stmt {
	return ParseStmt("declare -g " + JobVar + "=$(" + JobMark + " " + quote(text) + " 2>/dev/null)")
}

func unsetStmt() *syntax.Stmt {
	return ParseStmt("declare -g " + JobVar + "=$(" + JobMark + " 2>/dev/null)")
}

// ParseStmt is src, one statement of qsh's own marks, parsed; a mark that does
// not parse is a bug, hence the panic.
func ParseStmt(src string) *syntax.Stmt {
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil || len(f.Stmts) != 1 {
		panic("marks: bad mark " + src) // src is ours
	}
	return f.Stmts[0]
}

// quote is s as one shell word.
func quote(s string) string {
	q, err := syntax.Quote(s, syntax.LangBash)
	if err != nil {
		return strconv.Quote(s)
	}
	return q
}
