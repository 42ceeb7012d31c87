package eval

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/shell/pattern"
)

// pval is what a parameter names before any operator: one string, or the
// elements of $@, ${a[@]} and the like.
type pval struct {
	name string // for messages
	list bool   // several elements: @ * [@] [*] ${!x@} ${!a[@]}
	star bool   // the * form, which joins when quoted
	vals []string
	s    string
	set  bool // the string is set, or the list has elements
}

func (v pval) joined(r *Runner) string {
	if !v.list {
		return v.s
	}
	if v.star {
		return strings.Join(v.vals, r.ifsJoin())
	}
	return strings.Join(v.vals, " ")
}

// null reports whether the value is unset or empty, for the : operators.
func (v pval) null(r *Runner) bool {
	if !v.list {
		return !v.set || v.s == ""
	}
	return len(v.vals) == 0 || v.joined(r) == ""
}

// isListExp reports whether pe expands to several fields when quoted.
func isListExp(pe *syntax.ParamExp) bool {
	if pe.Length || pe.Excl && pe.Index == nil && pe.Names == 0 {
		return false
	}
	if pe.Names == syntax.NamesPrefixWords {
		return true
	}
	if pe.Index != nil {
		return subAll(pe.Index) == "@"
	}
	return pe.Param != nil && pe.Param.Value == "@"
}

// subAll is "@" or "*" for the subscripts [@] and [*], else "".
func subAll(x syntax.ArithmExpr) string {
	if w, ok := x.(*syntax.Word); ok {
		if l := w.Lit(); l == "@" || l == "*" {
			return l
		}
	}
	return ""
}

func (r *Runner) paramExp(pe *syntax.ParamExp, quoted bool, b *builder) {
	if pe.Param == nil {
		r.fatal(&varError{msg: "bad substitution"})
	}
	if fixed, text := r.emptySliceLength(pe); fixed != nil {
		// Its positions are in its own text.
		savedSrc, savedLenient := r.src, r.lenient
		r.src, r.lenient = text, nil
		defer func() { r.src, r.lenient = savedSrc, savedLenient }()
		pe = fixed
	} else {
		r.badSubst(pe)
	}
	if pe.Length {
		b.value(r.paramLength(pe), quoted)
		return
	}
	v := r.paramValue(pe)
	switch {
	case pe.Exp != nil:
		if done := r.paramOp(pe, &v, quoted, b); done {
			return
		}
	case pe.Slice != nil:
		r.paramSlice(pe, &v)
	case pe.Repl != nil:
		r.paramRepl(pe, &v)
	default:
		r.checkUnset(pe, v)
	}
	r.emit(v, quoted, b)
}

func (r *Runner) emit(v pval, quoted bool, b *builder) {
	switch {
	case !v.list:
		b.value(v.s, quoted)
	case v.star && (quoted || !b.split):
		b.text(strings.Join(v.vals, r.ifsJoin()), quoted)
	default:
		b.list(v.vals, quoted)
	}
}

// checkUnset is set -u's check of a parameter used with no default.
func (r *Runner) checkUnset(pe *syntax.ParamExp, v pval) {
	if !r.opts.set[optNounset] || v.set || v.list {
		return
	}
	name := pe.Param.Value
	if pe.Index != nil {
		name += "[" + r.srcOf(pe.Index) + "]"
	}
	r.unbound(name, 127)
}

// unbound ends the command as set -u does for the parameter name, with
// bash's status: 127, but 1 for the length of a whole array.
func (r *Runner) unbound(name string, status int) {
	switch name {
	case "-":
		return
	case "!":
		name = "$!" // as bash names it
	}
	if name[0] >= '0' && name[0] <= '9' {
		name = "$" + name
	}
	r.errorf("%s: unbound variable", name)
	panic(abort{status: status, exit: true})
}

// paramValue is the value a parameter expansion starts from: the
// parameter, an element, an indirection, or a list of names or keys.
func (r *Runner) paramValue(pe *syntax.ParamExp) pval {
	name := pe.Param.Value
	switch {
	case pe.Names != 0:
		var names []string
		for _, n := range r.vars.names() {
			if strings.HasPrefix(n, name) && r.lookup(n) != nil {
				names = append(names, n)
			}
		}
		sortStrings(names)
		return pval{name: name, list: true, star: pe.Names == syntax.NamesPrefix, vals: names, set: len(names) > 0}
	case pe.Excl && pe.Index != nil && subAll(pe.Index) != "" && pe.Exp == nil && pe.Slice == nil && pe.Repl == nil:
		// ${!a[@]} lists the keys; with an operator after it, bash reads
		// it as an indirection through the values.
		v := r.lookup(name)
		keys := v.Keys()
		return pval{name: name, list: true, star: subAll(pe.Index) == "*", vals: keys, set: len(keys) > 0}
	case pe.Excl && pe.Index == nil && r.isNameref(name):
		// ${!ref} of a nameref is the name it refers to, not its value.
		if v, _ := r.vars.find(name); v.set {
			return pval{name: name, s: v.str, set: true}
		}
		r.errorf("%s: invalid indirect expansion", name)
		panic(abort{status: 1})
	case pe.Excl:
		ref := r.indirect(pe)
		if ref == "" {
			return pval{name: name}
		}
		n, sub, hasSub, ok := splitRef(ref)
		if !ok && !isSpecialParam(ref) {
			r.errorf("%s: invalid variable name", ref)
			r.failCommand()
		}
		if hasSub {
			if sub == "@" || sub == "*" {
				v := r.lookup(n)
				vals := v.Values()
				return pval{name: ref, list: true, star: sub == "*", vals: vals, set: len(vals) > 0}
			}
			v := r.lookup(n)
			if v == nil {
				return pval{name: ref}
			}
			s, ok := r.element(n, v, sub)
			return pval{name: ref, s: s, set: ok}
		}
		return r.namedValue(n, nil, ref)
	}
	return r.namedValue(name, pe.Index, name)
}

func (r *Runner) isNameref(name string) bool {
	v, _ := r.vars.find(name)
	return v != nil && v.Attr&AttrNameref != 0
}

// indirect is what ${!name} refers to: the value of name, or for a
// nameref the name of its target.
func (r *Runner) indirect(pe *syntax.ParamExp) string {
	name := pe.Param.Value
	if v, _ := r.vars.find(name); v != nil && v.Attr&AttrNameref != 0 && pe.Index == nil {
		return v.str
	}
	v := r.namedValue(name, pe.Index, name)
	if !v.set && !v.list {
		// A variable that exists with no value (an array without element
		// 0) refers to nothing; one that does not exist is an error, in
		// bash 5.2 also with an operator that has a default (${!u-d}).
		if r.lookup(name) == nil && !isSpecialParam(name) {
			r.errorf("%s: invalid indirect expansion", name)
			panic(abort{status: 1})
		}
		return ""
	}
	ref := v.joined(r)
	if ref == "" {
		r.errorf("%s: invalid variable name", ref)
		r.failCommand()
	}
	return ref
}

func isSpecialParam(s string) bool {
	switch s {
	case "@", "*", "#", "?", "-", "$", "!", "_":
		return true
	}
	_, err := strconv.Atoi(s)
	return err == nil
}

// namedValue is the value of a parameter by name, with an optional
// subscript.
func (r *Runner) namedValue(name string, index syntax.ArithmExpr, label string) pval {
	if index != nil {
		if all := subAll(index); all != "" {
			var vals []string
			if name == "@" || name == "*" {
				vals = r.params
			} else {
				vals = r.lookup(name).Values()
			}
			return pval{name: label, list: true, star: all == "*", vals: vals, set: len(vals) > 0}
		}
		v := r.lookup(name)
		if v == nil {
			// The subscript is evaluated all the same.
			r.subscriptIndex(index)
			return pval{name: label}
		}
		var s string
		var ok bool
		if v.m != nil {
			s, ok = v.m.get(r.subscriptKey(index))
		} else {
			s, ok = r.index(name, v, r.subscriptIndex(index))
		}
		return pval{name: label, s: s, set: ok}
	}
	switch name {
	case "@", "*":
		return pval{name: label, list: true, star: name == "*", vals: r.params, set: len(r.params) > 0}
	case "#":
		return pval{name: label, s: itoa(int64(len(r.params))), set: true}
	case "?":
		return pval{name: label, s: itoa(int64(r.status)), set: true}
	case "-":
		return pval{name: label, s: r.dollarDash(), set: true}
	case "$":
		return pval{name: label, s: itoa(int64(r.sess.pid)), set: true}
	case "!":
		if r.lastBg == 0 {
			return pval{name: label}
		}
		return pval{name: label, s: itoa(int64(r.lastBg)), set: true}
	case "_":
		return pval{name: label, s: r.lastArg, set: true}
	case "0":
		return pval{name: label, s: r.arg0, set: true}
	}
	if c := name[0]; c >= '0' && c <= '9' {
		n, err := strconv.Atoi(name)
		if err != nil || n < 1 || n > len(r.params) {
			return pval{name: label}
		}
		return pval{name: label, s: r.params[n-1], set: true}
	}
	v := r.lookup(name)
	return pval{name: label, s: v.String(), set: v.IsSet()}
}

// subscriptIndex evaluates an indexed array's subscript.
func (r *Runner) subscriptIndex(x syntax.ArithmExpr) int64 {
	return r.arithExp(x)
}

// subscriptKey is an associative array's key: the subscript's text,
// expanded as a word.
func (r *Runner) subscriptKey(x syntax.ArithmExpr) string {
	if orig, ok := r.arithOriginal(x); ok {
		return r.assocKey(orig) // ([a b]=1): see arrayKeyAround
	}
	if w, ok := x.(*syntax.Word); ok {
		return r.Literal(w)
	}
	return r.assocKey(r.srcOf(x))
}

// assocKey expands the text of a subscript as a word would be, its quotes
// removed.
func (r *Runner) assocKey(text string) string {
	if !strings.ContainsAny(text, "$`'\"\\") {
		return text
	}
	if w, err := r.parseWordOf(text); err == nil {
		return r.literalOf(w, text)
	}
	return r.expandDoc(text)
}

func (r *Runner) paramLength(pe *syntax.ParamExp) string {
	name := pe.Param.Value
	if pe.Index != nil && subAll(pe.Index) != "" {
		if name == "@" || name == "*" {
			return itoa(int64(len(r.params)))
		}
		v := r.lookup(name)
		if r.opts.set[optNounset] && (v == nil || !v.set) {
			// bash: an array only declared (declare -a a) is unset
			// as a whole, and set -u says so; a=() is set.
			r.unbound(name, 1)
		}
		return itoa(int64(v.count()))
	}
	if pe.Index == nil && (name == "@" || name == "*") {
		return itoa(int64(len(r.params)))
	}
	v := r.paramValue(&syntax.ParamExp{Param: pe.Param, Index: pe.Index, Excl: pe.Excl})
	r.checkUnset(pe, v)
	return itoa(int64(utf8.RuneCountInString(v.s)))
}

// paramOp applies ${x-w} and the other operators that take a word; done
// is set when it wrote the result itself.
func (r *Runner) paramOp(pe *syntax.ParamExp, v *pval, quoted bool, b *builder) (done bool) {
	op := pe.Exp.Op
	w := pe.Exp.Word
	switch op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull:
		if op == syntax.DefaultUnset && !v.set || op == syntax.DefaultUnsetOrNull && v.null(r) {
			r.opWord(w, quoted, b)
			return true
		}
		return false
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		if op == syntax.AlternateUnset && v.set || op == syntax.AlternateUnsetOrNull && !v.null(r) {
			r.opWord(w, quoted, b)
		} else if quoted && v.list && !v.star {
			// Like "$@" with no parameters: no word of its own, so that
			// "${a[@]+"${a[@]}"}" is bash 3's safe empty array.
			b.list(nil, true)
		} else if quoted {
			b.text("", true)
		}
		return true
	case syntax.AssignUnset, syntax.AssignUnsetOrNull:
		if op == syntax.AssignUnset && !v.set || op == syntax.AssignUnsetOrNull && v.null(r) {
			s := r.Literal(w)
			target := pe.Param.Value
			if pe.Excl {
				target = v.name // the name the indirection reached
			}
			if isSpecialParam(target) && (pe.Index == nil || pe.Excl) {
				r.errorf("$%s: cannot assign in this way", target)
				panic(abort{status: 1})
			}
			var err error
			if pe.Index != nil && !pe.Excl {
				err = r.assignSub(target, pe.Index, s, false)
			} else {
				err = r.assign(target, s, false)
			}
			if err != nil {
				r.fatal(err)
			}
			*v = pval{name: v.name, s: s, set: true}
			if vv := r.lookup(target); vv != nil && (pe.Index == nil || pe.Excl) {
				v.s = vv.String()
			}
		}
		return false
	case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
		if op == syntax.ErrorUnset && !v.set || op == syntax.ErrorUnsetOrNull && v.null(r) {
			msg := "parameter null or not set"
			if op == syntax.ErrorUnset {
				msg = "parameter not set"
			}
			if w != nil {
				msg = r.Literal(w)
			}
			r.errorf("%s: %s", v.name, msg)
			panic(abort{status: 127, exit: true})
		}
		return false
	}
	r.checkUnset(pe, *v)
	switch op {
	case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
		p := r.compilePattern(w)
		v.apply(func(s string) string {
			if p == nil {
				return s
			}
			switch op {
			case syntax.RemSmallPrefix, syntax.RemLargePrefix:
				if n := p.Prefix(s, op == syntax.RemLargePrefix); n >= 0 {
					return s[n:]
				}
			default:
				if n := p.Suffix(s, op == syntax.RemLargeSuffix); n >= 0 {
					return s[:n]
				}
			}
			return s
		})
	case syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll:
		var p *pattern.Pattern
		if w != nil {
			p = r.compilePattern(w)
		}
		all := op == syntax.UpperAll || op == syntax.LowerAll
		upper := op == syntax.UpperFirst || op == syntax.UpperAll
		v.apply(func(s string) string { return caseMap(s, p, all, upper) })
	case syntax.OtherParamOps:
		r.atOp(pe, v, w.Lit())
	default:
		r.fatal(&varError{msg: "bad substitution"})
	}
	return false
}

// opWord expands the word of ${x-word} or ${x+word} in the quoting the
// expansion is in.
func (r *Runner) opWord(w *syntax.Word, quoted bool, b *builder) {
	if w == nil {
		if quoted {
			b.text("", true)
		}
		return
	}
	saved := b.splitLits
	b.splitLits = !quoted
	r.parts(w.Parts, quoted, b, !quoted)
	b.splitLits = saved
	if quoted && !b.cur.started {
		b.text("", true)
	}
}

// apply changes each element of v, or its string.
func (v *pval) apply(f func(string) string) {
	if v.list {
		vals := make([]string, len(v.vals))
		for i, s := range v.vals {
			vals[i] = f(s)
		}
		v.vals = vals
		return
	}
	if v.set {
		v.s = f(v.s)
	}
}

func (r *Runner) compilePattern(w *syntax.Word) *pattern.Pattern {
	pat := r.Pattern(w)
	mode := r.patMode()
	if r.opts.shopt[optNocasematch] {
		// ${x#pat} is not affected by nocasematch in bash.
		_ = mode
	}
	p, err := pattern.Compile(pat, mode)
	if err != nil {
		return nil
	}
	return p
}

// caseMap is ${x^pat} and its kin: the first character, or all, that
// match p (any, without p) to upper or lower case.
func caseMap(s string, p *pattern.Pattern, all, upper bool) string {
	var sb strings.Builder
	for i, c := range s {
		if i > 0 && !all {
			sb.WriteString(s[i:])
			break
		}
		if p == nil || p.Match(string(c)) {
			if upper {
				c = unicode.ToUpper(c)
			} else {
				c = unicode.ToLower(c)
			}
		}
		sb.WriteRune(c)
	}
	return sb.String()
}

// paramSlice is ${x:offset:length}.
func (r *Runner) paramSlice(pe *syntax.ParamExp, v *pval) {
	r.checkUnset(pe, *v)
	off := r.arithExp(pe.Slice.Offset)
	var length int64
	hasLen := pe.Slice.Length != nil
	if hasLen {
		length = r.arithExp(pe.Slice.Length)
	}
	if v.list {
		vals := v.vals
		if pe.Index == nil && (pe.Param.Value == "@" || pe.Param.Value == "*") {
			// $@'s slices count $0 as element 0.
			vals = append([]string{r.arg0}, r.params...)
		} else if pe.Index != nil && !pe.Excl {
			// An array's slice counts indices, not elements.
			vv := r.lookup(pe.Param.Value)
			if vv != nil && vv.arr != nil {
				v.vals = sliceIndexed(vv.arr, off, length, hasLen, r, pe)
				return
			}
		}
		n := int64(len(vals))
		if off < 0 {
			off += n
			if off < 0 {
				v.vals = nil
				return
			}
		}
		if off > n {
			off = n
		}
		end := n
		if hasLen {
			if length < 0 {
				r.errorf("%s: substring expression < 0", r.srcOf(pe.Slice.Length))
				panic(abort{status: 1})
			}
			end = min(off+length, n)
		}
		v.vals = vals[off:end]
		return
	}
	if !v.set {
		return
	}
	runes := []rune(v.s)
	n := int64(len(runes))
	if off < 0 {
		off += n
		if off < 0 {
			v.s = ""
			return
		}
	}
	if off > n {
		v.s = ""
		return
	}
	end := n
	if hasLen {
		if length < 0 {
			end = n + length
			if end < off {
				r.errorf("%s: substring expression < 0", r.srcOf(pe.Slice.Length))
				panic(abort{status: 1})
			}
		} else {
			end = min(off+length, n)
		}
	}
	v.s = string(runes[off:end])
}

// sliceIndexed is ${a[@]:off:len} of an indexed array: the elements from
// index off on (counting back from the highest index when negative).
func sliceIndexed(a *indexed, off, length int64, hasLen bool, r *Runner, pe *syntax.ParamExp) []string {
	if off < 0 {
		off += int64(a.max()) + 1
		if off < 0 {
			return nil
		}
	}
	if hasLen && length < 0 {
		r.errorf("%s: substring expression < 0", r.srcOf(pe.Slice.Length))
		panic(abort{status: 1})
	}
	var out []string
	for i, k := range a.keys {
		if int64(k) < off {
			continue
		}
		if hasLen && int64(len(out)) >= length {
			break
		}
		out = append(out, a.vals[i])
	}
	return out
}

// paramRepl is ${x/pat/rep} and its anchored and global forms.
func (r *Runner) paramRepl(pe *syntax.ParamExp, v *pval) {
	r.checkUnset(pe, *v)
	orig := pe.Repl.Orig
	anchor := byte(0)
	if orig != nil && len(orig.Parts) > 0 {
		if l, ok := orig.Parts[0].(*syntax.Lit); ok && l.Value != "" && (l.Value[0] == '#' || l.Value[0] == '%') {
			anchor = l.Value[0]
			rest := *l
			rest.Value = l.Value[1:]
			parts := append([]syntax.WordPart{&rest}, orig.Parts[1:]...)
			orig = &syntax.Word{Parts: parts}
		}
	}
	pat := r.Pattern(orig)
	p, err := pattern.Compile(pat, r.patMode())
	if err != nil || pat == "" && anchor == 0 {
		return
	}
	rep := r.replacement(pe.Repl.With)
	all := pe.Repl.All
	v.apply(func(s string) string {
		switch anchor {
		case '#':
			if n := p.Prefix(s, true); n >= 0 {
				return rep(s[:n]) + s[n:]
			}
			return s
		case '%':
			if n := p.Suffix(s, true); n >= 0 {
				return s[:n] + rep(s[n:])
			}
			return s
		}
		return p.Replace(s, all, rep)
	})
}

// replacement expands the replacement of ${x/p/rep}: with
// patsub_replacement, an unquoted & stands for what matched.
func (r *Runner) replacement(w *syntax.Word) func(match string) string {
	if w == nil {
		return func(string) string { return "" }
	}
	if !r.opts.shopt[optPatsubReplacement] {
		s := r.Literal(w)
		return func(string) string { return s }
	}
	b := &builder{r: r, patterns: true}
	r.parts(w.Parts, false, b, true) // bash expands a leading ~, quoted or not
	pat := string(b.cur.pat)
	if !strings.Contains(pat, "&") {
		s := string(b.cur.val)
		return func(string) string { return s }
	}
	return func(m string) string {
		var sb strings.Builder
		for i := 0; i < len(pat); i++ {
			switch c := pat[i]; c {
			case '\\':
				if i+1 < len(pat) {
					i++
					sb.WriteByte(pat[i])
				}
			case '&':
				sb.WriteString(m)
			default:
				sb.WriteByte(c)
			}
		}
		return sb.String()
	}
}

// atOp is ${x@op}: Q E P A K k a U u L.
func (r *Runner) atOp(pe *syntax.ParamExp, v *pval, op string) {
	switch op {
	case "Q":
		v.apply(func(s string) string { return shellQuote(s) })
	case "E":
		v.apply(ansiC)
	case "P":
		v.apply(r.expandPrompt)
	case "U":
		v.apply(strings.ToUpper)
	case "u":
		v.apply(func(s string) string { return caseMap(s, nil, false, true) })
	case "L":
		v.apply(strings.ToLower)
	case "a":
		vv := r.lookup(pe.Param.Value)
		flags := ""
		if vv != nil {
			flags = attrLetters(vv.Attr)
		}
		if v.list {
			for i := range v.vals {
				v.vals[i] = flags
			}
		} else {
			v.s, v.set = flags, true
		}
	case "A":
		name := pe.Param.Value
		vv := r.lookup(name)
		if vv == nil {
			return
		}
		if v.list || vv.isArray() {
			*v = pval{name: v.name, s: declareLine(name, vv), set: true}
			return
		}
		if !v.set {
			return
		}
		prefix := ""
		if f := attrLetters(vv.Attr); f != "" {
			prefix = "declare -" + f + " "
		}
		v.s = prefix + name + "=" + shellQuote(v.s)
	case "K", "k":
		vv := r.lookup(pe.Param.Value)
		if vv == nil || !vv.isArray() {
			v.apply(func(s string) string { return shellQuote(s) })
			return
		}
		keys, vals := vv.Keys(), vv.Values()
		var out []string
		for i, k := range keys {
			kq := k
			if vv.m != nil {
				kq = shellQuoteKey(k)
			}
			if op == "K" {
				out = append(out, kq+" "+dquote(vals[i]))
			} else {
				out = append(out, kq, vals[i])
			}
		}
		if op == "K" {
			if v.list {
				v.vals = out
			} else {
				*v = pval{name: v.name, s: strings.Join(out, " "), set: true}
			}
			return
		}
		*v = pval{name: v.name, list: true, vals: out, set: len(out) > 0}
	default:
		r.errorf("%s: bad substitution", "${"+pe.Param.Value+"@"+op+"}")
		panic(abort{status: 1})
	}
}

func attrLetters(a Attr) string {
	var b []byte
	for _, f := range attrFlags {
		if a&f.attr != 0 {
			b = append(b, f.flag)
		}
	}
	return string(b)
}
