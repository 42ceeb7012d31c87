package marks

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// $! is bash's: the process ID of the last background job, which kill, ps
// and wait know. interp's is "g1", "g2"…, an index into its goroutines,
// and interp offers no hook in it; so a program is rewritten before it
// runs (see [markPids]). A background statement `cmd &` becomes
//
//	declare -g __qsh_nextbg=$(__qsh_bg PLACE 2>/dev/null)
//	{ declare -g __qsh_bg=$__qsh_nextbg; __qsh_bgstart 2>/dev/null && : 2>/dev/null; cmd; __qsh_bgend 2>/dev/null; } &
//	declare -g __qsh_lastbg=$__qsh_nextbg
//
// and $! becomes $(__qsh_pid "${__qsh_lastbg-}" 2>/dev/null). The first
// line gets the statement a token, which its subshell (and only it: the
// foreground, maybe another background statement, keeps its own) has as
// __qsh_bg: the programs it starts are filed under it (see
// the shell's bgTable.started). The block tells when it ends, also by exit or set
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
//     command (see the shell's noteCall); wait returns at once with 128+N,
//     as for bash's dead subshell. A
//     statement that has ended gets a stand-in that has exited, so kill
//     says "No such process" and wait gives its status, as bash's would.
//     A made-up number would be simpler but could name someone else's
//     process, and ps would not know it.
//
// Marked: -c strings, scripts, command lines, eval strings, EXIT traps,
// and files run with source or `.` (the rc files and profiles too), which
// interp reads and parses itself: the open handler gives it their text
// marked in place, each line where it was, so that messages still say
// file:line (see [markPidsText]; only the columns after a mark move). A
// function is marked with the code that defines it.

const (
	BgVar       = "__qsh_bg"      // the token of the statement, in its subshell
	nextBgVar   = "__qsh_nextbg"  // the token of the statement about to start
	LastBgVar   = "__qsh_lastbg"  // the token $! stands for
	BgMark      = "__qsh_bg"      // builtin: a new token
	BgStartMark = "__qsh_bgstart" // builtin: the statement began
	BgEndMark   = "__qsh_bgend"   // builtin: the statement ended
	PidMark     = "__qsh_pid"     // builtin: what $! is
	Prefix      = "__qsh_"        // all of qsh's marks
)

// PlaceFirst is the place wanted for code whose source positions change
// before it runs (an eval string): the statement's first program.
const PlaceFirst = -1

// markPids rewrites node's background statements and its $! as described
// above; it reports whether it changed anything. With first, node is an
// eval string, whose positions change before it runs (see [PlaceFirst]).
func markPids(node syntax.Node, first bool) bool {
	// A whole program (not an eval string, nor a function's body) runs
	// in the shell itself, where set -u may check $!.
	_, file := node.(*syntax.File)
	changed := markBang(node, file && !first)
	mark := func(list *[]*syntax.Stmt) {
		var out []*syntax.Stmt
		for i, st := range *list {
			if first && i > 0 && IsMarkedBackground(st) && refreshPlace(*list, i, first) {
				changed = true
			}
			if !IsBackground(st) || IsMarkedBackground(st) {
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
				// The job's mark (see [markBackground]) sets $?
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
	EachList(node, true, mark)
	return changed
}

// EachList calls mark with each list of statements in node, before it
// looks inside them; in command and process substitutions only if substs.
func EachList(node syntax.Node, substs bool, mark func(list *[]*syntax.Stmt)) {
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
		want = PlaceFirst
	}
	inner := *st
	inner.Background, inner.Disown, inner.Comments = false, false, nil
	wrapped := &syntax.Stmt{Position: st.Position, Comments: st.Comments,
		Background: st.Background, Disown: st.Disown,
		Cmd: &syntax.Block{Stmts: []*syntax.Stmt{
			ParseStmt(bgSetToken), ParseStmt(bgStartCall), &inner, ParseStmt(bgEndCall)}}}
	return []*syntax.Stmt{
		ParseStmt(reserveBg(strconv.Itoa(want))),
		wrapped,
		ParseStmt(bgSetLast),
	}
}

// The marks of a background statement (see the top of this file): the
// block's first two statements, its last, and the line after it.
const (
	bgSetToken  = "declare -g " + BgVar + "=$" + nextBgVar
	bgStartCall = BgStartMark + " 2>/dev/null && : 2>/dev/null"
	bgEndCall   = BgEndMark + " 2>/dev/null"
	bgSetLast   = "declare -g " + LastBgVar + "=$" + nextBgVar
)

func reserveBg(place string) string {
	return "declare -g " + nextBgVar + "=$(" + BgMark + " " + place + " 2>/dev/null)"
}

// refreshPlace gives the marked background statement list[i] of a text parsed
// again (a function printed by declare -f, then run by eval) the place of
// its program in this text, in its first line, list[i-1] (or before the
// job's mark there); it reports whether that changed.
func refreshPlace(list []*syntax.Stmt, i int, first bool) bool {
	j := i - 1
	for j > 0 && isJobMark(list[j]) {
		j-- // marked for a job at the prompt, see [markBackground]
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
		want = PlaceFirst
	}
	return want
}

// reservePlace is the word of the place in st, the first line of a
// marked background statement; nil if st is not one.
func reservePlace(st *syntax.Stmt) *syntax.Word {
	if call := markCall(st, nextBgVar); call != nil && len(call.Args) == 2 && call.Args[0].Lit() == BgMark {
		return call.Args[1]
	}
	return nil
}

// isJobMark reports whether st is a line of a job's marks, see
// [markBackground].
func isJobMark(st *syntax.Stmt) bool { return markCall(st, JobVar) != nil }

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

// IsMarkedBackground reports whether st was marked already (a function
// body marked on an earlier line).
func IsMarkedBackground(st *syntax.Stmt) bool {
	b, ok := st.Cmd.(*syntax.Block)
	if !ok || len(b.Stmts) < 2 {
		return false
	}
	start := b.Stmts[1]
	if and, ok := start.Cmd.(*syntax.BinaryCmd); ok {
		start = and.X
	}
	call, ok := start.Cmd.(*syntax.CallExpr)
	return ok && len(call.Args) > 0 && call.Args[0].Lit() == BgStartMark
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
			return Place(cmd.Args[0].Pos())
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
func Place(pos syntax.Pos) int { return int(pos.Offset()) + 1 }

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
		pe2.Param = &syntax.Lit{Value: Prefix + "x"}
		pe2.Short = false
		var b strings.Builder
		if syntax.NewPrinter().Print(&b, &pe2) == nil {
			src = "$(" + Prefix + "x=$(" + lookup + ") 2>/dev/null; printf %s \"" + b.String() + "\" 2>/dev/null)"
		}
	}
	st := ParseStmt(": " + src)
	return st.Cmd.(*syntax.CallExpr).Args[1].Parts[0]
}

// bangLookup is what a plain $! becomes.
const bangLookup = "$(" + PidMark + ` "${` + LastBgVar + `-}" 2>/dev/null)`

// isPlainBang reports whether pe is $! or ${!}.
func isPlainBang(pe *syntax.ParamExp) bool {
	return pe.Param != nil && pe.Param.Value == "!" && !pe.Excl && pe.Exp == nil && !pe.Length &&
		!pe.Width && pe.Slice == nil && pe.Repl == nil && pe.Names == 0 && pe.Index == nil
}

// Trap rewrites each plain $! of an EXIT trap's command in place, in
// the text, which `trap -p` shows again through [Untrap].
func Trap(src string) string {
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

// Untrap is a trap's command as the user gave it (but ${!} as $!).
func Untrap(src string) string { return strings.ReplaceAll(src, bangLookup, "$!") }

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
	return Apply(src, name, pidEdits(f, src), true)
}

// Edit is a change to a program's text in place (see [Apply]).
type Edit struct {
	Off, End int    // src[Off:End] becomes Text
	Text     string // with a place to fill in, for a statement's start
	want     int    // that place as parsed: the program's offset+1
	// optional is set for an insertion that [Apply] leaves out when it
	// falls inside another edit (a function's mark inside a ${!…} or a
	// loop package rewrite replaces), rather than leave the text
	// unmarked.
	optional bool
}

// placeholder is where an Edit's text gets the place it wants.
const placeholder = "\x00PLACE\x00"

// pidEdits are the edits that mark the background statements and $! of
// f, parsed from src.
func pidEdits(f *syntax.File, src string) []Edit {
	var edits []Edit
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
		edits = append(edits, Edit{Off: int(pe.Pos().Offset()), End: int(pe.End().Offset()), Text: text})
		return false
	})
	EachList(f, true, func(list *[]*syntax.Stmt) {
		for i, st := range *list {
			if i > 0 && IsMarkedBackground(st) {
				// Printed by declare -f and sourced: the place is
				// the old text's.
				if w := reservePlace((*list)[i-1]); w != nil {
					edits = append(edits, Edit{Off: int(w.Pos().Offset()), End: int(w.End().Offset()),
						Text: placeholder, want: markedPlace(st, false)})
				}
				continue
			}
			semi := int(st.Semicolon.Offset())
			if !st.Background || st.Disown || st.Coprocess || IsMarkedBackground(st) || semi >= len(src) || src[semi] != '&' {
				continue
			}
			start := int(st.Pos().Offset())
			edits = append(edits, Edit{Off: start, End: start, want: programPlace(st),
				Text: reserveBg(placeholder) + "; { " + bgSetToken + "; " + bgStartCall + "; "})
			// No `;` before a newline (a here-document may follow), the
			// end of a case item, or a subshell's end.
			sep := ";"
			rest := strings.TrimLeft(src[semi+1:], " \t")
			if rest == "" || rest[0] == '\n' || rest[0] == ')' || strings.HasPrefix(rest, ";;") || strings.HasPrefix(rest, ";&") {
				sep = ""
			}
			edits = append(edits, Edit{Off: semi, End: semi + 1, Text: "; " + bgEndCall + "; } & " + bgSetLast + sep})
		}
	})
	return edits
}

// Apply makes the edits to src and, with check, checks that the text
// still parses; it comes back unchanged when there are none, or they
// overlap.
func Apply(src, name string, edits []Edit, check bool) (string, bool) {
	if len(edits) == 0 {
		return src, false
	}
	// Insertions come before a replacement at the same offset.
	slices.SortStableFunc(edits, func(a, b Edit) int {
		if a.Off != b.Off {
			return a.Off - b.Off
		}
		return (a.End - a.Off) - (b.End - b.Off)
	})
	kept := edits[:0:0]
	for _, e := range edits {
		if n := len(kept); n > 0 && e.Off < kept[n-1].End {
			if e.optional {
				continue
			}
			return src, false // overlapping: a statement inside ${!…}
		}
		kept = append(kept, e)
	}
	edits = kept
	// The place is where the program is in the new Text: later by what
	// was inserted before it. A place has a fixed width for that.
	const width = 10
	grows := func(e Edit) int {
		n := len(e.Text) - (e.End - e.Off)
		if strings.Contains(e.Text, placeholder) {
			n += width - len(placeholder)
		}
		return n
	}
	shift := func(off int) int {
		d := 0
		for _, e := range edits {
			if e.Off > off || e.Off == off && e.End > e.Off {
				break
			}
			d += grows(e)
		}
		return d
	}
	var b strings.Builder
	last := 0
	for _, e := range edits {
		b.WriteString(src[last:e.Off])
		text := e.Text
		if strings.Contains(text, placeholder) {
			place := e.want
			if place > 0 {
				place += shift(place - 1)
			}
			text = strings.Replace(text, placeholder, fmt.Sprintf("%0*d", width, place), 1)
		}
		b.WriteString(text)
		last = e.End
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
