package shell

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// $! is bash's: the process ID of the last background job, which kill, ps
// and wait know. interp's is "g1", "g2"…, an index into its goroutines,
// and interp offers no hook in it; so a program is rewritten before it
// runs (see [Shell.markPids]). A background statement `cmd &` becomes
//
//	declare -g __qsh_nextbg=$(__qsh_bg PLACE 2>/dev/null)
//	{ declare -g __qsh_bg=$__qsh_nextbg; __qsh_bgstart 2>/dev/null && : 2>/dev/null; cmd; __qsh_bgend 2>/dev/null; } &
//	declare -g __qsh_lastbg=$__qsh_nextbg
//
// and $! becomes $(__qsh_pid "${__qsh_lastbg-}" 2>/dev/null). The first
// line gets the statement a token, which its subshell (and only it: the
// foreground, maybe another background statement, keeps its own) has as
// __qsh_bg: the programs it starts are filed under it (see
// [bgTable.started]). The block tells when it ends, also by exit or set
// -e (an EXIT trap in its subshell). The last line makes the statement
// the one $! stands for.
//
// declare because interp's set -x traces neither it nor its status (0, as
// after `&`); the builtins' set -x lines go to the /dev/null of their own
// redirections. Nothing new shows in set -x or `declare -p` (which lists
// nothing in interp); `declare -p __qsh_lastbg` and `declare -f` of a
// function with `&` do show the marks (interp prints the body it runs).
// $? in the statement is the status before it, as in bash: the first
// line files it, and __qsh_bgstart returns it, in an && list, which
// neither set -e nor an ERR trap heed.
//
// $! is looked up lazily, when it is expanded, so a script that never
// asks pays one substitution per `&` and no waiting. It is, as in bash:
//
//   - for a simple command or a pipeline whose last command is a
//     program, that program's process ID; the lookup waits for it to
//     start, as bash's fork has happened by the next line;
//   - for anything else (`{ a; b; } &`, a loop, a function, a builtin),
//     whose bash subshell interp runs as a goroutine, the ID of a stand-in
//     process that lives as long as the statement: `kill -0`, `ps -p` and
//     /bin/kill see it like bash's subshell, and killing it stops the
//     statement: the program it waits for gets the signal too (bash's
//     would live on, an orphan no wait waits for), and it runs no next
//     command (see [Shell.noteCall]); wait returns at once with 128+N,
//     as for bash's dead subshell. A
//     statement that has ended gets a stand-in that has exited, so kill
//     says "No such process" and wait gives its status, as bash's would.
//     A made-up number would be simpler but could name someone else's
//     process, and ps would not know it.
//
// Marked: -c strings, scripts, command lines, eval strings, functions
// defined before a line, EXIT traps, and files run with source or `.`
// (the rc files and profiles too), which interp reads and parses itself:
// the open handler gives it their text marked in place, each line where
// it was, so that messages still say file:line (see [markPidsText]; only
// the columns after a mark move).

const (
	bgVar       = "__qsh_bg"      // the token of the statement, in its subshell
	nextBgVar   = "__qsh_nextbg"  // the token of the statement about to start
	lastBgVar   = "__qsh_lastbg"  // the token $! stands for
	bgMark      = "__qsh_bg"      // builtin: a new token
	bgStartMark = "__qsh_bgstart" // builtin: the statement began
	bgEndMark   = "__qsh_bgend"   // builtin: the statement ended
	pidMark     = "__qsh_pid"     // builtin: what $! is
	markPrefix  = "__qsh_"        // all of qsh's marks
)

// placeFirst is the place wanted for code whose source positions change
// before it runs (an eval string): the statement's first program.
const placeFirst = -1

// markPids rewrites node's background statements and its $! as described
// above; it reports whether it changed anything.
func (s *Shell) markPids(node syntax.Node) bool {
	return markPids(node, false)
}

func markPids(node syntax.Node, first bool) bool {
	// A whole program (not an eval string, nor a function's body) runs
	// in the shell itself, where set -u may check $!.
	_, file := node.(*syntax.File)
	changed := markBang(node, file && !first)
	mark := func(list *[]*syntax.Stmt) {
		var out []*syntax.Stmt
		for i, st := range *list {
			if first && i > 0 && isMarkedBackground(st) && refreshPlace(*list, i, first) {
				changed = true
			}
			if !isBackground(st) || isMarkedBackground(st) {
				if out != nil {
					out = append(out, st)
				}
				continue
			}
			if out == nil {
				out = append(out, (*list)[:i]...)
			}
			marked := wrapBackground(st, first)
			if n := len(out); n > 0 && isJobMark(out[n-1]) {
				// The job's mark (see [Shell.markJobs]) sets $?
				// to 0: the statement's first line goes before it.
				out = slices.Insert(out, n-1, marked[0])
				marked = marked[1:]
			}
			out = append(out, marked...)
		}
		if out != nil {
			changed = true
			*list = out
		}
	}
	eachList(node, true, mark)
	return changed
}

// eachList calls mark with each list of statements in node, before it
// looks inside them; in command and process substitutions only if substs.
func eachList(node syntax.Node, substs bool, mark func(list *[]*syntax.Stmt)) {
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
			if !substs {
				return false
			}
			mark(&n.Stmts)
		case *syntax.ProcSubst:
			if !substs {
				return false
			}
			mark(&n.Stmts)
		}
		return true
	})
}

// wrapBackground is background statement st marked.
func wrapBackground(st *syntax.Stmt, first bool) []*syntax.Stmt {
	want := programPlace(st)
	if first && want != 0 {
		want = placeFirst
	}
	inner := *st
	inner.Background, inner.Disown, inner.Comments = false, false, nil
	wrapped := &syntax.Stmt{Position: st.Position, Comments: st.Comments,
		Background: st.Background, Disown: st.Disown,
		Cmd: &syntax.Block{Stmts: []*syntax.Stmt{
			parseStmt(startBg[0]), parseStmt(startBg[1]), &inner, parseStmt(endBg[0])}}}
	return []*syntax.Stmt{
		parseStmt(reserveBg(strconv.Itoa(want))),
		wrapped,
		parseStmt(endBg[1]),
	}
}

// The marks of a background statement: the first line of the comment at
// the top of this file, the block's start, its end and the last line.
var (
	startBg = [2]string{"declare -g " + bgVar + "=$" + nextBgVar, bgStartMark + " 2>/dev/null && : 2>/dev/null"}
	endBg   = [2]string{bgEndMark + " 2>/dev/null", "declare -g " + lastBgVar + "=$" + nextBgVar}
)

func reserveBg(place string) string {
	return "declare -g " + nextBgVar + "=$(" + bgMark + " " + place + " 2>/dev/null)"
}

// refreshPlace gives the marked background statement list[i] of a text parsed
// again (a function printed by declare -f, then run by eval) the place of
// its program in this text, in its first line, list[i-1] (or before the
// job's mark there); it reports whether that changed.
func refreshPlace(list []*syntax.Stmt, i int, first bool) bool {
	j := i - 1
	for j > 0 && isJobMark(list[j]) {
		j-- // marked for a job at the prompt, see [Shell.markJobs]
	}
	w := reservePlace(list[j])
	if w == nil {
		return false
	}
	want := strconv.Itoa(markedPlace(list[i], first))
	if w.Lit() == want {
		return false
	}
	w.Parts = []syntax.WordPart{&syntax.Lit{Value: want}}
	return true
}

// markedPlace is the place of the program of marked background statement
// st (see [wrapBackground]).
func markedPlace(st *syntax.Stmt, first bool) int {
	want := programPlace(st.Cmd.(*syntax.Block).Stmts[2])
	if first && want != 0 {
		want = placeFirst
	}
	return want
}

// reservePlace is the word of the place in st, the first line of a
// marked background statement; nil if st is not one.
func reservePlace(st *syntax.Stmt) *syntax.Word {
	if call := markCall(st, nextBgVar); call != nil && len(call.Args) == 2 && call.Args[0].Lit() == bgMark {
		return call.Args[1]
	}
	return nil
}

// isJobMark reports whether st is a line of a job's marks, see
// [markBackground].
func isJobMark(st *syntax.Stmt) bool { return markCall(st, jobVar) != nil }

// markCall is the call of mark line st, `declare -g name=$(call)`; nil if
// st is not one.
func markCall(st *syntax.Stmt, name string) *syntax.CallExpr {
	decl, ok := st.Cmd.(*syntax.DeclClause)
	if !ok {
		return nil
	}
	for _, as := range decl.Args {
		if as.Name == nil || as.Name.Value != name || as.Value == nil || len(as.Value.Parts) != 1 {
			continue
		}
		if cs, ok := as.Value.Parts[0].(*syntax.CmdSubst); ok && len(cs.Stmts) == 1 {
			call, _ := cs.Stmts[0].Cmd.(*syntax.CallExpr)
			return call
		}
	}
	return nil
}

// isMarkedBackground reports whether st was marked already (a function
// body marked on an earlier line).
func isMarkedBackground(st *syntax.Stmt) bool {
	b, ok := st.Cmd.(*syntax.Block)
	if !ok || len(b.Stmts) < 2 {
		return false
	}
	start := b.Stmts[1]
	if and, ok := start.Cmd.(*syntax.BinaryCmd); ok {
		start = and.X
	}
	call, ok := start.Cmd.(*syntax.CallExpr)
	return ok && len(call.Args) > 0 && call.Args[0].Lit() == bgStartMark
}

// programPlace is the place (offset+1) of the call whose program $! is
// for background statement st: the command itself, or a pipeline's last;
// 0 when st is anything else.
func programPlace(st *syntax.Stmt) int {
	for {
		switch cmd := st.Cmd.(type) {
		case *syntax.CallExpr:
			if len(cmd.Args) == 0 {
				return 0
			}
			return place(cmd.Args[0].Pos())
		case *syntax.BinaryCmd:
			if cmd.Op != syntax.Pipe && cmd.Op != syntax.PipeAll {
				return 0
			}
			st = cmd.Y
		default:
			return 0
		}
	}
}

// place is a source position as the table files it: offset+1, so that 0
// is none.
func place(pos syntax.Pos) int { return int(pos.Offset()) + 1 }

// markBang rewrites each $! in node, reporting whether there was one.
// The lists of parts are rewritten after the walk, which so does not see
// the $! of the marks themselves.
//
// With top set, node runs in the shell itself, and a plain $! there (not
// in a subshell, a pipeline, a background statement or a function, which
// may run anywhere) is followed by ${!%%*}: interp's own $!, which is
// unset until a background statement ran in that shell, stripped to
// nothing. So `set -u; echo $!` fails as in bash, "!: unbound variable"
// (bash says "$!: …" for $!, "!: …" for ${!}). interp's $! is not
// inherited by subshells (nor is the word of ${x-word} expanded lazily,
// which could have told them), so elsewhere $! is empty before any
// background statement, also under set -u.
func markBang(node syntax.Node, top bool) bool {
	type list struct {
		parts *[]syntax.WordPart
		top   bool
	}
	var lists []list
	var walk func(node syntax.Node, top bool)
	walk = func(node syntax.Node, top bool) {
		syntax.Walk(node, func(n syntax.Node) bool {
			if top && n != node && !inShell(n) {
				walk(n, false)
				return false
			}
			switch n := n.(type) {
			case *syntax.Word:
				if slices.ContainsFunc(n.Parts, isBang) {
					lists = append(lists, list{&n.Parts, top})
				}
			case *syntax.DblQuoted:
				if slices.ContainsFunc(n.Parts, isBang) {
					lists = append(lists, list{&n.Parts, top})
				}
			}
			return true
		})
	}
	walk(node, top)
	for _, l := range lists {
		var out []syntax.WordPart
		for _, part := range *l.parts {
			if !isBang(part) {
				out = append(out, part)
				continue
			}
			out = append(out, bangSubst(part.(*syntax.ParamExp)))
			if l.top && isPlainBang(part.(*syntax.ParamExp)) {
				out = append(out, unboundBang())
			}
		}
		*l.parts = out
	}
	return len(lists) > 0
}

// inShell reports whether n runs in the shell that runs its parent.
func inShell(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.Subshell, *syntax.CmdSubst, *syntax.ProcSubst, *syntax.FuncDecl:
		return false
	case *syntax.Stmt:
		return !n.Background && !n.Disown && !n.Coprocess
	case *syntax.BinaryCmd:
		return n.Op != syntax.Pipe && n.Op != syntax.PipeAll
	}
	return true
}

// isBang reports whether part is an expansion of $!, plain or not, but
// not [unboundBang]'s.
func isBang(part syntax.WordPart) bool {
	pe, ok := part.(*syntax.ParamExp)
	return ok && pe.Param != nil && pe.Param.Value == "!" && !pe.Excl && !isUnboundBang(pe)
}

func isUnboundBang(pe *syntax.ParamExp) bool {
	return pe.Exp != nil && pe.Exp.Op == syntax.RemLargeSuffix && pe.Exp.Word != nil && pe.Exp.Word.Lit() == "*"
}

// unboundBang is ${!%%*}, see [markBang].
func unboundBang() syntax.WordPart {
	return &syntax.ParamExp{Param: &syntax.Lit{Value: "!"},
		Exp: &syntax.Expansion{Op: syntax.RemLargeSuffix, Word: &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: "*"}}}}}
}

// bangSubst is what $! (pe) becomes: the lookup's substitution, and for
// `${!:-x}`, `${#!}` and such, the expansion applied to its output in the
// same (sub)shell, so that no variable is left behind.
func bangSubst(pe *syntax.ParamExp) syntax.WordPart {
	lookup := bangLookup[2 : len(bangLookup)-1]
	src := bangLookup
	if !isPlainBang(pe) {
		pe2 := *pe
		pe2.Param = &syntax.Lit{Value: markPrefix + "x"}
		pe2.Short = false
		var b strings.Builder
		if syntax.NewPrinter().Print(&b, &pe2) == nil {
			src = "$(" + markPrefix + "x=$(" + lookup + ") 2>/dev/null; printf %s \"" + b.String() + "\" 2>/dev/null)"
		}
	}
	st := parseStmt(": " + src)
	return st.Cmd.(*syntax.CallExpr).Args[1].Parts[0]
}

// bangLookup is what a plain $! becomes.
const bangLookup = "$(" + pidMark + ` "${` + lastBgVar + `-}" 2>/dev/null)`

// isPlainBang reports whether pe is $! or ${!}.
func isPlainBang(pe *syntax.ParamExp) bool {
	return pe.Param != nil && pe.Param.Value == "!" && !pe.Excl && pe.Exp == nil && !pe.Length &&
		!pe.Width && pe.Slice == nil && pe.Repl == nil && pe.Names == 0 && pe.Index == nil
}

// markTrap rewrites each plain $! of an EXIT trap's command in place, in
// the text, which `trap -p` shows again through [unmarkTrap].
func markTrap(src string) string {
	if !strings.Contains(src, "!") {
		return src
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		return src
	}
	var spans [][2]uint
	syntax.Walk(f, func(n syntax.Node) bool {
		if pe, ok := n.(*syntax.ParamExp); ok && isPlainBang(pe) {
			spans = append(spans, [2]uint{pe.Pos().Offset(), pe.End().Offset()})
		}
		return true
	})
	slices.SortFunc(spans, func(a, b [2]uint) int { return int(a[0]) - int(b[0]) })
	for i := len(spans) - 1; i >= 0; i-- {
		sp := spans[i]
		src = src[:sp[0]] + bangLookup + src[sp[1]:]
	}
	return src
}

// unmarkTrap is a trap's command as the user gave it (but ${!} as $!).
func unmarkTrap(src string) string { return strings.ReplaceAll(src, bangLookup, "$!") }

// markPidsEval marks an eval string: the arguments come back unchanged
// when it has no `&` and no $!.
func markPidsEval(src string) (string, bool) {
	if !strings.ContainsAny(src, "&!") {
		return src, false
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil || !markPids(f, true) {
		return src, false
	}
	var b strings.Builder
	if syntax.NewPrinter().Print(&b, f) != nil {
		return src, false
	}
	return b.String(), true
}

// markPidsText marks the background statements and $! of a sourced
// file's text (which interp reads itself) in place, so that each line
// keeps its number and messages say file:line as written; only columns
// after a mark move. The text comes back unchanged when it has neither,
// or does not parse (interp reports the error then).
func markPidsText(src, name string) (string, bool) {
	if !mayMark(src) {
		return src, false
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(src), name)
	if err != nil {
		return src, false
	}
	return applyEdits(src, name, pidEdits(f, src), true)
}

// edit is a change to a program's text in place (see [markText]).
type edit struct {
	off, end int    // src[off:end] becomes text
	text     string // with a place to fill in, for a statement's start
	want     int    // that place as parsed: the program's offset+1
}

// placeholder is where an edit's text gets the place it wants.
const placeholder = "\x00PLACE\x00"

// pidEdits are the edits that mark the background statements and $! of
// f, parsed from src.
func pidEdits(f *syntax.File, src string) []edit {
	var edits []edit
	syntax.Walk(f, func(n syntax.Node) bool {
		pe, ok := n.(*syntax.ParamExp)
		if !ok || !isBang(pe) {
			return true
		}
		text := bangLookup
		if !isPlainBang(pe) {
			var b strings.Builder
			if syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, bangSubst(pe)) != nil {
				return true
			}
			text = b.String()
		}
		edits = append(edits, edit{off: int(pe.Pos().Offset()), end: int(pe.End().Offset()), text: text})
		return false
	})
	eachList(f, true, func(list *[]*syntax.Stmt) {
		for i, st := range *list {
			if i > 0 && isMarkedBackground(st) {
				// Printed by declare -f and sourced: the place is
				// the old text's.
				if w := reservePlace((*list)[i-1]); w != nil {
					edits = append(edits, edit{off: int(w.Pos().Offset()), end: int(w.End().Offset()),
						text: placeholder, want: markedPlace(st, false)})
				}
				continue
			}
			semi := int(st.Semicolon.Offset())
			if !st.Background || st.Disown || st.Coprocess || isMarkedBackground(st) || semi >= len(src) || src[semi] != '&' {
				continue
			}
			start := int(st.Pos().Offset())
			edits = append(edits, edit{off: start, end: start, want: programPlace(st),
				text: reserveBg(placeholder) + "; { " + startBg[0] + "; " + startBg[1] + "; "})
			// No `;` before a newline (a here-document may follow), the
			// end of a case item, or a subshell's end.
			sep := ";"
			rest := strings.TrimLeft(src[semi+1:], " \t")
			if rest == "" || rest[0] == '\n' || rest[0] == ')' || strings.HasPrefix(rest, ";;") || strings.HasPrefix(rest, ";&") {
				sep = ""
			}
			edits = append(edits, edit{off: semi, end: semi + 1, text: "; " + endBg[0] + "; } & " + endBg[1] + sep})
		}
	})
	return edits
}

// applyEdits makes the edits to src and, with check, checks that the text
// still parses; it comes back unchanged when there are none, or they
// overlap.
func applyEdits(src, name string, edits []edit, check bool) (string, bool) {
	if len(edits) == 0 {
		return src, false
	}
	// Insertions come before a replacement at the same offset.
	slices.SortStableFunc(edits, func(a, b edit) int {
		if a.off != b.off {
			return a.off - b.off
		}
		return (a.end - a.off) - (b.end - b.off)
	})
	for i := 1; i < len(edits); i++ {
		if edits[i].off < edits[i-1].end {
			return src, false // overlapping: a statement inside ${!…}
		}
	}
	// The place is where the program is in the new text: later by what
	// was inserted before it. A place has a fixed width for that.
	const width = 10
	grows := func(e edit) int {
		n := len(e.text) - (e.end - e.off)
		if strings.Contains(e.text, placeholder) {
			n += width - len(placeholder)
		}
		return n
	}
	shift := func(off int) int {
		d := 0
		for _, e := range edits {
			if e.off > off || e.off == off && e.end > e.off {
				break
			}
			d += grows(e)
		}
		return d
	}
	var b strings.Builder
	last := 0
	for _, e := range edits {
		b.WriteString(src[last:e.off])
		text := e.text
		if strings.Contains(text, placeholder) {
			place := e.want
			if place > 0 {
				place += shift(place - 1)
			}
			text = strings.Replace(text, placeholder, fmt.Sprintf("%0*d", width, place), 1)
		}
		b.WriteString(text)
		last = e.end
	}
	b.WriteString(src[last:])
	out := b.String()
	if out == src {
		return src, false // marked already, places and all
	}
	if !check {
		return out, true
	}
	if _, err := syntax.NewParser().Parse(strings.NewReader(out), name); err != nil {
		return src, false // cannot happen; the text as written is safer
	}
	return out, true
}

// mayMark reports whether src may have a background statement or a $!,
// so that a file without (most have && or 2>&1 alone) is not parsed
// twice: a `&` that is not part of &&, >&, <&, &> or |&, or a `$!` or
// `${!`.
func mayMark(src string) bool {
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '&':
			prev, next := byte(0), byte(0)
			if i > 0 {
				prev = src[i-1]
			}
			if i+1 < len(src) {
				next = src[i+1]
			}
			if next == '&' {
				i++ // && as a whole
				continue
			}
			if prev != '>' && prev != '<' && prev != '|' && next != '>' {
				return true
			}
		case '!':
			if i > 0 && (src[i-1] == '$' || src[i-1] == '{' && i > 1 && src[i-2] == '$') {
				return true
			}
		}
	}
	return false
}

// bgTable follows the background statements that were marked. Its zero
// value is ready, so that nothing of it runs at start-up.
type bgTable struct {
	active atomic.Bool // a statement was marked: commands look for tokens

	changes
	n     int
	stmts map[string]*bgStmt
	order []string // tokens, oldest first

	funcs     map[string]bool // the shell's functions, see [bgTable.fileFuncs]
	funcCount int             // how many the shell had then

	// clock is where the waits read the time; nil is the real one.
	clock *clock
}

// clock is the time the table's waits (see [lookupWait]) go by: the real
// one, or a test's, which moves only when the test says.
type clock struct {
	now func() time.Time
	// after is time.After with a way to stop it.
	after func(d time.Duration) (c <-chan time.Time, stop func())
}

var realClock = clock{
	now: time.Now,
	after: func(d time.Duration) (<-chan time.Time, func()) {
		t := time.NewTimer(d)
		return t.C, func() { t.Stop() }
	},
}

func (t *bgTable) time() *clock {
	if t.clock == nil {
		return &realClock
	}
	return t.clock
}

// bgStmt is a background statement run.
type bgStmt struct {
	want    int // the place of the call whose program $! is; 0 none, placeFirst
	procs   []bgProc
	running map[int]bool // the pids of its programs that run now
	calling bool         // the call at want has begun
	noProc  bool         // the call at want runs no program (a builtin, a function) or failed
	ended   bool
	status  int
	began   time.Time // when it was reserved, see [bgTable.settle]
	before  int       // $? before it, which it starts with
	pid     int       // $!, once asked
	standin *standin
	killed  syscall.Signal  // its stand-in was killed: it stops at its next command
	funcs   map[string]bool // the functions defined when it began, shared
	// reported is set once a wait gave its status: wait -n does not
	// give it again.
	reported bool
}

type bgProc struct{ pid, place int }

// standin is a process that stands for a statement that runs no program
// of its own: cat reading a pipe that the shell closes when the statement
// ends, so that it also ends if the shell dies.
type standin struct {
	pid  int
	pipe *os.File // nil once closed
}

// maxBgStmts bounds the table, as bash too forgets old statuses;
// maxBgProcs bounds the programs kept for a statement.
const (
	maxBgStmts = 1024
	maxBgProcs = 64
)

// reserve files a new statement that wants the program at place and
// starts with $? as before.
func (t *bgTable) reserve(want, before int) string {
	t.active.Store(true)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stmts == nil {
		// Before it, nothing waits on changed nor finds a statement.
		t.changed, t.stmts = make(chan struct{}), map[string]*bgStmt{}
	}
	t.n++
	tok := "b" + strconv.Itoa(t.n)
	t.stmts[tok] = &bgStmt{want: want, began: t.time().now(), before: before}
	t.order = append(t.order, tok)
	if len(t.order) > maxBgStmts {
		// Forget the oldest that ended; those running stay.
		kept := t.order[:0]
		for i, o := range t.order {
			if st := t.stmts[o]; st.ended && i < len(t.order)/2 {
				delete(t.stmts, o)
				continue
			}
			kept = append(kept, o)
		}
		t.order = kept
	}
	return tok
}

// wants reports whether statement tok has yet to reach the call at
// place whose program $! is.
func (t *bgTable) wants(tok string, place int) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.stmts[tok]
	return st != nil && st.want == place && !st.calling
}

// fileFuncs files for statement tok the names of the shell's functions
// (funcs, the main shell's table), for [Shell.isFuncAt]: the statement
// runs in a goroutine of its own while the shell may define functions, and
// Go's maps are not safe for a read that races a write. A statement that
// starts in another (outer) gets that one's names, as funcs may be being
// written meanwhile; this is called where the statement starts, before it
// runs. The names are kept while the shell has as many functions (a
// function replaced by another of another name is missed), and functions
// the statement defines itself are not among them.
func (t *bgTable) fileFuncs(tok, outer string, funcs map[string]*syntax.Stmt) {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.stmts[tok]
	if st == nil {
		return
	}
	if outer != "" {
		if o := t.stmts[outer]; o != nil {
			st.funcs = o.funcs
		}
		return
	}
	if t.funcs == nil || len(funcs) != t.funcCount {
		t.funcs = make(map[string]bool, len(funcs))
		for name := range funcs {
			t.funcs[name] = true
		}
		t.funcCount = len(funcs)
	}
	st.funcs = t.funcs
}

// isFunc reports whether name was a function when statement tok began.
func (t *bgTable) isFunc(tok, name string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.stmts[tok]
	return st != nil && st.funcs[name]
}

// before is the $? that statement tok starts with.
func (t *bgTable) before(tok string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if st := t.stmts[tok]; st != nil {
		return st.before
	}
	return 0
}

// calling notes that statement tok calls a command at place; program
// says whether it may run a program.
func (t *bgTable) calling(tok string, place int, program bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.stmts[tok]
	if st == nil || st.want != place || st.calling {
		return
	}
	st.calling, st.noProc = true, !program
	t.broadcast()
}

// started files a program that statement tok started at place.
func (t *bgTable) started(tok string, place, pid int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.stmts[tok]
	if st == nil {
		return
	}
	if st.running == nil {
		st.running = map[int]bool{}
	}
	st.running[pid] = true
	// A loop's programs are not all kept: $! is among the first.
	if len(st.procs) < maxBgProcs || place == st.want && st.program() == 0 {
		st.procs = append(st.procs, bgProc{pid: pid, place: place})
		t.broadcast()
	}
}

// exited notes that program pid of statement tok has ended (or is no
// longer waited for).
func (t *bgTable) exited(tok string, pid int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if st := t.stmts[tok]; st != nil {
		delete(st.running, pid)
	}
}

// failed notes that statement tok could not start the program at place.
func (t *bgTable) failed(tok string, place int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if st := t.stmts[tok]; st != nil && st.want == place {
		st.noProc = true
		t.broadcast()
	}
}

// end notes that statement tok ended with status.
func (t *bgTable) end(tok string, status int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if st := t.stmts[tok]; st != nil {
		t.ended(st, status)
	}
}

// ended notes that st ended with status; its stand-in goes. t.mu is held.
func (t *bgTable) ended(st *bgStmt, status int) {
	if st.ended {
		return
	}
	st.ended, st.status = true, status
	if st.killed != 0 {
		st.status = 128 + int(st.killed)
	}
	if st.standin != nil && st.standin.pipe != nil {
		st.standin.pipe.Close()
		st.standin.pipe = nil
	}
	t.broadcast()
}

// killedBy is the signal that killed statement tok's stand-in, if any.
func (t *bgTable) killedBy(tok string) syscall.Signal {
	t.mu.Lock()
	defer t.mu.Unlock()
	if st := t.stmts[tok]; st != nil && !st.ended {
		return st.killed
	}
	return 0
}

// signalled notes that the kill builtin sent sig to pid: if that is a
// stand-in and sig ends it, its statement stops (also when the stand-in's
// death is not noticed yet).
func (t *bgTable) signalled(pid int, sig syscall.Signal) {
	if !t.active.Load() || !terminates(sig) {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, st := range t.stmts {
		if st.standin != nil && st.standin.pid == pid && !st.ended && st.killed == 0 {
			t.kill(st, sig, true)
		}
	}
}

// signalledJob notes that a job spec's kill sent sig to a job whose
// programs are pids: a background statement that started one of them and
// runs no program where $! is (a loop, a block, a function) stops at its
// next command, as its bash subshell dies; the job's programs had the
// signal already. (A kill on a later line also cancels the job's line,
// see [Shell.killJob]; on the statement's own line that would end the
// foreground commands too.) With cancelled, the job's line was
// cancelled: its statements stop where they are, before their end
// marks, so they are ended here, killed by sig.
func (t *bgTable) signalledJob(pids []int, sig syscall.Signal, cancelled bool) {
	if !t.active.Load() || !terminates(sig) {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, st := range t.stmts {
		if st.ended || st.killed != 0 && !cancelled ||
			!slices.ContainsFunc(st.procs, func(p bgProc) bool { return slices.Contains(pids, p.pid) }) {
			continue
		}
		switch {
		case cancelled:
			st.killed = sig
			t.ended(st, 128+int(sig))
		case st.program() == 0:
			t.kill(st, sig, false)
		}
	}
}

// kill notes that st's stand-in died of sig; t.mu is held. With forward,
// the programs it runs now get the signal too: a simple command or
// pipeline whose program started only after $! settled for a stand-in (it
// waited on a redirection, say), whose bash subshell would have been that
// program; and the program a block or loop waits for, so that it stops
// now, and wait with it, as bash's wait does not wait for the orphans of
// a dead subshell.
func (t *bgTable) kill(st *bgStmt, sig syscall.Signal, forward bool) {
	st.killed = sig
	if forward {
		for pid := range st.running {
			syscall.Kill(pid, sig)
		}
	}
	t.broadcast()
}

// terminates reports whether sig's default action ends a process.
func terminates(sig syscall.Signal) bool {
	switch sig {
	case 0, syscall.SIGCHLD, syscall.SIGCONT, syscall.SIGSTOP, syscall.SIGTSTP,
		syscall.SIGTTIN, syscall.SIGTTOU, syscall.SIGURG, syscall.SIGWINCH:
		return false
	}
	return true
}

// lookupWait is how long $! waits for a statement to reach its program's
// command (expansions and redirections before it, a busy machine) before
// it settles for a stand-in, which passes its signals on to the program
// (see [bgTable.kill]); one that has reached it, but neither started nor
// failed to start a program (`exec` with none, a function named as a
// program), gets lookupTries times as long.
const (
	lookupWait  = 300 * time.Millisecond
	lookupTries = 2
)

// pid is $! for statement tok: see the top of this file. 0 when there is
// none (no statement yet, or no stand-in could start).
func (t *bgTable) pid(ctx context.Context, tok string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.stmts[tok]
	if st == nil {
		return 0
	}
	var timeout <-chan time.Time
	waits := 0
	for st.pid == 0 {
		if pid := st.program(); pid != 0 {
			st.pid = pid
			break
		}
		if st.want == 0 || st.noProc || st.ended || waits > 0 && !st.calling || waits >= lookupTries || ctx.Err() != nil {
			st.pid = t.standIn(st)
			if st.pid == 0 && len(st.procs) > 0 {
				st.pid = st.procs[0].pid
			}
			if st.pid == 0 {
				return 0
			}
			break
		}
		if timeout == nil {
			var stop func()
			timeout, stop = t.time().after(lookupWait)
			defer stop()
		}
		ch := t.changed
		t.mu.Unlock()
		select {
		case <-ch:
		case <-timeout:
			waits++
			timeout = nil
		case <-ctx.Done():
		}
		t.mu.Lock()
	}
	return st.pid
}

// settle waits until each background statement that began less than
// lookupWait ago has started a program, ended, or is known to run none
// where $! is (a builtin, a command not found), or until that time is up
// or ctx is done. Job specs and `jobs` call it first: bash forks a
// background job before the next command, so that `sleep 9 & kill %1`
// finds it, while here the job is listed only once its first program
// runs (see [jobs.start], which lists it before [bgTable.started] files
// the program). A statement that runs builtins for longer (a loop) is
// waited for only while it is that young.
func (t *bgTable) settle(ctx context.Context) {
	t.settleWhile(ctx, func(now time.Time) (until time.Time) {
		for i := len(t.order) - 1; i >= 0; i-- {
			st := t.stmts[t.order[i]]
			if st == nil {
				continue
			}
			end := st.began.Add(lookupWait)
			if !now.Before(end) {
				break // the older ones are older still
			}
			if st.unsettled() && end.After(until) {
				until = end
			}
		}
		return until
	})
}

// settleProgram is settle for statement tok alone, if it is a simple
// command or a pipeline: one whose program $! is.
func (t *bgTable) settleProgram(ctx context.Context, tok string) {
	t.settleWhile(ctx, func(now time.Time) time.Time {
		st := t.stmts[tok]
		if st == nil || st.want == 0 || !st.unsettled() || !now.Before(st.began.Add(lookupWait)) {
			return time.Time{}
		}
		return st.began.Add(lookupWait)
	})
}

// settleWhile waits while wait, called with t.mu held, says until when,
// rechecking at every change.
func (t *bgTable) settleWhile(ctx context.Context, wait func(now time.Time) time.Time) {
	if !t.active.Load() {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for ctx.Err() == nil {
		now := t.time().now()
		until := wait(now)
		if until.IsZero() {
			return
		}
		timeout, stop := t.time().after(until.Sub(now))
		ch := t.changed
		t.mu.Unlock()
		select {
		case <-ch:
		case <-timeout:
		case <-ctx.Done():
		}
		stop()
		t.mu.Lock()
	}
}

// unsettled reports whether st may yet start its first program: it has
// started none, has not ended and was not killed, and has not reached $!'s
// command without a program there.
func (st *bgStmt) unsettled() bool {
	return len(st.procs) == 0 && !st.ended && st.killed == 0 && !st.noProc
}

// program is the pid of st's program that $! is, 0 if not started.
func (st *bgStmt) program() int {
	for _, p := range st.procs {
		if st.want == placeFirst || p.place == st.want {
			return p.pid
		}
	}
	return 0
}

// standIn starts st's stand-in and returns its pid, 0 if it cannot; t.mu
// is held.
func (t *bgTable) standIn(st *bgStmt) int {
	path, err := exec.LookPath("cat")
	if err != nil {
		path = "/bin/cat"
	}
	// argv[0] says what it is in ps, as bash's subshell shows as bash.
	cmd := &exec.Cmd{Path: path, Args: []string{"qsh"},
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true}} // no Ctrl-C from the terminal
	var w *os.File
	if !st.ended {
		r, pw, err := os.Pipe()
		if err != nil {
			return 0
		}
		defer r.Close()
		cmd.Stdin, w = r, pw
	}
	if err := cmd.Start(); err != nil {
		if w != nil {
			w.Close()
		}
		return 0
	}
	si := &standin{pid: cmd.Process.Pid, pipe: w}
	st.standin = si
	go func() {
		cmd.Wait()
		ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
		t.mu.Lock()
		defer t.mu.Unlock()
		if si.pipe != nil {
			si.pipe.Close()
			si.pipe = nil
		}
		if ws.Signaled() && !st.ended && st.killed == 0 {
			t.kill(st, ws.Signal(), true)
		}
	}()
	return si.pid
}

// running is the $! of each statement still running, oldest first.
func (t *bgTable) running(ctx context.Context) []int {
	if !t.active.Load() {
		return nil
	}
	t.mu.Lock()
	var toks []string
	for _, tok := range t.order {
		if st := t.stmts[tok]; st != nil && !st.ended && st.killed == 0 {
			toks = append(toks, tok)
		}
	}
	t.mu.Unlock()
	var pids []int
	for _, tok := range toks {
		if pid := t.pid(ctx, tok); pid > 0 {
			pids = append(pids, pid)
		}
	}
	return pids
}

// find is the statement whose $! or program pid is.
func (t *bgTable) find(pid int) *bgStmt {
	if !t.active.Load() {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var found *bgStmt
	for _, st := range t.stmts {
		if st.pid == pid {
			return st
		}
		for _, p := range st.procs {
			if p.pid == pid {
				found = st
			}
		}
	}
	return found
}

// await waits until st has ended, or its stand-in was killed (as bash's
// wait returns when the subshell dies, whatever its programs do), and
// returns its status; ok is false when ctx was cancelled first.
func (t *bgTable) await(ctx context.Context, st *bgStmt) (status int, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.awaitLocked(ctx, st.over) {
		return 130, false
	}
	st.reported = true
	return st.result(), true
}

// awaitNext is `wait -n`: it waits until one of the statements among
// picks that wait -n has not reported yet is over, and returns its status
// and its programs' pids; found is false when none is left, ok when ctx
// was cancelled first.
func (t *bgTable) awaitNext(ctx context.Context, among func(*bgStmt) bool) (status int, pids []int, found, ok bool) {
	if !t.active.Load() {
		return 127, nil, false, true
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var next *bgStmt
	ok = t.awaitLocked(ctx, func() bool {
		next = nil
		running := false
		for _, tok := range t.order {
			st := t.stmts[tok]
			if st == nil || st.reported || !among(st) {
				continue
			}
			if st.over() {
				next = st
				return true
			}
			running = true
		}
		return !running
	})
	if !ok {
		return 130, nil, true, false
	}
	if next == nil {
		return 127, nil, false, true
	}
	next.reported = true
	for _, p := range next.procs {
		pids = append(pids, p.pid)
	}
	return next.result(), pids, true, true
}

// reportAll notes that a wait for every job has reported the statements
// over: wait -n does not report them again, as in bash.
func (t *bgTable) reportAll() {
	if !t.active.Load() {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, st := range t.stmts {
		if st.over() {
			st.reported = true
		}
	}
}

// over reports whether the statement has ended, or its stand-in was
// killed.
func (st *bgStmt) over() bool { return st.ended || st.killed != 0 }

// result is the status of a statement that is over.
func (st *bgStmt) result() int {
	if st.killed != 0 {
		return 128 + int(st.killed)
	}
	return st.status
}

// bgToken is the token of the background statement a command runs in, if
// any.
func (s *Shell) bgToken(hc interp.HandlerContext) string {
	if !s.bgs.active.Load() {
		return ""
	}
	return hc.Env.Get(bgVar).String()
}

// noteCall is for [Shell.call]: in a background statement whose stand-in
// was killed, the command becomes `exit 128+N`; otherwise the table learns
// that the statement reached it. ok is false when args are unchanged.
func (s *Shell) noteCall(ctx context.Context, args []string) ([]string, bool) {
	if !s.bgs.active.Load() || strings.HasPrefix(args[0], markPrefix) {
		return nil, false
	}
	hc := interp.HandlerCtx(ctx)
	tok := s.bgToken(hc)
	if tok == "" {
		return nil, false
	}
	if sig := s.bgs.killedBy(tok); sig != 0 {
		return []string{"exit", strconv.Itoa(128 + int(sig))}, true
	}
	if p := place(hc.Pos); s.bgs.wants(tok, p) {
		s.bgs.calling(tok, p, mayRunProgram(hc, args[0]))
	}
	return nil, false
}

// mayRunProgram reports whether a command named name may run a program:
// not a builtin (bar exec and command), nor a name that PATH lacks (a
// function, or a command not found). It does not look at the functions:
// this runs in the background statement's goroutine, and the shell's
// table of functions is the main shell's, written there as it runs (and
// not the subshell's, which has its own). So a function named as a
// program is taken for one, and $! waits for it as for a program that is
// slow to start (see [lookupTries]).
func mayRunProgram(hc interp.HandlerContext, name string) bool {
	switch {
	case name == "exec" || name == "command":
		return true
	case interp.IsBuiltin(name) || ownBuiltins[name]:
		return false
	}
	_, err := interp.LookPathDir(hc.Dir, hc.Env, name)
	return err == nil
}

// bgStarted and bgFailed file a program of a background statement.
func (s *Shell) bgStarted(hc interp.HandlerContext, pid int) {
	if tok := s.bgToken(hc); tok != "" {
		s.bgs.started(tok, place(hc.Pos), pid)
	}
}

// bgExited notes that program pid, which [Shell.bgStarted] filed, ended.
func (s *Shell) bgExited(hc interp.HandlerContext, pid int) {
	if tok := s.bgToken(hc); tok != "" {
		s.bgs.exited(tok, pid)
	}
}

func (s *Shell) bgFailed(hc interp.HandlerContext) {
	if tok := s.bgToken(hc); tok != "" {
		s.bgs.failed(tok, place(hc.Pos))
	}
}

// pidBuiltin runs the marks' builtins.
func (s *Shell) pidBuiltin(ctx context.Context, hc interp.HandlerContext, args []string) error {
	switch args[0] {
	case bgMark:
		want := 0
		if len(args) > 1 {
			want, _ = strconv.Atoi(args[1])
		}
		// In the substitution, $? is still the one before the statement.
		tok := s.bgs.reserve(want, hc.LastExitStatus)
		s.bgs.fileFuncs(tok, s.bgToken(hc), s.runner.Funcs)
		_, err := hc.Stdout.Write([]byte(tok))
		return err
	case bgStartMark:
		// interp runs a subshell's EXIT trap when it exits (exit, set
		// -e), not when it ends otherwise: the block's end says that.
		if err := hc.Builtin(ctx, []string{"trap", bgEndMark + " 2>/dev/null", "EXIT"}); err != nil {
			return err
		}
		return exitStatus(s.bgs.before(s.bgToken(hc)))
	case bgEndMark:
		if tok := s.bgToken(hc); tok != "" {
			s.bgs.end(tok, hc.LastExitStatus)
		}
		return exitStatus(hc.LastExitStatus)
	case pidMark:
		if len(args) > 1 && args[1] != "" {
			if pid := s.bgs.pid(ctx, args[1]); pid > 0 {
				_, err := hc.Stdout.Write([]byte(strconv.Itoa(pid)))
				return err
			}
		}
	}
	return nil
}
