package eval

import (
	"os/user"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/shell/pattern"
)

// Words expand in bash's order: braces; then tilde, parameters, arithmetic
// and command substitution from left to right; then word splitting, then
// pathname expansion, then quote removal. A [builder] gathers the fields,
// knowing for each character whether it was quoted, which splitting and
// globbing need.

// field is one word being built.
type field struct {
	val []byte
	// pat is val as a pattern: quoted characters escaped. Kept only when
	// the builder tracks patterns.
	pat []byte
	// meta is set when an unquoted pattern character went in.
	meta bool
	// started is set once anything went in, an empty quoted string
	// included: such a field is kept though empty.
	started bool
}

// builder collects the fields of the words being expanded.
type builder struct {
	r *Runner
	// split is set where unquoted expansions are split at IFS (command
	// arguments); patterns where the pattern form of fields is kept
	// (globbing, case, [[ == ]]). splitLits is set inside the word of an
	// unquoted ${x-word}, whose literal text is an expansion's result,
	// split too.
	split, patterns, splitLits bool
	fields                     []field
	cur                        field
}

func (b *builder) text(s string, quoted bool) {
	if s == "" {
		if quoted {
			b.cur.started = true
		}
		return
	}
	b.cur.started = true
	b.cur.val = append(b.cur.val, s...)
	if !b.patterns {
		return
	}
	if quoted {
		b.cur.pat = appendQuoted(b.cur.pat, s)
		return
	}
	b.cur.pat = append(b.cur.pat, s...)
	if !b.cur.meta && pattern.HasMeta(s, b.r.patMode()) {
		b.cur.meta = true
	}
}

// appendQuoted appends s escaped so that a pattern matches it literally.
func appendQuoted(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '*', '?', '[', ']', '\\', '(', ')', '|', '!', '@', '+', '^', '-', '&':
			dst = append(dst, '\\', c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// unquotedLit appends the text of an unquoted literal: a backslash quotes
// the character after it.
func (b *builder) unquotedLit(s string) {
	for {
		i := strings.IndexByte(s, '\\')
		if i < 0 {
			b.text(s, false)
			return
		}
		b.text(s[:i], false)
		if i+1 >= len(s) {
			b.text("\\", true)
			return
		}
		_, n := utf8.DecodeRuneInString(s[i+1:])
		b.text(s[i+1:i+1+n], true)
		s = s[i+1+n:]
	}
}

// splitLit appends unquoted literal text that splits at IFS, backslashes
// quoting as in unquotedLit.
func (b *builder) splitLit(s string) {
	ifs := b.r.ifs()
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '\\' {
			n, in := ifs.char(s, i)
			if in {
				break
			}
			i += n
		}
		if i > 0 {
			b.text(s[:i], false)
			s = s[i:]
			continue
		}
		if s[0] == '\\' {
			if len(s) == 1 {
				b.text("\\", true)
				return
			}
			_, n := utf8.DecodeRuneInString(s[1:])
			b.text(s[1:1+n], true)
			s = s[1+n:]
			continue
		}
		j := 0
		for j < len(s) {
			n, in := ifs.char(s, j)
			if !in {
				break
			}
			j += n
		}
		b.value(s[:j], false)
		s = s[j:]
	}
}

// breakField ends the field being built, keeping it when it has anything.
func (b *builder) breakField(keepEmpty bool) {
	if b.cur.started || keepEmpty {
		b.fields = append(b.fields, b.cur)
	}
	b.cur = field{}
}

// value appends the result of an expansion: split at IFS when unquoted in
// a splitting context.
func (b *builder) value(s string, quoted bool) {
	if quoted || !b.split {
		b.text(s, quoted)
		return
	}
	ifs := b.r.ifs()
	if ifs.empty {
		b.text(s, false)
		return
	}
	i := 0
	for i < len(s) {
		if n, in := ifs.char(s, i); !in {
			j := i + n
			for j < len(s) {
				m, in := ifs.char(s, j)
				if in {
					break
				}
				j += m
			}
			b.text(s[i:j], false)
			i = j
			continue
		}
		// A separator: IFS white space around at most one other IFS
		// character. After white space, bash takes that character's
		// first byte alone (a multibyte one leaves the rest, a byte
		// that splits again, with an empty field).
		j := i
		nonWhite := false
		if !ifs.white(s[j]) {
			n, _ := ifs.char(s, j)
			nonWhite = true
			j += n
		} else {
			for j < len(s) && ifs.white(s[j]) {
				j++
			}
			if j < len(s) && ifs.bytes[s[j]] && !ifs.white(s[j]) {
				nonWhite = true
				j++
			}
		}
		for j < len(s) && ifs.white(s[j]) {
			j++
		}
		if nonWhite {
			b.breakField(true)
		} else if b.cur.started {
			b.breakField(false)
		}
		i = j
	}
}

// list appends the elements of "$@" or ${a[@]}: each its own field when
// quoted (the first joined to what came before, the last to what comes
// after), each split apart when not.
func (b *builder) list(vals []string, quoted bool) {
	if !b.split {
		// Where nothing splits (x=$@), the elements join with spaces.
		b.text(strings.Join(vals, " "), quoted)
		return
	}
	if !quoted && !b.r.ifs().empty {
		// Unquoted, the elements join with IFS's first character and
		// the whole splits, as in bash: with IFS=x, an empty element
		// between two others is an empty field.
		b.value(strings.Join(vals, b.r.ifs().first), false)
		return
	}
	for i, v := range vals {
		if i > 0 {
			b.breakField(quoted)
		}
		b.value(v, quoted)
	}
}

// ifsChars is IFS, classified.
// IFS splits on characters: a multibyte one in it (IFS=é) matches that
// character only, and a byte that is no UTF-8 (IFS=$'\xc3') only that
// byte alone, never part of a character, as in bash in a UTF-8 locale.
type ifsChars struct {
	set    [256]bool // the bytes: ASCII characters, bytes that are no UTF-8
	bytes  [256]bool // every byte of IFS, of its multibyte characters too
	ws     [256]bool
	multi  map[rune]bool // the characters of more than one byte
	high   bool          // any byte of IFS is not ASCII
	bytes1 bool          // the C locale's: each byte a character
	empty  bool
	first  string // "$*"'s separator
}

func (c *ifsChars) white(b byte) bool { return c.ws[b] }

// char is the length of the character at s[i] and whether it is one of
// IFS's.
func (c *ifsChars) char(s string, i int) (int, bool) {
	b := s[i]
	if b < utf8.RuneSelf || !c.high || c.bytes1 {
		return 1, c.set[b]
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if n == 1 {
		// A byte that is no character of its own is IFS's if IFS
		// has it anywhere, as bash finds it.
		return 1, c.bytes[b]
	}
	return n, c.multi[r]
}

var defaultIFS = newIFS(" \t\n", false)

// newIFS classifies s; bytes1 for the C locale, where each byte is a
// character.
func newIFS(s string, bytes1 bool) *ifsChars {
	c := &ifsChars{empty: s == "", bytes1: bytes1}
	for i := 0; i < len(s); i++ {
		c.bytes[s[i]] = true
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if n > 1 && !bytes1 {
			if c.multi == nil {
				c.multi = map[rune]bool{}
			}
			c.multi[r] = true
			c.high = true
			i += n
			continue
		}
		c.set[s[i]] = true
		c.high = c.high || s[i] >= utf8.RuneSelf
		if s[i] == ' ' || s[i] == '\t' || s[i] == '\n' {
			c.ws[s[i]] = true
		}
		i++
	}
	if s != "" {
		n := 1
		if !bytes1 {
			_, n = utf8.DecodeRuneInString(s)
		}
		c.first = s[:n]
	}
	return c
}

func (r *Runner) ifs() *ifsChars {
	if c := r.ifsCache; c != nil && c.high && c.bytes1 == r.utf8Locale() {
		r.ifsCache = nil // the locale changed what IFS's bytes are
	}
	if r.ifsCache == nil {
		v, ok := r.Get("IFS")
		if !ok {
			r.ifsCache = defaultIFS
		} else {
			bytes1 := false
			if strings.ContainsFunc(v, func(c rune) bool { return c >= utf8.RuneSelf }) {
				bytes1 = !r.utf8Locale()
			}
			r.ifsCache = newIFS(v, bytes1)
		}
	}
	return r.ifsCache
}

// utf8Locale reports whether the locale bash would be in has UTF-8
// characters: LC_ALL, else LC_CTYPE, else LANG, names a UTF-8 one. With
// none set it is C's.
func (r *Runner) utf8Locale() bool {
	for _, name := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v, ok := r.Get(name); ok && v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return false
}

// ifsJoin is what "$*" joins with: IFS's first character, a space when
// IFS is unset, nothing when it is empty.
func (r *Runner) ifsJoin() string {
	if _, ok := r.Get("IFS"); ok {
		return r.ifs().first
	}
	return " "
}

func (r *Runner) patMode() pattern.Mode {
	var m pattern.Mode
	if r.opts.shopt[optExtglob] {
		m |= pattern.ExtGlob
	}
	return m
}

// Fields expands words as command arguments are: split, globbed, quotes
// removed.
func (r *Runner) Fields(words ...*syntax.Word) []string { return r.fields(words, false) }

// argFields are Fields of a command's arguments or a for loop's words,
// where bash expands the tildes of a word shaped like an assignment
// (see [Runner.assignmentLike]); an array's elements keep theirs.
func (r *Runner) argFields(words ...*syntax.Word) []string { return r.fields(words, true) }

func (r *Runner) fields(words []*syntax.Word, args bool) []string {
	var out []string
	for _, w := range words {
		if s, ok := plainLit(w); ok {
			out = append(out, s)
			continue
		}
		for _, bw := range r.braces(w) {
			out = r.wordFields(bw, out, args)
		}
	}
	return out
}

// plainLit is a word that is one literal with nothing to expand.
func plainLit(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok || strings.ContainsAny(l.Value, "\\~{*?[") {
		return "", false
	}
	if strings.ContainsAny(l.Value, "@+!(") {
		return "", false // extglob may apply
	}
	return UnescapeRawBytes(l.Value), true
}

func (r *Runner) wordFields(w *syntax.Word, out []string, args bool) []string {
	glob := !r.opts.set[optNoglob]
	b := &builder{r: r, split: true, patterns: glob}
	if name, ok := r.assignmentLike(w); ok && args {
		// bash expands tildes after its = and colons, as in an
		// assignment: make install prefix=~/.local.
		b.unquotedLit(name)
		rest := *w.Parts[0].(*syntax.Lit)
		rest.Value = rest.Value[len(name):]
		r.assignParts(append([]syntax.WordPart{&rest}, w.Parts[1:]...), b)
	} else {
		r.parts(w.Parts, false, b, true)
	}
	b.breakField(false)
	for _, f := range b.fields {
		if glob && f.meta {
			matches := r.glob(string(f.pat))
			if matches != nil {
				out = append(out, matches...)
				continue
			}
			if r.opts.shopt[optNullglob] {
				continue
			}
			if r.opts.shopt[optFailglob] {
				r.errorf("no match: %s", string(f.val))
				// Under set -e bash ends the script here, even in a
				// condition, which no other such error does.
				panic(abort{status: 1, exit: r.opts.set[optErrexit]})
			}
		}
		out = append(out, string(f.val))
	}
	return out
}

// Literal expands a word without splitting or globbing, as the value of an
// assignment or the operand of [[ is.
func (r *Runner) Literal(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	if s, ok := plainLit(w); ok {
		return s
	}
	b := &builder{r: r}
	r.parts(w.Parts, false, b, true)
	return string(b.cur.val)
}

// assignmentLike reports whether an argument w begins as an assignment
// would (NAME= or NAME+=, unquoted) with a tilde in its literal text, and
// returns that beginning. Outside posix mode bash expands such a word's
// tildes as an assignment's.
func (r *Runner) assignmentLike(w *syntax.Word) (string, bool) {
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok || r.opts.set[optPosix] {
		return "", false
	}
	eq := strings.IndexByte(l.Value, '=')
	if eq <= 0 {
		return "", false
	}
	name := strings.TrimSuffix(l.Value[:eq], "+")
	if !validName(name) || !strings.Contains(l.Value[eq:], "~") {
		return "", false
	}
	return l.Value[:eq+1], true
}

// assignValue expands the value of an assignment: tildes after = and :
// expand too.
func (r *Runner) assignValue(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	if s, ok := plainLit(w); ok {
		return s
	}
	b := &builder{r: r}
	r.assignParts(w.Parts, b)
	return string(b.cur.val)
}

// Pattern expands a word into a pattern: its quoted characters escaped.
func (r *Runner) Pattern(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	b := &builder{r: r, patterns: true}
	r.parts(w.Parts, false, b, true)
	return string(b.cur.pat)
}

// parts expands word parts into b; quoted is set inside double quotes;
// first is set when the parts begin a word, where a tilde expands.
func (r *Runner) parts(parts []syntax.WordPart, quoted bool, b *builder, first bool) {
	for i, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			s := UnescapeRawBytes(p.Value)
			if i == 0 && first && !quoted && strings.HasPrefix(s, "~") {
				s = r.tilde(s, b, false)
			}
			switch {
			case quoted:
				b.text(unescapeDouble(s), true)
			case b.splitLits && b.split:
				b.splitLit(s)
			default:
				b.unquotedLit(s)
			}
		case *syntax.SglQuoted:
			s := UnescapeRawBytes(p.Value)
			if p.Dollar {
				s = ansiCValue(s) // a C string: it ends at a NUL, as in bash
			} else if quoted {
				// "${x:-'a'}": inside double quotes the quotes of a
				// ${…} word's value are characters, as in bash.
				s = "'" + s + "'"
			}
			b.text(s, true)
		case *syntax.DblQuoted:
			if len(p.Parts) == 0 {
				b.text("", true)
			}
			r.parts(p.Parts, true, b, false)
			if len(p.Parts) > 0 && !b.cur.started && !onlyAtList(p.Parts) {
				b.text("", true)
			}
		case *syntax.ParamExp:
			r.paramExp(p, quoted, b)
		case *syntax.CmdSubst:
			s := r.cmdSubst(p)
			b.value(s, quoted)
		case *syntax.ArithmExp:
			b.value(itoa(r.arithExpansion(p)), quoted)
		case *syntax.ProcSubst:
			b.text(r.procSubst(p), quoted)
		case *syntax.ExtGlob:
			r.extGlob(p, quoted, b)
		case *syntax.BraceExp:
			// braces were expanded before; a brace expression left
			// here is text.
			b.text(braceText(p), quoted)
		default:
			r.fatal(&varError{msg: "unsupported word part"})
		}
	}
}

// onlyAtList reports whether parts are a lone "$@" or "${a[@]}", which
// with no elements make no field at all.
func onlyAtList(parts []syntax.WordPart) bool {
	if len(parts) != 1 {
		return false
	}
	pe, ok := parts[0].(*syntax.ParamExp)
	return ok && isListExp(pe)
}

// assignParts expands an assignment's value: tildes at the start and
// after each unquoted colon expand.
func (r *Runner) assignParts(parts []syntax.WordPart, b *builder) {
	for i, p := range parts {
		l, ok := p.(*syntax.Lit)
		if !ok || !strings.Contains(l.Value, "~") {
			r.parts(parts[i:i+1], false, b, false)
			continue
		}
		s := UnescapeRawBytes(l.Value)
		atStart := i == 0
		if !atStart {
			// A tilde after a colon of an earlier literal is not at a
			// start here unless this literal follows the colon.
			if pl, ok := parts[i-1].(*syntax.Lit); ok && strings.HasSuffix(pl.Value, ":") {
				atStart = true
			}
		}
		for s != "" {
			if atStart && strings.HasPrefix(s, "~") {
				s = r.tilde(s, b, true)
			}
			j := strings.IndexByte(s, ':')
			if j < 0 {
				b.unquotedLit(s)
				break
			}
			b.unquotedLit(s[:j+1])
			s = s[j+1:]
			atStart = true
		}
	}
}

// tilde expands a ~ prefix of s (up to a slash, or a colon in an
// assignment) into b and returns the rest.
func (r *Runner) tilde(s string, b *builder, assign bool) string {
	end := strings.IndexByte(s, '/')
	if assign {
		if c := strings.IndexByte(s, ':'); c >= 0 && (end < 0 || c < end) {
			end = c
		}
	}
	if end < 0 {
		end = len(s)
	}
	name := s[1:end]
	if strings.ContainsAny(name, "\\'\"$`") {
		return s
	}
	var dir string
	switch {
	case name == "":
		home, ok := r.Get("HOME")
		if !ok {
			home = r.homeDir("")
		}
		dir = home
	case name == "+":
		dir, _ = r.Get("PWD")
	case name == "-":
		v, ok := r.Get("OLDPWD")
		if !ok {
			return s
		}
		dir = v
	default:
		if d, ok := r.dirStackTilde(name); ok {
			dir = d
			break
		}
		d := r.homeDir(name)
		if d == "" {
			return s
		}
		dir = d
	}
	b.text(dir, true)
	return s[end:]
}

// homeDir is a user's home directory ("" for the shell's own user when
// HOME is unset), "" when unknown. A dry copy asks no name service.
func (r *Runner) homeDir(name string) string {
	var u *user.User
	var err error
	if name == "" {
		u, err = user.Current()
	} else {
		u, err = user.Lookup(name)
	}
	if err != nil {
		if r.dry {
			return ""
		}
		return lookupHomeGetent(r.ctx, name)
	}
	return u.HomeDir
}

// unescapeDouble removes the backslashes that quote inside double quotes:
// before $ ` " \ and a newline; others stay.
func unescapeDouble(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '"', '\\':
				sb.WriteByte(s[i+1])
				i++
				continue
			case '\n':
				i++
				continue
			}
		}
		sb.WriteByte(c)
	}
	return sb.String()
}

// extGlob appends an extended glob group: its text is a pattern, with any
// expansions inside it expanded.
func (r *Runner) extGlob(p *syntax.ExtGlob, quoted bool, b *builder) {
	text := p.Op.String() + UnescapeRawBytes(p.Pattern.Value) + ")"
	if quoted {
		b.text(text, true)
		return
	}
	if !strings.ContainsAny(p.Pattern.Value, "$`'\"\\") {
		b.text(text, false)
		if b.patterns {
			b.cur.meta = true
		}
		return
	}
	// The parser keeps the group's text as it was: expand what is in
	// each of its alternatives, a word of its own.
	alts := extGlobAlternatives(p.Pattern.Value)
	words := make([]*syntax.Word, len(alts))
	for i, alt := range alts {
		if alt == "" {
			continue
		}
		// One that is no word alone (__&&) stays as it is written.
		if w, err := r.parseWordOf(alt); err == nil {
			words[i] = w
		}
	}
	b.text(p.Op.String(), false)
	split := b.split
	b.split = false
	for i, w := range words {
		if i > 0 {
			b.text("|", false)
		}
		if w != nil {
			restore := r.withCode(alts[i], nil)
			r.parts(w.Parts, false, b, false)
			restore()
		} else {
			b.text(alts[i], false)
		}
	}
	b.split = split
	b.text(")", false)
	if b.patterns {
		b.cur.meta = true
	}
}

// splitGlobIgnore splits GLOBIGNORE at its colons, but not at those of a
// bracket expression's class: [[:alnum:]]* is one pattern.
func splitGlobIgnore(s string) []string {
	var pats []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			if end := bracketEnd(s, i); end > 0 {
				i = end
			}
		case ':':
			pats = append(pats, s[start:i])
			start = i + 1
		}
	}
	return append(pats, s[start:])
}

// bracketEnd is the index of the ] that closes the bracket expression
// opening at s[open], or -1 when none does.
func bracketEnd(s string, open int) int {
	i := open + 1
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		i++
	}
	if i < len(s) && s[i] == ']' {
		i++ // a ] first is a member
	}
	for ; i < len(s); i++ {
		switch {
		case s[i] == '\\':
			i++
		case s[i] == '[' && i+1 < len(s) && (s[i+1] == ':' || s[i+1] == '.' || s[i+1] == '='):
			// [:class:], [.coll.], [=equiv=]
			if end := strings.Index(s[i+2:], string(s[i+1])+"]"); end >= 0 {
				i += 2 + end + 1
			}
		case s[i] == ']':
			return i
		}
	}
	return -1
}

// extGlobAlternatives splits an extended glob group's text at the bars
// that separate its alternatives: not those quoted, escaped, or inside a
// nested group, a substitution or a parameter expansion.
func extGlobAlternatives(text string) []string {
	var alts []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case c == '\\':
			i++
		case quote == '"':
			if c == '"' {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '(' || c == '{':
			depth++
		case (c == ')' || c == '}') && depth > 0:
			depth--
		case c == '|' && depth == 0:
			alts = append(alts, text[start:i])
			start = i + 1
		}
	}
	return append(alts, text[start:])
}

func braceText(p *syntax.BraceExp) string {
	var sb strings.Builder
	sb.WriteByte('{')
	sep := ","
	if p.Sequence {
		sep = ".."
	}
	for i, e := range p.Elems {
		if i > 0 {
			sb.WriteString(sep)
		}
		sb.WriteString(UnescapeRawBytes(e.Lit()))
	}
	sb.WriteByte('}')
	return sb.String()
}

// glob expands a pathname pattern from the shell's directory.
func (r *Runner) glob(pat string) []string {
	opts := pattern.GlobOptions{
		Dot:      r.opts.shopt[optDotglob],
		GlobStar: r.opts.shopt[optGlobstar],
		NoCase:   r.opts.shopt[optNocaseglob],
		ExtGlob:  r.opts.shopt[optExtglob],
		SkipDots: r.opts.shopt[optGlobskipdots],
	}
	if gi, ok := r.Get("GLOBIGNORE"); ok && gi != "" {
		opts.Ignore = splitGlobIgnore(gi)
		opts.Dot = true
	}
	matches, err := pattern.Glob(r.ctx, r.dir, pat, opts)
	if err != nil && r.dry && r.ctx.Err() != nil {
		r.failCommand() // cut off: a dry expansion does not know
	}
	if err != nil || len(matches) == 0 {
		return nil
	}
	return matches
}
