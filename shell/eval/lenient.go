package eval

import (
	"errors"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The parser refuses some text that bash takes and judges only when it runs
// it: a parameter expansion it does not know (zsh's ${(M)…} in a branch for
// zsh, which git's completion has), and arithmetic whose operators come
// from expansions ($(( 1 $op 2 ))) or that it parses otherwise than bash
// (x$y = 1). Such a piece is replaced, in the text to parse, by a
// placeholder of the same length and lines — so every position and line
// stays — and the original is kept by its offset: a bad substitution fails
// when it runs, and arithmetic is evaluated from its original text, as
// bash does with all arithmetic.

// lenient is what the placeholders of a text stand for.
type lenient struct {
	bad   map[uint]string // offset of a ${…} placeholder → its text
	arith map[uint]string // offset of an arithmetic placeholder → its text
	// words are declaration arguments (export A-B=1) and function names
	// (f$x) bash parses and refuses only when it runs them: offset of
	// the placeholder → the text.
	words map[uint]string
	// heredocs are here-documents the input ended inside: bash warns and
	// takes the rest as the body.
	heredocs []heredocEOF
	// emptyArith are the (( )) commands with nothing inside, made
	// ((0)): offset of the (( → the blanks that were inside, for set -x.
	emptyArith map[uint]string
}

// heredocEOF is a here-document ended by the end of the input.
type heredocEOF struct {
	line, eofLine int
	delim         string
}

// maxLenientFixes bounds the pieces replaced in one text.
const maxLenientFixes = 64

// parseLenient parses src as the shell reads it: with the pieces bash
// judges only when run replaced (see above).
func parseLenient(src, name string) (*syntax.File, string, *lenient, error) {
	src = EscapeRawBytes(src)
	var l *lenient
	for range maxLenientFixes {
		f, err := NewParser().Parse(strings.NewReader(src), name)
		if err == nil {
			return f, src, l, nil
		}
		fixed, ok := fixParseError(src, err, &l)
		if !ok || fixed == src {
			return nil, src, l, err
		}
		src = fixed
	}
	return nil, src, l, errors.New("too many unparsable pieces")
}

// errPos is where a parse error is.
func errPos(err error) (syntax.Pos, bool) {
	var perr syntax.ParseError
	var lerr syntax.LangError
	switch {
	case errors.As(err, &perr):
		return perr.Pos, !perr.Incomplete
	case errors.As(err, &lerr):
		return lerr.Pos, true
	}
	return syntax.Pos{}, false
}

// fixParseError replaces the piece err is about with a placeholder, when
// bash would take it; ok is false for a real syntax error.
func fixParseError(src string, err error, l **lenient) (string, bool) {
	if *l == nil {
		*l = &lenient{bad: map[uint]string{}, arith: map[uint]string{}, words: map[uint]string{}}
	}
	msg := err.Error()
	var pe syntax.ParseError
	if errors.As(err, &pe) && strings.Contains(msg, "unclosed here-document `") {
		return endHeredoc(src, msg, int(pe.Pos.Offset()), *l)
	}
	pos, ok := errPos(err)
	if !ok || !pos.IsValid() {
		return src, false
	}
	off := int(pos.Offset())
	if off > len(src) {
		return src, false
	}
	if start, ok := letAt(src, off); ok {
		// let '1 +': the parser reads let's arguments as arithmetic;
		// bash reads words. The keyword becomes a word that runs let.
		return placeWord(src, start, *l)
	}
	if strings.HasSuffix(msg, "invalid var name") {
		return placeWord(src, off, *l)
	}
	if strings.HasSuffix(msg, "invalid func name") {
		tok := tokenAt(src, off)
		rest := src[off+len(tok):]
		if strings.HasPrefix(rest, "(") && strings.HasPrefix(rest[skipBlanks(rest, 1):], ")") {
			return placeWord(src, off, *l)
		}
		return src, false
	}
	if strings.HasSuffix(msg, "must be followed by an expression") {
		if fixed, ok := emptyArith(src, off, *l); ok {
			return fixed, true
		}
	}
	if start, end, ok := arrayKeyAround(src, off); ok {
		// ([a b]=1): bash reads a key as a word up to its ], the parser
		// as arithmetic; the key's text is kept as arithmetic's is.
		return placeArith(src, start, end, *l)
	}
	if open, ok := nestedSubshellAt(src, off); ok {
		// ((cmd) …): bash reads (( as arithmetic only when its
		// parentheses close together; else it is two ( ( — a space
		// between them says so to the parser.
		return src[:open+1] + " " + src[open+1:], true
	}
	if start, end, ok := arithmeticAround(src, off); ok {
		return placeArith(src, start, end, *l)
	}
	if paramExpError(err) {
		return placeBad(src, off, *l)
	}
	return src, false
}

// endHeredoc ends a here-document the input ended inside, as bash does,
// with a warning: the delimiter is put at the end.
func endHeredoc(src, msg string, off int, l *lenient) (string, bool) {
	i := strings.Index(msg, "unclosed here-document `")
	delim := strings.TrimSuffix(msg[i+len("unclosed here-document `"):], "`")
	delim = strings.NewReplacer("'", "", `"`, "", `\`, "").Replace(delim)
	if delim == "" || strings.Contains(delim, "\n") || strings.HasSuffix(src, "\n"+delim+"\n") {
		return src, false
	}
	l.heredocs = append(l.heredocs, heredocEOF{line: lineAt(src, off), eofLine: lineCount(src), delim: delim})
	if !strings.HasSuffix(src, "\n") {
		src += "\n"
	}
	return src + delim + "\n", true
}

// letAt finds the let keyword of the command off is in, on its line.
func letAt(src string, off int) (int, bool) {
	lineStart := strings.LastIndexByte(src[:min(off, len(src))], '\n') + 1
	i := strings.LastIndex(src[lineStart:min(off+3, len(src))], "let")
	if i < 0 {
		return 0, false
	}
	i += lineStart
	if i+3 < len(src) && !strings.ContainsRune(" \t\n;&|)", rune(src[i+3])) {
		return 0, false
	}
	j := i - 1
	for j >= lineStart && (src[j] == ' ' || src[j] == '\t') {
		j--
	}
	if j >= lineStart && !strings.ContainsRune(";&|({!", rune(src[j])) {
		return 0, false
	}
	return i, true
}

// placeWord replaces the word at off with underscores, kept in words.
func placeWord(src string, off int, l *lenient) (string, bool) {
	tok := tokenAt(src, off)
	if tok == "" || tok == "newline" || strings.ContainsAny(tok, "\n") || strings.Trim(tok, "_") == "" {
		return src, false
	}
	l.words[uint(off)] = tok
	return src[:off] + strings.Repeat("_", len(tok)) + src[off+len(tok):], true
}

// lenientWord is the text a word placeholder at off stands for.
func (r *Runner) lenientWord(pos syntax.Pos) (string, bool) {
	if r.lenient == nil || !pos.IsValid() {
		return "", false
	}
	text, ok := r.lenient.words[pos.Offset()]
	return text, ok
}

// paramExpError reports whether err is about a parameter expansion bash
// only finds bad when it runs it.
func paramExpError(err error) bool {
	msg := err.Error()
	for _, m := range []string{"cannot combine multiple parameter expansion operators",
		"not a valid parameter expansion operator", "invalid nested parameter expansion",
		"invalid parameter name", "invalid @ expansion operator", "are a zsh feature",
		"`:` must be followed by an expression", "`[` must be followed by an expression"} {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}

// placeBad replaces the ${…} around off with ${___…}, kept as bad.
func placeBad(src string, off int, l *lenient) (string, bool) {
	start := strings.LastIndex(src[:min(off+2, len(src))], "${")
	if start < 0 {
		return src, false
	}
	depth, end := 0, -1
	for i := start + 1; i < len(src) && end < 0; i++ {
		switch src[i] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				end = i + 1
			}
		case '\n':
			return src, false
		}
	}
	if end < 0 || end-start < 4 || end <= off {
		return src, false // an error after the expansion is not its own
	}
	l.bad[uint(start)] = src[start:end]
	return src[:start] + "${" + strings.Repeat("_", end-start-3) + "}" + src[end:], true
}

// arithmeticAround finds the arithmetic off is in: the text between the
// (( and the )) around it.
func arithmeticAround(src string, off int) (start, end int, ok bool) {
	// Back to the (( whose parentheses are still open at off.
	depth := 0
	for i := min(off, len(src)) - 1; i >= 1; i-- {
		switch src[i] {
		case ')':
			depth++
		case '(':
			if depth > 0 {
				depth--
				continue
			}
			if src[i-1] == '(' {
				start = i + 1
				ok = true
			}
		}
		if ok || src[i] == '(' && depth == 0 {
			break
		}
	}
	if !ok {
		return 0, 0, false
	}
	// Forward to the )) that closes it.
	depth = 0
	for i := start; i+1 < len(src); i++ {
		switch src[i] {
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
				continue
			}
			if src[i+1] == ')' {
				return start, i, true
			}
			return 0, 0, false
		}
	}
	return 0, 0, false
}

// emptyArith makes an empty $(( )), (( )) or $[ ] at off, which bash
// reads as 0, a 0 of the same length: a blank inside becomes 0, and $(())
// becomes $[00]; (()), which has no room for it, gets a 0 put in, when
// no placeholder is after it to move.
func emptyArith(src string, off int, l *lenient) (string, bool) {
	rest := src[off:]
	open, closer := "", ""
	for _, p := range [][2]string{{"$((", "))"}, {"((", "))"}, {"$[", "]"}} {
		if strings.HasPrefix(rest, p[0]) {
			open, closer = p[0], p[1]
			break
		}
	}
	if open == "" {
		return src, false
	}
	in := off + len(open)
	end := in
	for end < len(src) && strings.IndexByte(" \t\n", src[end]) >= 0 {
		end++
	}
	if !strings.HasPrefix(src[end:], closer) {
		return src, false
	}
	if open == "((" {
		if l.emptyArith == nil {
			l.emptyArith = map[uint]string{}
		}
		l.emptyArith[uint(off)] = src[in:end]
	}
	if i := strings.IndexAny(src[in:end], " \t"); i >= 0 {
		return src[:in+i] + "0" + src[in+i+1:], true
	}
	if open == "((" && end == in && !l.after(off) {
		return src[:in] + "0" + src[in:], true
	}
	if open == "$((" && end == in {
		return src[:off] + "$[00]" + src[end+len(closer):], true
	}
	return src, false
}

// after reports whether a placeholder is at or after off.
func (l *lenient) after(off int) bool {
	for _, m := range []map[uint]string{l.bad, l.arith, l.words, l.emptyArith} {
		for k := range m {
			if int(k) > off {
				return true
			}
		}
	}
	return false
}

// arrayKeyAround finds the key of an array literal's [key]=value, or of
// an expansion's ${h[key]}, that off is inside: start and end are those
// of the key's text.
func arrayKeyAround(src string, off int) (start, end int, ok bool) {
	open := strings.LastIndexAny(src[:min(off, len(src))], "[]\n")
	if open < 1 || src[open] != '[' {
		return 0, 0, false
	}
	// ${h[a b]}: the key of an expansion, after ${ and a name.
	name := strings.TrimRightFunc(src[:open], func(c rune) bool {
		return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	})
	inParam := len(name) < open && (strings.HasSuffix(name, "${") || strings.HasSuffix(name, "${#") || strings.HasSuffix(name, "${!"))
	// a[k k]=v: an assignment's subscript, read by bash as a word up
	// to its ] when the word starts a command (a declaration's
	// arguments are words split at blanks).
	assign := len(name) < open && validName(src[len(name):open]) && commandStart(name)
	if !inParam && !assign && strings.IndexByte("( \t\n", src[open-1]) < 0 {
		return 0, 0, false
	}
	close := strings.IndexAny(src[off:], "]\n")
	if close < 0 || src[off+close] != ']' {
		return 0, 0, false
	}
	close += off
	after := src[close+1:]
	if !inParam && !strings.HasPrefix(after, "=") && !strings.HasPrefix(after, "+=") {
		return 0, 0, false
	}
	return open + 1, close, true
}

// nestedSubshellAt finds the (( or $(( that off is inside when the
// parenthesis that closes its second ( is not followed by the one that
// closes its first: `((cmd) || (cmd))`, `$((cmd) 2>&1)`. open is the
// offset of the first (.
func nestedSubshellAt(src string, off int) (open int, ok bool) {
	depth := 0
	start := -1
	for i := min(off, len(src)) - 1; i >= 1; i-- {
		if src[i] == ')' {
			depth++
		} else if src[i] == '(' {
			if depth > 0 {
				depth--
				continue
			}
			if src[i-1] == '(' {
				start = i + 1
			}
			break
		}
	}
	if start < 0 {
		return 0, false
	}
	depth = 0
	for i := start; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '\'':
			j := strings.IndexByte(src[i+1:], '\'')
			if j < 0 {
				return 0, false
			}
			i += j + 1
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
				continue
			}
			if i+1 < len(src) && src[i+1] == ')' {
				return 0, false
			}
			return start - 2, true
		}
	}
	return 0, false
}

// placeArith replaces an arithmetic expression's text with a word of
// underscores, its newlines kept before it.
func placeArith(src string, start, end int, l *lenient) (string, bool) {
	text := src[start:end]
	if strings.Trim(text, "_\n ") == "" {
		return src, false // a placeholder already: a real error
	}
	nl := strings.Count(text, "\n")
	width := len(text) - nl
	if width == 0 {
		return src, false
	}
	l.arith[uint(start+nl)] = text
	return src[:start] + strings.Repeat("\n", nl) + strings.Repeat("_", width) + src[end:], true
}

// emptySliceLength is ${x:off:} — an empty length, which is 0 to bash and
// a syntax error to the parser — read again as ${x:off:0}; nil for any
// other placeholder or expansion.
func (r *Runner) emptySliceLength(pe *syntax.ParamExp) (*syntax.ParamExp, string) {
	if r.lenient == nil || !pe.Dollar.IsValid() {
		return nil, ""
	}
	text, ok := r.lenient.bad[pe.Dollar.Offset()]
	if !ok || !strings.HasSuffix(text, ":}") || strings.Count(text, ":") < 2 {
		return nil, ""
	}
	text = text[:len(text)-1] + "0}"
	f, err := NewParser().Parse(strings.NewReader(text), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, ""
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 1 || len(call.Args[0].Parts) != 1 {
		return nil, ""
	}
	fixed, ok := call.Args[0].Parts[0].(*syntax.ParamExp)
	if !ok || fixed.Slice == nil || fixed.Slice.Length == nil {
		return nil, ""
	}
	return fixed, text
}

// badSubst reports a placeholder for a substitution bash finds bad when it
// runs it.
func (r *Runner) badSubst(pe *syntax.ParamExp) {
	if r.lenient == nil || !pe.Dollar.IsValid() {
		return
	}
	if text, ok := r.lenient.bad[pe.Dollar.Offset()]; ok {
		r.errorf("%s: bad substitution", text)
		panic(abort{status: 1})
	}
}

// arithOriginal is the text an arithmetic placeholder stands for.
func (r *Runner) arithOriginal(x syntax.ArithmExpr) (string, bool) {
	if r.lenient == nil {
		return "", false
	}
	w, ok := x.(*syntax.Word)
	if !ok {
		return "", false
	}
	text, ok := r.lenient.arith[w.Pos().Offset()]
	return text, ok
}

// commandStart reports whether a word that follows text would be the
// first word of a command: text ends (blanks aside) at the start, at a
// newline or an operator, or with a reserved word that a command follows.
func commandStart(text string) bool {
	text = strings.TrimRight(text, " \t")
	if text == "" || strings.IndexByte("\n;&|({", text[len(text)-1]) >= 0 {
		return true
	}
	word := text[strings.LastIndexAny(text, " \t\n;&|(")+1:]
	switch word {
	case "then", "do", "else", "elif", "if", "while", "until", "!", "{":
		return true
	}
	// An assignment before it: a[k]=1 b[k k]=2 cmd.
	if eq := strings.IndexByte(word, '='); eq > 0 {
		name := strings.TrimSuffix(word[:eq], "+")
		if i := strings.IndexByte(name, '['); i > 0 && strings.HasSuffix(name, "]") {
			name = name[:i]
		}
		return validName(name) && commandStart(text[:len(text)-len(word)])
	}
	return false
}
