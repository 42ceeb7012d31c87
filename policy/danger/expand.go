package danger

import (
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Expansion: the words of a command line resolved as bash resolves them
// before running, from what the walk knows (values set earlier in the
// string, the home directory, the cwd, a function's positional
// parameters), with holes for what it cannot know. Globbing is left out:
// patterns are judged by what they can match (see arg.quoted).

// maxBraceWords bounds the words one word's brace expansion makes: past
// it the word is taken as unknown, which judges it as the worst it could
// be. Bash has no such bound, but no command worth judging word by word
// names more files than this.
const maxBraceWords = 16 << 10

// expandFields is the fields bash makes of word as a command's argument:
// brace expansion, tilde, parameters, substitutions, arithmetic, field
// splitting and quote removal. ok is false when the word cannot be
// expanded at all (bash would fail), so it is unknown as a whole.
func (w *walker) expandFields(word *syntax.Word) (fields []string, ok bool) {
	s := splitter{ifs: w.ifs()}
	if braces(word) {
		cp := *word // SplitBraces replaces the parts
		if syntax.SplitBraces(&cp) {
			budget := maxBraceWords
			ok := eachBrace(cp.Parts, &budget, func(parts []syntax.WordPart) bool {
				if !w.splitParts(&s, parts) {
					return false
				}
				s.end()
				return true
			})
			return s.fields, ok
		}
	}
	if !w.splitParts(&s, word.Parts) {
		return nil, false
	}
	s.end()
	return s.fields, true
}

// braces reports an unquoted { that may start a brace expansion.
func braces(word *syntax.Word) bool {
	for _, p := range word.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.Contains(l.Value, "{") {
			return true
		}
	}
	return false
}

// eachBrace calls yield with each word the brace expansions in parts
// make, in bash's order, until yield or the budget says stop.
func eachBrace(parts []syntax.WordPart, budget *int, yield func([]syntax.WordPart) bool) bool {
	i := 0
	for i < len(parts) {
		if _, ok := parts[i].(*syntax.BraceExp); ok {
			break
		}
		i++
	}
	if i == len(parts) {
		if *budget--; *budget < 0 {
			return false
		}
		return yield(parts)
	}
	br := parts[i].(*syntax.BraceExp)
	alt := func(mid []syntax.WordPart) bool {
		next := make([]syntax.WordPart, 0, len(parts)-1+len(mid))
		next = append(append(append(next, parts[:i]...), mid...), parts[i+1:]...)
		return eachBrace(next, budget, yield)
	}
	if !br.Sequence {
		for _, e := range br.Elems {
			if !alt(e.Parts) {
				return false
			}
		}
		return true
	}
	return eachSeq(br, func(s string) bool { return alt([]syntax.WordPart{&syntax.Lit{Value: s}}) })
}

// eachSeq yields the items of a sequence expression: {1..10}, {10..1..3},
// {01..10} (padded to the wider end), {a..e}.
func eachSeq(br *syntax.BraceExp, yield func(string) bool) bool {
	fromLit, toLit := br.Elems[0].Lit(), br.Elems[1].Lit()
	from, err1 := strconv.ParseInt(fromLit, 10, 64)
	to, err2 := strconv.ParseInt(toLit, 10, 64)
	chars := err1 != nil || err2 != nil
	if chars {
		if fromLit == "" || toLit == "" {
			return false
		}
		from, to = int64(fromLit[0]), int64(toLit[0])
	}
	width := 0
	if !chars && (padded(fromLit) || padded(toLit)) {
		width = max(len(fromLit), len(toLit))
	}
	step := int64(1)
	if len(br.Elems) > 2 {
		if n, err := strconv.ParseInt(br.Elems[2].Lit(), 10, 64); err == nil && n != 0 {
			step = max(n, -n)
		}
	}
	up := from <= to
	if !up {
		step = -step
	}
	for n := from; (up && n <= to) || (!up && n >= to); n += step {
		var s string
		switch {
		case chars:
			s = string(rune(n))
		case width > 0:
			s = zeroPad(n, width)
		default:
			s = strconv.FormatInt(n, 10)
		}
		if !yield(s) {
			return false
		}
		if (up && n > to-step) || (!up && n < to-step) {
			break // the next step would overflow
		}
	}
	return true
}

func padded(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return len(s) > 1 && s[0] == '0'
}

// zeroPad writes n in width characters, zeros after the sign.
func zeroPad(n int64, width int) string {
	digits := strconv.FormatInt(max(n, -n), 10)
	sign := ""
	if n < 0 {
		sign, width = "-", width-1
	}
	if len(digits) < width {
		digits = strings.Repeat("0", width-len(digits)) + digits
	}
	return sign + digits
}

// splitter builds the fields of a word: quoted text stays whole, unquoted
// results of expansions are split at the characters of IFS.
type splitter struct {
	fields  []string
	cur     strings.Builder
	started bool   // cur is a field, even if empty ("" makes one)
	split   bool   // IFS whitespace has just ended a field
	ifs     string // the separators, " \t\n" unless IFS was set
}

// text adds text that is not split: literal or quoted.
func (s *splitter) text(v string, quoted bool) {
	s.cur.WriteString(v)
	if quoted || v != "" {
		s.started = true
		s.split = false
	}
}

// end ends the field being built, if there is one.
func (s *splitter) end() {
	if s.started {
		s.fields = append(s.fields, s.cur.String())
	}
	s.cur.Reset()
	s.started, s.split = false, false
}

// expanded adds the result of an unquoted expansion, split as bash
// splits: runs of IFS whitespace separate fields, and each other IFS
// character ends one, empty or not.
func (s *splitter) expanded(v string) {
	if s.ifs == "" || !strings.ContainsAny(v, s.ifs) {
		s.text(v, false)
		return
	}
	start := -1
	for i := 0; i < len(v); {
		r, size := utf8.DecodeRuneInString(v[i:])
		if !strings.ContainsRune(s.ifs, r) {
			if start < 0 {
				start = i
			}
			i += size
			continue
		}
		if start >= 0 {
			s.text(v[start:i], false)
			start = -1
		}
		switch {
		case r == ' ' || r == '\t' || r == '\n':
			if s.started {
				s.end()
				s.split = true
			}
		case s.started:
			s.end()
		case !s.split:
			s.fields = append(s.fields, "")
		default:
			s.split = false // IFS whitespace and this make one separator
		}
		i += size
	}
	if start >= 0 {
		s.text(v[start:], false)
	}
}

// ifs is the value of IFS: set on the line, or bash's default (also
// when it is set to what is not known: a hole must not split itself
// away).
func (w *walker) ifs() string {
	if v, ok := w.vars["IFS"]; ok && !hasHole(v) {
		return v
	}
	return " \t\n"
}

// splitParts adds the parts of one word (after brace expansion) to s.
func (w *walker) splitParts(s *splitter, parts []syntax.WordPart) bool {
	first := true // no text yet: a tilde here starts the word
	for i, p := range parts {
		if l, ok := p.(*syntax.Lit); ok && l.Value == "" {
			continue // brace expansion leaves empty literals
		}
		wasFirst := first
		first = false
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			if wasFirst {
				if home, rest, ok := w.tilde(v, !emptyLits(parts[i+1:])); ok {
					s.text(home, true)
					v = rest
				} else if w.assignTildes(s, v, !emptyLits(parts[i+1:])) {
					continue
				}
			}
			s.text(unescape(v), false)
		case *syntax.SglQuoted:
			s.text(sglText(p), true)
		case *syntax.DblQuoted:
			if !w.splitQuoted(s, p.Parts) {
				return false
			}
		case *syntax.ParamExp:
			if elems, _, ok := w.paramElems(p); ok {
				// $@, $*, ${a[@]}: each element is split on its own.
				for j, e := range elems {
					if j > 0 {
						s.end()
					}
					s.expanded(e)
				}
				continue
			}
			v, ok := w.paramValue(p)
			if !ok {
				return false
			}
			s.expanded(v)
		case *syntax.CmdSubst:
			s.expanded(w.substText(p))
		case *syntax.ArithmExp:
			s.expanded(w.arithText(p.X))
		case *syntax.ProcSubst:
			s.expanded(w.procSubstPath(p))
		case *syntax.ExtGlob:
			s.text(p.Op.String()+p.Pattern.Value+")", false)
		default:
			return false
		}
	}
	return true
}

// assignTildes expands the tildes of an argument that looks like an
// assignment, as bash does outside POSIX mode: after the = and after each
// : (dd of=~/.bashrc, make PREFIX=~/.local). It reports whether it wrote
// the literal v to s.
func (w *walker) assignTildes(s *splitter, v string, more bool) bool {
	eq := strings.IndexByte(v, '=')
	if eq <= 0 || !strings.Contains(v[eq:], "~") || strings.ContainsRune(v, '\\') || !syntax.ValidName(v[:eq]) {
		return false
	}
	s.text(v[:eq+1], false)
	segs := strings.Split(v[eq+1:], ":")
	for j, seg := range segs {
		if j > 0 {
			s.text(":", false)
		}
		if home, rest, ok := w.tilde(seg, more && j == len(segs)-1); ok {
			s.text(home, true)
			seg = rest
		}
		s.text(seg, false)
	}
	return true
}

// emptyLits reports parts that add nothing: none, or empty literals.
func emptyLits(parts []syntax.WordPart) bool {
	for _, p := range parts {
		if l, ok := p.(*syntax.Lit); !ok || l.Value != "" {
			return false
		}
	}
	return true
}

// splitQuoted adds the parts of a double-quoted string: one field, but
// for "$@" and "${a[@]}", whose elements are fields each.
func (w *walker) splitQuoted(s *splitter, parts []syntax.WordPart) bool {
	if len(parts) == 0 {
		s.text("", true)
	}
	for _, p := range parts {
		if pe, ok := p.(*syntax.ParamExp); ok {
			if elems, star, ok := w.paramElems(pe); ok && !star {
				for j, e := range elems {
					if j > 0 {
						s.fields = append(s.fields, s.cur.String())
						s.cur.Reset()
					}
					s.text(e, true)
				}
				continue
			}
		}
		v, ok := w.quotedPart(p)
		if !ok {
			return false
		}
		s.text(v, true)
	}
	return true
}

// quotedPart is the value of a part inside double quotes (or a here-doc,
// whose literal parts the caller unescapes itself).
func (w *walker) quotedPart(p syntax.WordPart) (string, bool) {
	switch p := p.(type) {
	case *syntax.Lit:
		return dblUnescape(p.Value, `\$"`+"`"), true
	case *syntax.ParamExp:
		return w.paramValue(p)
	case *syntax.CmdSubst:
		return w.substText(p), true
	case *syntax.ArithmExp:
		return w.arithText(p.X), true
	case *syntax.ProcSubst:
		return w.procSubstPath(p), true
	case *syntax.SglQuoted: // $'…' inside "…" is literal text
		return sglText(p), true
	case *syntax.DblQuoted:
		var b strings.Builder
		for _, q := range p.Parts {
			v, ok := w.quotedPart(q)
			if !ok {
				return "", false
			}
			b.WriteString(v)
		}
		return b.String(), true
	}
	return "", false
}

// expandLiteral is word as one string, as bash expands an assignment's
// value or a redirection's target: no splitting, no globbing.
func (w *walker) expandLiteral(word *syntax.Word) (string, bool) {
	if word == nil {
		return "", true
	}
	var b strings.Builder
	for i, p := range word.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			if i == 0 {
				if home, rest, ok := w.tilde(v, len(word.Parts) > 1); ok {
					b.WriteString(home)
					v = rest
				}
			}
			b.WriteString(unescape(v))
		case *syntax.ParamExp:
			v, ok := w.paramValue(p)
			if !ok {
				return "", false
			}
			b.WriteString(v)
		case *syntax.ExtGlob:
			b.WriteString(p.Op.String() + p.Pattern.Value + ")")
		default:
			v, ok := w.quotedPart(p)
			if !ok {
				return "", false
			}
			b.WriteString(v)
		}
	}
	return b.String(), true
}

// expandDocument is the body of a here-doc whose delimiter is not
// quoted: expansions, and \ escaping only \, $ and `.
func (w *walker) expandDocument(word *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range word.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			b.WriteString(dblUnescape(l.Value, `\$`+"`"))
			continue
		}
		v, ok := w.quotedPart(p)
		if !ok {
			return "", false
		}
		b.WriteString(v)
	}
	return b.String(), true
}

// tilde expands a ~ prefix of the first literal of a word: ~ and ~/… are
// the home directory ($HOME when the line sets it), ~+ the cwd, ~user
// that user's home next to ours. more says other parts follow the
// literal: a prefix with no slash then is not a tilde prefix (~'x').
func (w *walker) tilde(lit string, more bool) (home, rest string, ok bool) {
	name, found := strings.CutPrefix(lit, "~")
	if !found {
		return "", lit, false
	}
	i := strings.IndexByte(name, '/')
	if i < 0 && more {
		return "", lit, false
	}
	if i >= 0 {
		name, rest = name[:i], name[i:]
	}
	switch {
	case name == "":
		return w.param("HOME").str(), rest, true
	case name == "+":
		if w.cwd != "" {
			return w.cwd, rest, true
		}
		return hole, rest, true
	case name == "-":
		if v, ok := w.vars["OLDPWD"]; ok {
			return v, rest, true
		}
		return hole, rest, true
	case strings.ContainsAny(name, "\\\"'$`"):
		return "", lit, false
	}
	return path.Join(path.Dir(w.ws.Home), name), rest, true
}

// unescape removes the backslashes of unquoted text: \x is x. A
// backslash at the end stays.
func unescape(s string) string {
	i := strings.IndexByte(s, '\\')
	if i < 0 || i == len(s)-1 {
		return s
	}
	var b strings.Builder
	for {
		b.WriteString(s[:i])
		s = s[i+1:]
		_, size := utf8.DecodeRuneInString(s)
		b.WriteString(s[:size])
		s = s[size:]
		if i = strings.IndexByte(s, '\\'); i < 0 || i == len(s)-1 {
			break
		}
	}
	b.WriteString(s)
	return b.String()
}

// dblUnescape removes the backslashes before the characters special
// inside double quotes (special: `\$"` and the backquote; in here-docs,
// without the quote); other backslashes stay.
func dblUnescape(s, special string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(special, s[i+1]) >= 0 {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// sglText is the value of '…' or of $'…', whose escapes are decoded (a
// NUL ends the string, as in bash).
func sglText(p *syntax.SglQuoted) string {
	if !p.Dollar {
		return p.Value
	}
	s := ansiC(p.Value)
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	return s
}
