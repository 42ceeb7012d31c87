package shell

import (
	"context"
	"io"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/shell/rewrite"
)

// jobVar holds, in the subshell of a background statement, the token of
// that statement (see [jobs.reserve]); jobMark is the builtin that
// reserves one.
const (
	jobVar  = "__qsh_job"
	jobMark = "__qsh_job"
)

// noJobVar is set in every command and process substitution of a command
// line (see [markNoJobs]): their programs run without job control, in the
// shell's process group. In `vim $(find . | fzf)` the substitution's
// pipeline must not take the terminal from the shell, which waits for its
// output; bash does no job control there either.
const noJobVar = "__qsh_nojob"

// mixedVar is set for the programs of a pipeline that the shell runs
// part of (see [Shell.markMixed]).
const mixedVar = "__qsh_mixed"

// markJobs marks the background statements of a command line about to
// run: `cmd &` becomes
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
// started (see [Shell.jobMarkBuiltin]). declare, as for $!'s marks, so
// that set -x shows none of it. Then $! is marked as well, see
// [Shell.markPids].
func (s *Shell) markJobs(f *syntax.File) *syntax.File {
	if s.jobs != nil {
		s.jobs.ran()
	}
	return s.markCode(f)
}

// markCode is [Shell.markJobs] for code the shell runs between command
// lines (PROMPT_COMMAND, a prompt's expansions, a key's command), which
// counts as no line for the warning about stopped jobs at exit.
func (s *Shell) markCode(f *syntax.File) *syntax.File {
	s.markBackgrounds(f)
	s.markCommandText(f)
	s.markSubshells(f)
	if s.jobs == nil {
		s.markPids(f)
		return f
	}
	s.markMixed(f)
	markNoJobs(f)
	markBackground(f)
	// After markBackground, which takes the job's text from the
	// statement as written.
	s.markPids(f)
	// Functions defined elsewhere (the rc file, a sourced file): their
	// substitutions and $! too, once, before the line can call them.
	for _, body := range s.runner.Funcs {
		if !s.jobs.marked[body] {
			s.jobs.marked[body] = true
			s.markMixed(body)
			markNoJobs(body)
			s.markPids(body)
		}
	}
	return f
}

// markNoJobs marks the command and process substitutions in node (see
// [noJobVar]) and reports whether there were any: each simple command in
// them gets the variable as a prefix assignment, `__qsh_nojob=1 cmd`,
// which leaves $? and `set -e` alone, and which a function called there
// sees too.
func markNoJobs(node syntax.Node) bool {
	any := false
	markCalls := func(n syntax.Node) bool {
		if call, ok := n.(*syntax.CallExpr); ok {
			prefix(call, noJobVar)
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
// not stop them (see [jobs.resumeForeground]). Each simple command in it
// gets [mixedVar] as a prefix assignment, seen by the functions it calls
// too.
func (s *Shell) markMixed(node syntax.Node) {
	syntax.Walk(node, func(n syntax.Node) bool {
		bc, ok := n.(*syntax.BinaryCmd)
		if !ok || bc.Op != syntax.Pipe && bc.Op != syntax.PipeAll {
			return true
		}
		if s.externalMembers(bc) {
			return true
		}
		syntax.Walk(bc, func(n syntax.Node) bool {
			if call, ok := n.(*syntax.CallExpr); ok {
				prefix(call, mixedVar)
			}
			return true
		})
		return false
	})
}

// prefix gives call the prefix assignment name=1, once.
func prefix(call *syntax.CallExpr, name string) {
	if len(call.Args) == 0 || slices.ContainsFunc(call.Assigns, func(as *syntax.Assign) bool { return as.Name.Value == name }) {
		return
	}
	as := &syntax.Assign{Name: &syntax.Lit{Value: name},
		Value: &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: "1"}}}}
	call.Assigns = append([]*syntax.Assign{as}, call.Assigns...)
}

// externalMembers reports whether every member of pipeline bc is a
// simple command that runs a program.
func (s *Shell) externalMembers(bc *syntax.BinaryCmd) bool {
	for _, st := range []*syntax.Stmt{bc.X, bc.Y} {
		if inner, ok := st.Cmd.(*syntax.BinaryCmd); ok && (inner.Op == syntax.Pipe || inner.Op == syntax.PipeAll) {
			if !s.externalMembers(inner) {
				return false
			}
			continue
		}
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 || st.Background || st.Coprocess {
			return false
		}
		name := call.Args[0].Lit()
		_, alias := s.aliases[name]
		if name == "" || alias || interp.IsBuiltin(name) || ownBuiltins[name] || s.isFunc(name) {
			return false
		}
	}
	return true
}

// markEval marks the background statements and $! of an `eval` string
// (see [Shell.markPids]); the arguments come back unchanged when it has
// none.
func (s *Shell) markEval(args []string) []string {
	src := strings.Join(args[1:], " ")
	if out, ok := rewrite.Text(src, ""); ok {
		src, args = out, []string{args[0], out}
	}
	if src, ok := s.markJobsEval(src); ok {
		args = []string{args[0], src}
	}
	if src, ok := markPidsEval(strings.Join(args[1:], " ")); ok {
		args = []string{args[0], src}
	}
	if s.identified {
		if src, ok := markDashEval(strings.Join(args[1:], " ")); ok {
			args = []string{args[0], src}
		}
	}
	return args
}

func (s *Shell) markJobsEval(src string) (string, bool) {
	if s.jobs == nil || !strings.ContainsAny(src, "&$`<>") {
		return src, false
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		return src, false
	}
	noJobs := markNoJobs(f)
	if !markBackground(f) && !noJobs {
		return src, false
	}
	var b strings.Builder
	if syntax.NewPrinter().Print(&b, f) != nil {
		return src, false
	}
	return b.String(), true
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
			// Not twice: a function printed by declare -f has its
			// marks, and runs again by eval.
			marked := len(out) > 0 && isJobReserve(out[len(out)-1])
			if isBackground(st) && !marked {
				out = append(out, reserveStmt(stmtText(st)), st, unsetStmt())
				continue
			}
			out = append(out, st)
		}
		*list = out
	}
	// No job control in substitutions: see [noJobVar].
	eachList(node, false, mark)
	return any
}

func isBackground(st *syntax.Stmt) bool {
	return (st.Background || st.Disown) && !st.Coprocess
}

// isJobReserve reports whether st is the first line of a job's marks, see
// [reserveStmt].
func isJobReserve(st *syntax.Stmt) bool {
	call := markCall(st, jobVar)
	return call != nil && len(call.Args) == 2 && call.Args[0].Lit() == jobMark
}

// stmtText is a background statement as `jobs` shows it, on one line,
// without the `&` (and without $!'s marks, in a function printed by
// declare -f, then run again).
func stmtText(st *syntax.Stmt) string {
	if isMarkedBackground(st) {
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
	return parseStmt("declare -g " + jobVar + "=$(" + jobMark + " " + quote(text) + " 2>/dev/null)")
}

func unsetStmt() *syntax.Stmt {
	return parseStmt("declare -g " + jobVar + "=$(" + jobMark + " 2>/dev/null)")
}

// jobMarkBuiltin runs the job marks' builtin. With the statement's text it
// reserves a job and prints its token ([jobs.reserve]). Without, it comes
// right after a background statement started: for a simple command or a
// pipeline, it waits (as $! would, but only as long as [bgTable.settle]
// does) for the program to start, as bash forks it before the next
// command: so the `[n] pid` notice comes before what the next commands
// print, and they find the job. A compound statement is not waited for:
// builtins may run long before its first program, and a loop starting
// many would be slowed; job specs still wait for it (see
// [bgTable.settle]).
func (s *Shell) jobMarkBuiltin(ctx context.Context, hc interp.HandlerContext, args []string) error {
	if s.jobs == nil {
		return nil
	}
	if len(args) > 0 {
		_, err := io.WriteString(hc.Stdout, s.jobs.reserve(args[0]))
		return err
	}
	if tok := hc.Env.Get(lastBgVar).String(); tok != "" {
		s.bgs.settleProgram(ctx, tok)
	}
	return nil
}

func parseStmt(src string) *syntax.Stmt {
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil || len(f.Stmts) != 1 {
		panic("shell: bad job mark " + src) // src is ours
	}
	return f.Stmts[0]
}
