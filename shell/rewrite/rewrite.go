// Package rewrite changes the text of a bash program, before interp parses
// and runs it, where interp would run it otherwise than bash does:
//
//   - A C-style loop `for ((…)); do …; done` stops after an iteration whose
//     last command failed (interp checks the status between iterations).
//     The body's status is filed and the loop given 0, then the loop's
//     status is the body's again:
//     `{ declare __qsh_ls=0; for ((…)); do declare __qsh_ls=0; …; declare
//     __qsh_ls=$?; done; __qsh_status "$__qsh_ls" 2>/dev/null && declare
//     __qsh_ls=0; }` — declare because interp's set -x does not trace it,
//     the status in an && list, which set -e and the ERR trap ignore as
//     bash does a loop's.
//   - A pattern of [[ == ]], [[ != ]] or case with an extended group interp
//     cannot match: one with an expansion inside (+($x): interp's parser
//     keeps the group literal), or a !(…) (interp matches it only between
//     fixed text). The pattern becomes `$(__qsh_pat WORD KIND PIECE…)`,
//     the word and the pattern's pieces, each "p" (pattern text) or "l"
//     (literal, from quotes); qsh's builtin matches them (package extglob)
//     and prints * or a pattern that cannot match the word.
//   - `declare -A m=([-x]=1 [a-b]=2)`: interp's parser reads a key as
//     arithmetic, which interp cannot take for an associative array (it
//     panics). The keys of a declaration with -A are quoted: ['-x'].
//   - `${a+"${a[@]}"}` (and :+), the idiom for an array that may be unset
//     under set -u: interp splits the quoted word and drops its empty
//     elements. It becomes `"${a[@]}"`, the same fields (for :+, unless the
//     first element is empty).
//   - `${x/#pat/rep}` and `${x/%pat/rep}` (for arrays too, `${a[@]/#/-F}`):
//     interp takes the # or % for part of the pattern; a replacement or
//     removal (${x##*/?(:)}) whose pattern has an extended group: interp
//     matches those without extglob; and one whose pattern has a quoted part
//     that is or may be a pattern character (${line#*"$match"}): interp
//     matches it as pattern text. The statement is put
//     in braces after a builtin that computes the values, `{ __qsh_repl
//     __qsh_rN MODE REP PIECE… -- VALUE…; STATEMENT; }`, and the expansion
//     becomes `${__qsh_rN[@]}` (or [*], or the scalar).
//   - `local -i n=EXPR` (declare, typeset): interp refuses the integer
//     attribute. It becomes `local n=$((EXPR))`.
//   - `declare +x NAME`, refused by interp: the +x is dropped.
//   - `declare -f`/`-F` (typeset too), which interp runs itself and
//     without -F: `builtin declare -F f`, which the shell answers.
//   - `f() { …; } && cmd` defines f and runs cmd in bash; interp's parser
//     makes `{ …; } && cmd` the body of f. The definition is put in braces:
//     `{ f() { …; }; } && cmd`.
//
// Each line keeps its number, so that messages still say file:line: the
// changes are insertions and replacements within lines.
package rewrite

import (
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The builtins the rewritten text calls, and its variable.
const (
	StatusBuiltin  = "__qsh_status" // __qsh_status N: returns N
	PatternBuiltin = "__qsh_pat"    // see the package documentation
	ReplBuiltin    = "__qsh_repl"   // see the package documentation
	loopVar        = "__qsh_ls"
)

// Text rewrites the program src (name is for parse errors, which leave it
// unchanged: interp reports them); ok is false when nothing changed.
func Text(src, name string) (string, bool) {
	if !MayNeed(src) {
		return src, false
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(src), name)
	if err != nil {
		return src, false
	}
	edits := Edits(f, src)
	if len(edits) == 0 {
		return src, false
	}
	return apply(src, edits)
}

// Edits are the changes Text makes to src, parsed as f: for a caller that
// makes changes of its own from the same parse.
func Edits(f *syntax.File, src string) []Edit {
	var edits []Edit
	var stack []syntax.Node // the nodes from f to the one walked
	repls := 0
	// Substitutions whose pattern takes a variable wait for the walk to
	// have seen the file's assignments: a variable set to text with an
	// extended group makes a pattern interp cannot match.
	type pending struct {
		pe    *syntax.ParamExp
		stack []syntax.Node
	}
	var later []pending
	var ext map[string]bool
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		var parent syntax.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *syntax.ParamExp:
			_, quoted := parent.(*syntax.DblQuoted)
			if !quoted {
				edits = append(edits, arrayAltEdits(n)...)
			}
			if e := replEdits(src, n, stack, nil, repls+1); e != nil {
				repls++
				edits = append(edits, e...)
			} else if patternVars(n) {
				later = append(later, pending{n, slices.Clone(stack)})
			}
		case *syntax.Assign:
			if n.Name != nil && n.Value != nil && hasExtOp(literalText(n.Value)) {
				if ext == nil {
					ext = map[string]bool{}
				}
				ext[n.Name.Value] = true
			}
		case *syntax.ForClause:
			edits = append(edits, loopEdits(src, n)...)
		case *syntax.FuncDecl:
			if !bashFunc(src, n) {
				// zsh's anonymous and multi-name forms, which the parser
				// takes: bash rejects them, so nothing inside is ours to
				// mend, and a mended body may stop parsing at all.
				stack = stack[:len(stack)-1]
				return false
			}
			edits = append(edits, funcEdits(src, n)...)
		case *syntax.DeclClause:
			edits = append(edits, keyEdits(src, n)...)
			edits = append(edits, funcsEdits(n)...)
			edits = append(edits, intEdits(src, n)...)
			edits = append(edits, unexportEdits(n)...)
		case *syntax.TestClause:
			walkTest(n.X, func(b *syntax.BinaryTest) {
				x, okX := b.X.(*syntax.Word)
				y, okY := b.Y.(*syntax.Word)
				if okX && okY {
					edits = append(edits, patternEdits(x, y)...)
				}
			})
		case *syntax.CaseClause:
			for _, it := range n.Items {
				for _, p := range it.Patterns {
					edits = append(edits, patternEdits(n.Word, p)...)
				}
			}
		}
		return true
	})
	for _, p := range later {
		if e := replEdits(src, p.pe, p.stack, ext, repls+1); e != nil {
			repls++
			edits = append(edits, e...)
		}
	}
	return edits
}

// patternVars reports whether a substitution's pattern takes an unquoted
// variable.
func patternVars(pe *syntax.ParamExp) bool {
	var w *syntax.Word
	switch {
	case pe.Repl != nil:
		w = pe.Repl.Orig
	case pe.Exp != nil:
		w = pe.Exp.Word
	}
	return w != nil && slices.ContainsFunc(w.Parts, func(p syntax.WordPart) bool { _, ok := p.(*syntax.ParamExp); return ok })
}

// replEdits are the edits of a substitution with a pattern interp cannot
// take: an anchored replacement ${x/#pat/rep} or ${x/%pat/rep}, or a
// replacement or removal (#, ##, %, %%) whose pattern has an extended
// group, which interp matches without extglob; stack holds the nodes down
// to it and n is the number of its variable.
func replEdits(src string, pe *syntax.ParamExp, stack []syntax.Node, ext map[string]bool, n int) []Edit {
	if pe.Param == nil || pe.Length {
		return nil
	}
	if pe.Excl {
		return keysEdits(src, pe, stack, n)
	}
	var mode, rep string
	var parts []syntax.WordPart
	switch {
	case pe.Repl != nil && pe.Repl.Orig != nil && len(pe.Repl.Orig.Parts) > 0:
		r := pe.Repl
		parts = slices.Clone(r.Orig.Parts)
		mode = "/"
		if r.All {
			mode = "//"
		} else if first, ok := parts[0].(*syntax.Lit); ok && first.Value != "" && (first.Value[0] == '#' || first.Value[0] == '%') {
			mode = first.Value[:1]
			if rest := first.Value[1:]; rest != "" {
				parts[0] = &syntax.Lit{Value: rest}
			} else {
				parts = parts[1:]
			}
		}
		if mode != "#" && mode != "%" && !hasExtGlob(parts, ext) && !quotedGlob(parts) {
			return nil
		}
		rep = "''"
		if r.With != nil {
			w, ok := quotedWord(r.With)
			if !ok {
				return nil
			}
			rep = w
		}
	case pe.Exp != nil && pe.Exp.Word != nil && (hasExtGlob(pe.Exp.Word.Parts, ext) || quotedGlob(pe.Exp.Word.Parts)):
		switch pe.Exp.Op {
		case syntax.RemSmallPrefix:
			mode = "#s"
		case syntax.RemLargePrefix:
			mode = "#"
		case syntax.RemSmallSuffix:
			mode = "%s"
		case syntax.RemLargeSuffix:
			mode = "%"
		default:
			return nil
		}
		parts, rep = pe.Exp.Word.Parts, "''"
	default:
		return nil
	}
	name := pe.Param.Value
	values, ref := `"${`+name+`}"`, ""
	idx, _ := pe.Index.(*syntax.Word)
	switch {
	case pe.Index == nil && (name == "@" || name == "*"):
		ref = "[" + name + "]"
	case idx != nil && (idx.Lit() == "@" || idx.Lit() == "*"):
		values, ref = `"${`+name+`[@]}"`, "["+idx.Lit()+"]"
	case pe.Index != nil:
		values = `"${` + name + "[" + src[int(pe.Index.Pos().Offset()):int(pe.Index.End().Offset())] + `]}"`
	}
	v := fmt.Sprintf("%s%d", replVar, n)
	args := []string{ReplBuiltin, v, singleQuote(mode), rep}
	for _, part := range parts {
		pieces, ok := patternPieces(part)
		if !ok {
			return nil
		}
		args = append(args, pieces...)
	}
	args = append(args, "--", values)
	return computed(pe, stack, args, "${"+v+ref+"}")
}

// keysEdits have the builtin compute `${!a[@]}` (and [*]), the keys of an
// array: interp fails on an unset one ("invalid indirect expansion", which
// ends a script), where bash expands to nothing — as in the idiom for
// arrays that may be unset, `${a[@]+"${!a[@]}"}`, since interp expands
// the word after + either way.
func keysEdits(src string, pe *syntax.ParamExp, stack []syntax.Node, n int) []Edit {
	idx, _ := pe.Index.(*syntax.Word)
	if pe.Names != 0 || idx == nil || idx.Lit() != "@" && idx.Lit() != "*" || pe.Exp != nil || pe.Repl != nil ||
		pe.Slice != nil || !syntax.ValidName(pe.Param.Value) {
		return nil
	}
	v := fmt.Sprintf("%s%d", replVar, n)
	args := []string{ReplBuiltin, v, "keys", "''", "--", pe.Param.Value}
	return computed(pe, stack, args, "${"+v+"["+idx.Lit()+"]}")
}

// computed puts the statement around pe (the last of stack) in braces after
// the builtin call args, which computes the values pe stands for into an
// array, and makes pe ref, the expansion of that array.
func computed(pe *syntax.ParamExp, stack []syntax.Node, args []string, ref string) []Edit {
	var st *syntax.Stmt
	for i := len(stack) - 1; i >= 0 && st == nil; i-- {
		st, _ = stack[i].(*syntax.Stmt)
	}
	if st == nil || st.Background || st.Coprocess || st.Disown {
		return nil
	}
	start, end := int(st.Pos().Offset()), stmtEnd(st)
	return []Edit{
		{Off: start, End: start, Text: "{ " + strings.Join(args, " ") + " 2>/dev/null; "},
		{Off: int(pe.Pos().Offset()), End: int(pe.End().Offset()), Text: ref},
		{Off: end, End: end, Text: "; }"},
	}
}

// hasExtGlob reports whether a pattern has an extended group: inside a
// parameter expansion, interp's parser keeps it in the literal text. A
// variable of ext, unquoted, counts as one: a variable the file sets to
// text with an extended group (${cur##$redir}).
func hasExtGlob(parts []syntax.WordPart, ext map[string]bool) bool {
	return slices.ContainsFunc(parts, func(p syntax.WordPart) bool {
		switch p := p.(type) {
		case *syntax.ExtGlob:
			return true
		case *syntax.Lit:
			return hasExtOp(p.Value)
		case *syntax.ParamExp:
			return p.Param != nil && ext[p.Param.Value]
		}
		return false
	})
}

// quotedGlob reports whether a pattern has a quoted part that is, or may
// be, a pattern character: interp expands the pattern of ${x#…} and
// ${x/…/…} with the quotes removed and then matches, so that
// ${line#*"$match"} takes the [ of "[-v]" for a bracket expression.
func quotedGlob(parts []syntax.WordPart) bool {
	return slices.ContainsFunc(parts, func(p syntax.WordPart) bool {
		switch p := p.(type) {
		case *syntax.SglQuoted:
			return strings.ContainsAny(p.Value, `*?[\`)
		case *syntax.DblQuoted:
			return slices.ContainsFunc(p.Parts, func(q syntax.WordPart) bool {
				l, ok := q.(*syntax.Lit)
				return !ok || strings.ContainsAny(l.Value, `*?[\`)
			})
		}
		return false
	})
}

// literalText is the literal text of a word: its quoted and unquoted
// literal parts, expansions left out.
func literalText(w *syntax.Word) string {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(l.Value)
				}
			}
		}
	}
	return b.String()
}

func hasExtOp(s string) bool {
	for _, op := range []string{"?(", "*(", "+(", "@(", "!("} {
		if strings.Contains(s, op) {
			return true
		}
	}
	return false
}

// stmtEnd is where st's text ends on its line, before its ; or &
// (and a here-document's body).
func stmtEnd(st *syntax.Stmt) int {
	end := st.Pos()
	if st.Cmd != nil {
		end = st.Cmd.End()
	}
	for _, r := range st.Redirs {
		e := r.End()
		if r.Hdoc != nil { // the body comes on the lines after
			e = r.Word.End()
		}
		if e.After(end) {
			end = e
		}
	}
	return int(end.Offset())
}

// replVar names the arrays of anchored replacements.
const replVar = "__qsh_r"

// arrayAltEdits replace ${a+"${a[@]}"} with "${a[@]}".
func arrayAltEdits(pe *syntax.ParamExp) []Edit {
	if pe.Param == nil || pe.Exp == nil || pe.Index != nil || pe.Excl || pe.Length ||
		pe.Exp.Op != syntax.AlternateUnset && pe.Exp.Op != syntax.AlternateUnsetOrNull ||
		pe.Exp.Word == nil || len(pe.Exp.Word.Parts) != 1 {
		return nil
	}
	dq, ok := pe.Exp.Word.Parts[0].(*syntax.DblQuoted)
	if !ok || len(dq.Parts) != 1 {
		return nil
	}
	in, ok := dq.Parts[0].(*syntax.ParamExp)
	if !ok || in.Param == nil || in.Param.Value != pe.Param.Value || in.Exp != nil || in.Slice != nil ||
		in.Repl != nil || in.Excl || in.Length {
		return nil
	}
	if w, ok := in.Index.(*syntax.Word); !ok || w.Lit() != "@" {
		return nil
	}
	return []Edit{{Off: int(pe.Pos().Offset()), End: int(pe.End().Offset()), Text: `"${` + pe.Param.Value + `[@]}"`}}
}

// MayNeed is a quick look for what a rewrite is about: most programs need
// no second parse.
func MayNeed(src string) bool {
	has := func(sub string) bool { return strings.Contains(src, sub) }
	return quotedPattern(src) ||
		declFlag(src, "fFi") ||
		has(" +x") && (has("declare") || has("typeset") || has("local")) ||
		has("${!") ||
		has("/#") || has("/%") ||
		has(`+"${`) ||
		has("-A") && has("=([") ||
		has("((") && has("for") ||
		braceThenList(src) ||
		has("(") && strings.ContainsAny(src, "!$`") &&
			(has("!(") || has("@(") || has("+(") || has("*(") || has("?("))
}

// braceThenList reports whether a } is followed by &&, || or |, or by a
// redirection, which may come before them.
func braceThenList(src string) bool {
	for i := strings.IndexByte(src, '}'); i >= 0; {
		rest := strings.TrimLeft(src[i+1:], " \t")
		if strings.HasPrefix(rest, "&&") || rest != "" && strings.IndexByte("|<>", rest[0]) >= 0 {
			return true
		}
		j := strings.IndexByte(src[i+1:], '}')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// quotedPattern reports whether a ${…} may have a pattern with quotes:
// a #, % or / and a quote before the next }.
func quotedPattern(src string) bool {
	for i := strings.Index(src, "${"); i >= 0; {
		rest := src[i+2:]
		end := strings.IndexByte(rest, '}')
		if end < 0 {
			return false
		}
		if in := rest[:end]; strings.ContainsAny(in, "#%/") && strings.ContainsAny(in, `"'`) {
			return true
		}
		j := strings.Index(rest, "${")
		if j < 0 {
			return false
		}
		i += 2 + j
	}
	return false
}

// Edit replaces src[Off:End] with Text; Off == End inserts.
type Edit struct {
	Off, End int
	Text     string
}

func apply(src string, edits []Edit) (string, bool) {
	// Insertions before replacements at the same offset; otherwise in
	// the order made, so that nested insertions nest.
	slices.SortStableFunc(edits, func(a, b Edit) int { return a.Off - b.Off })
	for i := 1; i < len(edits); i++ {
		if edits[i].Off < edits[i-1].End {
			return src, false // overlapping: leave the program as it is
		}
	}
	var b strings.Builder
	last := 0
	for _, e := range edits {
		b.WriteString(src[last:e.Off])
		b.WriteString(e.Text)
		last = e.End
	}
	b.WriteString(src[last:])
	return b.String(), true
}

// loopEdits are the edits of a C-style loop written with do and done.
func loopEdits(src string, fc *syntax.ForClause) []Edit {
	if _, ok := fc.Loop.(*syntax.CStyleLoop); !ok || fc.Braces || fc.Select {
		return nil
	}
	for_, do, done := int(fc.ForPos.Offset()), int(fc.DoPos.Offset()), int(fc.DonePos.Offset())
	if !strings.HasPrefix(src[do:], "do") || !strings.HasPrefix(src[done:], "done") {
		return nil
	}
	return []Edit{
		{Off: for_, End: for_, Text: "{ declare " + loopVar + "=0; "},
		{Off: do + 2, End: do + 2, Text: " declare " + loopVar + "=0;"},
		{Off: done, End: done, Text: "declare " + loopVar + "=$?; "},
		{Off: done + 4, End: done + 4, Text: "; " + StatusBuiltin + ` "$` + loopVar + `" 2>/dev/null && declare ` + loopVar + "=0; }"},
	}
}

// keyEdits quote the keys of an associative array declared with its
// elements that interp's parser took for arithmetic.
func keyEdits(src string, d *syntax.DeclClause) []Edit {
	assoc := false
	for _, as := range d.Args {
		if as.Naked && as.Name == nil && as.Value != nil {
			if flags := as.Value.Lit(); strings.HasPrefix(flags, "-") && strings.Contains(flags, "A") {
				assoc = true
			}
		}
	}
	if !assoc {
		return nil
	}
	var edits []Edit
	for _, as := range d.Args {
		if as.Array == nil {
			continue
		}
		for _, el := range as.Array.Elems {
			if el.Index == nil {
				continue
			}
			if _, ok := el.Index.(*syntax.Word); ok {
				continue
			}
			off, end := int(el.Index.Pos().Offset()), int(el.Index.End().Offset())
			edits = append(edits, Edit{Off: off, End: end, Text: singleQuote(src[off:end])})
		}
	}
	return edits
}

// funcsEdits make `declare -f`/`-F` (typeset too) a command, `builtin
// declare -F f`, which the shell answers: interp runs declarations itself
// and knows no -F.
func funcsEdits(d *syntax.DeclClause) []Edit {
	if v := d.Variant.Value; v != "declare" && v != "typeset" {
		return nil
	}
	flags := false
	for i, as := range d.Args {
		if !as.Naked || as.Array != nil || as.Index != nil {
			return nil
		}
		lit := ""
		if as.Value != nil {
			lit = as.Value.Lit()
		}
		if !strings.HasPrefix(lit, "-") || lit == "-" || lit == "--" {
			break
		}
		if strings.Trim(lit[1:], "fF") != "" || i > 0 && !flags {
			return nil
		}
		flags = true
	}
	if !flags {
		return nil
	}
	off := int(d.Variant.Pos().Offset())
	return []Edit{{Off: off, End: off, Text: "builtin "}}
}

// declFlag reports whether src may hold a declaration with a flag word
// holding one of letters, as [funcsEdits] and [intEdits] change.
func declFlag(src, letters string) bool {
	for _, kw := range []string{"declare -", "typeset -", "local -"} {
		for rest := src; ; {
			i := strings.Index(rest, kw)
			if i < 0 {
				break
			}
			rest = rest[i+len(kw):]
			flag := rest
			if j := strings.IndexAny(rest, " \t\n;&|)"); j >= 0 {
				flag = rest[:j]
			}
			if strings.ContainsAny(flag, letters) {
				return true
			}
		}
	}
	return false
}

// arithText is word as arithmetic text: a quoted literal without its
// quotes, which bash evaluates and interp would take for a string (0).
func arithText(src string, w *syntax.Word) string {
	if len(w.Parts) == 1 {
		switch p := w.Parts[0].(type) {
		case *syntax.SglQuoted:
			if !p.Dollar {
				return p.Value
			}
		case *syntax.DblQuoted:
			if lit, ok := literal(p.Parts); ok {
				return lit
			}
		}
	}
	return src[int(w.Pos().Offset()):int(w.End().Offset())]
}

// literal is the text of parts when all are literal.
func literal(parts []syntax.WordPart) (string, bool) {
	var b strings.Builder
	for _, p := range parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			return "", false
		}
		b.WriteString(lit.Value)
	}
	return b.String(), true
}

// unexportEdits drop the `+x` of a declaration, which interp refuses
// ("invalid option"), leaving the rest undone: `declare -g +x PROMPT_COMMAND`
// (liquidprompt) declares it. Like `export -n`, which interp takes, it
// leaves an exported variable exported (docs/COMPATIBILITY.md).
func unexportEdits(d *syntax.DeclClause) []Edit {
	if v := d.Variant.Value; v != "declare" && v != "typeset" && v != "local" {
		return nil
	}
	var edits []Edit
	for _, as := range d.Args {
		if as.Naked && as.Name == nil && as.Value != nil && as.Value.Lit() == "+x" {
			edits = append(edits, Edit{Off: int(as.Value.Pos().Offset()), End: int(as.Value.End().Offset())})
		}
	}
	return edits
}

// intEdits take the integer attribute out of a declaration, which interp
// refuses ("invalid option"), leaving its variables undeclared and a
// function's locals global: `local -i n=EXPR` becomes `local n=$((EXPR))`.
// The value given is computed as bash does; later assignments to the
// variable are not (docs/COMPATIBILITY.md).
func intEdits(src string, d *syntax.DeclClause) []Edit {
	if v := d.Variant.Value; v != "declare" && v != "typeset" && v != "local" {
		return nil
	}
	var edits []Edit
	names := false
	for _, as := range d.Args {
		if as.Naked && as.Name == nil && as.Value != nil {
			lit := as.Value.Lit()
			if !strings.HasPrefix(lit, "-") || lit == "-" || lit == "--" || !strings.Contains(lit, "i") {
				if lit == "" || !strings.HasPrefix(lit, "-") {
					names = true
				}
				continue
			}
			if names {
				continue // options come first: after a name, a word like -i is a name
			}
			if strings.ContainsAny(lit, "fF") {
				return nil // functions: no values to compute
			}
			off, end := int(as.Value.Pos().Offset()), int(as.Value.End().Offset())
			rest := strings.ReplaceAll(lit, "i", "")
			if rest == "-" {
				rest = "" // a word of spaces
			}
			edits = append(edits, Edit{Off: off, End: end, Text: rest})
			continue
		}
		names = true
		if as.Name != nil && as.Value != nil && as.Array == nil && as.Index == nil && !as.Naked {
			off, end := int(as.Value.Pos().Offset()), int(as.Value.End().Offset())
			expr := arithText(src, as.Value)
			if as.Append { // n+=EXPR adds
				off, expr = int(as.Pos().Offset()), as.Name.Value+"+("+expr+")"
				edits = append(edits, Edit{Off: off, End: end, Text: as.Name.Value + "=$((" + expr + "))"})
				continue
			}
			edits = append(edits, Edit{Off: off, End: end, Text: "$((" + expr + "))"})
		}
	}
	if !names || !slices.ContainsFunc(edits, func(e Edit) bool { return !strings.HasPrefix(e.Text, "$((") }) {
		return nil // `declare -i` alone lists the integer variables
	}
	return edits
}

// funcEdits are the edits of a function definition whose body the parser
// took with the list or pipeline after it.
func funcEdits(src string, fd *syntax.FuncDecl) []Edit {
	x := fd.Body
	for {
		b, ok := x.Cmd.(*syntax.BinaryCmd)
		if !ok {
			break
		}
		x = b.X
	}
	if x == fd.Body {
		return nil
	}
	start, end := int(fd.Pos().Offset()), stmtEnd(x)
	return []Edit{{Off: start, End: start, Text: "{ "}, {Off: end, End: end, Text: "; }"}}
}

// bashFunc reports whether fd is written in one of bash's forms.
func bashFunc(src string, fd *syntax.FuncDecl) bool {
	at := src[fd.Pos().Offset():]
	return fd.Name != nil && fd.Name.Value != "" && len(fd.Names) == 0 &&
		(strings.HasPrefix(at, fd.Name.Value) || strings.HasPrefix(at, "function"))
}

// walkTest calls f with each pattern match (==, =, !=) of a [[ ]] test.
func walkTest(x syntax.TestExpr, f func(*syntax.BinaryTest)) {
	switch x := x.(type) {
	case *syntax.BinaryTest:
		switch x.Op {
		case syntax.TsMatch, syntax.TsMatchShort, syntax.TsNoMatch:
			f(x)
		case syntax.AndTest, syntax.OrTest:
			walkTest(x.X, f)
			walkTest(x.Y, f)
		}
	case *syntax.UnaryTest:
		walkTest(x.X, f)
	case *syntax.ParenTest:
		walkTest(x.X, f)
	}
}

// patternEdits replace pattern, matched against word, when interp cannot
// match it.
func patternEdits(word, pattern *syntax.Word) []Edit {
	if !needsMatcher(pattern) {
		return nil
	}
	args := []string{PatternBuiltin}
	w, ok := quotedWord(word)
	if !ok {
		return nil
	}
	args = append(args, w)
	for _, part := range pattern.Parts {
		pieces, ok := patternPieces(part)
		if !ok {
			return nil
		}
		args = append(args, pieces...)
	}
	return []Edit{{Off: int(pattern.Pos().Offset()), End: int(pattern.End().Offset()),
		Text: "$(" + strings.Join(args, " ") + " 2>/dev/null)"}}
}

// needsMatcher reports whether pattern has an extended group with an
// expansion or a quote inside, or a !(…).
func needsMatcher(pattern *syntax.Word) bool {
	for _, part := range pattern.Parts {
		if g, ok := part.(*syntax.ExtGlob); ok && (g.Op == syntax.GlobExcept ||
			strings.Contains(g.Pattern.Value, "!(") || strings.ContainsAny(g.Pattern.Value, "$`'\"")) {
			return true
		}
	}
	return false
}

// quotedWord is word as one argument with the value it has in [[ ]] or
// case: its expansions double-quoted, its literal text single-quoted.
func quotedWord(word *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, part := range word.Parts {
		switch part := part.(type) {
		case *syntax.Lit:
			b.WriteString(singleQuote(unescape(part.Value)))
		case *syntax.SglQuoted, *syntax.DblQuoted:
			b.WriteString(printed(part))
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp:
			b.WriteString(`"` + printed(part) + `"`)
		default:
			return "", false
		}
	}
	if b.Len() == 0 {
		return "''", true
	}
	return b.String(), true
}

// patternPieces are the pieces of one part of a pattern.
func patternPieces(part syntax.WordPart) ([]string, bool) {
	switch part := part.(type) {
	case *syntax.Lit:
		return []string{"p", singleQuote(part.Value)}, true
	case *syntax.SglQuoted, *syntax.DblQuoted:
		return []string{"l", printed(part)}, true
	case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp:
		return []string{"p", `"` + printed(part) + `"`}, true
	case *syntax.ExtGlob:
		pieces := []string{"p", singleQuote(part.Op.String())}
		inner, ok := innerPieces(part.Pattern.Value)
		if !ok {
			return nil, false
		}
		return append(append(pieces, inner...), "p", "')'"), true
	}
	return nil, false
}

// innerPieces splits the text inside an extended group, which interp's
// parser keeps literal, into pattern text, expansions ($x, ${…}, $(…),
// `…`; pattern text when unquoted) and quoted literal text.
func innerPieces(s string) ([]string, bool) {
	var pieces []string
	run := 0 // start of the pending pattern text
	flush := func(i int) {
		if i > run {
			pieces = append(pieces, "p", singleQuote(s[run:i]))
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			i = min(i+2, len(s))
			continue
		case c == '\'' || c == '"':
			j := closing(s, i)
			if j < 0 {
				return nil, false
			}
			if !isWord(s[i : j+1]) {
				return nil, false
			}
			flush(i)
			pieces = append(pieces, "l", s[i:j+1])
			i, run = j+1, j+1
			continue
		case c == '$' || c == '`':
			n := expansionLen(s[i:])
			if n == 0 {
				i++
				continue
			}
			exp := `"` + s[i:i+n] + `"`
			if !isWord(exp) {
				return nil, false
			}
			flush(i)
			pieces = append(pieces, "p", exp)
			i += n
			run = i
			continue
		}
		i++
	}
	flush(len(s))
	return pieces, true
}

// isWord reports whether s, text the parser kept literal inside an
// extended group, parses as a word once it is taken out.
func isWord(s string) bool {
	_, err := syntax.NewParser().Parse(strings.NewReader(": "+s), "")
	return err == nil
}

// closing is the offset of the quote that closes the one at s[i], -1 if
// none does.
func closing(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch {
		case s[i] == '"' && s[j] == '\\':
			j++
		case s[j] == s[i]:
			return j
		}
	}
	return -1
}

// expansionLen is the length of the expansion at the start of s: $name,
// $1, ${…}, $(…), $((…)) or `…`; 0 when s starts with none.
func expansionLen(s string) int {
	if s[0] == '`' {
		if j := strings.IndexByte(s[1:], '`'); j >= 0 {
			return j + 2
		}
		return 0
	}
	if len(s) < 2 {
		return 0
	}
	switch c := s[1]; {
	case c == '{' || c == '(':
		closer := byte('}')
		if c == '(' {
			closer = ')'
		}
		depth := 0
		for j := 1; j < len(s); j++ {
			switch s[j] {
			case c:
				depth++
			case closer:
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return 0
	case c >= '0' && c <= '9' || strings.IndexByte("@*#?$!-", c) >= 0:
		return 2
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		j := 2
		for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
			j++
		}
		return j
	}
	return 0
}

func printed(n syntax.Node) string {
	var b strings.Builder
	syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, n)
	return b.String()
}

// unescape is an unquoted literal's value: backslashes removed.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func singleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}

// What Text did can be undone for showing a program as written (type
// prints functions): Unwrap, PatternSource and OriginalTest find it in the
// parsed text.

// Unwrap is the statement st was before Text rewrote it: the loop of a
// rewritten C-style loop (whose body still has the declare statements of
// the variable qsh's marks use, for the caller to leave out), else st.
func Unwrap(st *syntax.Stmt) *syntax.Stmt {
	b, ok := st.Cmd.(*syntax.Block)
	if !ok || len(b.Stmts) != 3 || !isLoopVarDecl(b.Stmts[0]) {
		return st
	}
	loop := b.Stmts[1]
	if _, ok := loop.Cmd.(*syntax.ForClause); !ok {
		return st
	}
	bin, ok := b.Stmts[2].Cmd.(*syntax.BinaryCmd)
	if !ok {
		return st
	}
	call, ok := bin.X.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 || call.Args[0].Lit() != StatusBuiltin {
		return st
	}
	cp := *loop
	cp.Negated, cp.Background, cp.Redirs = st.Negated, st.Background, st.Redirs
	return &cp
}

func isLoopVarDecl(st *syntax.Stmt) bool {
	d, ok := st.Cmd.(*syntax.DeclClause)
	return ok && len(d.Args) == 1 && d.Args[0].Name != nil && d.Args[0].Name.Value == loopVar
}

// PatternSource is the pattern as written that Text replaced with w, ok
// false when w is no such replacement.
func PatternSource(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	cs, ok := w.Parts[0].(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return "", false
	}
	call, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) < 2 || call.Args[0].Lit() != PatternBuiltin {
		return "", false
	}
	var b strings.Builder
	for i := 2; i+1 < len(call.Args); i += 2 {
		piece := call.Args[i+1]
		switch p := piece.Parts[0].(type) {
		case *syntax.SglQuoted:
			if call.Args[i].Lit() == "p" && len(piece.Parts) == 1 {
				b.WriteString(p.Value)
				continue
			}
		case *syntax.DblQuoted:
			if call.Args[i].Lit() == "p" && len(piece.Parts) == 1 {
				for _, part := range p.Parts {
					b.WriteString(printed(part))
				}
				continue
			}
		}
		b.WriteString(printed(piece))
	}
	return b.String(), true
}

// OriginalTest is x with the patterns Text replaced written back as they
// were: a copy where any was, else x.
func OriginalTest(x syntax.TestExpr) syntax.TestExpr {
	switch x := x.(type) {
	case *syntax.BinaryTest:
		cp := *x
		cp.X, cp.Y = OriginalTest(x.X), OriginalTest(x.Y)
		if w, ok := x.Y.(*syntax.Word); ok {
			if src, ok := PatternSource(w); ok {
				cp.Y = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: src}}}
			}
		}
		return &cp
	case *syntax.UnaryTest:
		cp := *x
		cp.X = OriginalTest(x.X)
		return &cp
	case *syntax.ParenTest:
		cp := *x
		cp.X = OriginalTest(x.X)
		return &cp
	}
	return x
}
