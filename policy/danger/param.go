package danger

import (
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/policy/secret"
)

// value is what a parameter holds as far as the walk knows: a string
// (hole when unknown) or an indexed array.
type value struct {
	s      string
	list   []string
	isList bool
}

// str is the value as a string: an array's first element.
func (v value) str() string {
	if v.isList {
		if len(v.list) > 0 {
			return v.list[0]
		}
		return ""
	}
	return v.s
}

// elems is the value as a list: a string is a list of one.
func (v value) elems() []string {
	if v.isList {
		return v.list
	}
	return []string{v.s}
}

// param is the value of the parameter name: set on the line, special
// (HOME, PWD, IFS, $0, $#, $@ and the positional parameters inside a
// function the string calls), or unknown.
func (w *walker) param(name string) value {
	for range 8 { // declare -n r=HOME: $r is $HOME
		target, ok := w.refs[name]
		if !ok {
			break
		}
		if !syntax.ValidName(target) {
			return value{s: hole}
		}
		name = target
	}
	if v, ok := w.vars[name]; ok {
		return value{s: v}
	}
	if l, ok := w.lists[name]; ok {
		return value{list: l, isList: true}
	}
	switch name {
	case "HOME":
		return value{s: w.ws.Home}
	case "PWD":
		if w.cwd != "" {
			return value{s: w.cwd}
		}
	case "IFS":
		return value{s: " \t\n"}
	case "0":
		if w.arg0 != "" {
			return value{s: w.arg0}
		}
	case "#":
		if w.params != nil {
			return value{s: strconv.Itoa(len(w.params))}
		}
	case "@", "*":
		if w.params != nil {
			return value{list: w.params, isList: true}
		}
		return value{list: []string{hole}, isList: true}
	}
	if f := secret.VarFile(name); f != "" {
		// $KUBECONFIG and the like name a secret file wherever it is.
		return value{s: path.Join(w.ws.Home, f)}
	}
	if n, err := strconv.Atoi(name); err == nil && n > 0 && w.params != nil {
		if n <= len(w.params) {
			return value{s: w.params[n-1]}
		}
		return value{s: ""}
	}
	return value{s: hole}
}

// paramLists reports a parameter expansion of all the elements of a
// list: $@, $*, ${a[@]}, ${a[*]} (star: the * forms, which join when
// quoted).
func paramList(pe *syntax.ParamExp) (all, star bool) {
	if pe.Param == nil {
		return false, false
	}
	switch name := pe.Param.Value; name {
	case "@", "*":
		return true, name == "*"
	}
	if w, ok := pe.Index.(*syntax.Word); ok {
		switch w.Lit() {
		case "@", "*":
			return true, w.Lit() == "*"
		}
	}
	return false, false
}

// paramElems is the elements of a list expansion ($@, ${a[@]#x} …) that
// keep apart as fields, with the operators applied to each; ok is false
// for any other expansion, which paramValue gives as one string.
func (w *walker) paramElems(pe *syntax.ParamExp) (elems []string, star, ok bool) {
	all, star := paramList(pe)
	if !all || pe.Excl || pe.Length || pe.Width || pe.IsSet {
		return nil, false, false
	}
	elems, ok = w.listElems(pe)
	if !ok {
		return nil, false, false
	}
	if pe.Exp != nil {
		switch pe.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull,
			syntax.ErrorUnset, syntax.ErrorUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
			if len(elems) == 0 || pe.Exp.Op == syntax.AlternateUnset || pe.Exp.Op == syntax.AlternateUnsetOrNull {
				return nil, false, false // one word in place of the list
			}
			return elems, star, true
		}
	}
	elems, ok = w.elemOps(pe, elems)
	return elems, star, ok
}

// listElems is the elements of $@ or an array, sliced by ${a[@]:n:m}.
func (w *walker) listElems(pe *syntax.ParamExp) ([]string, bool) {
	name := pe.Param.Value
	positional := name == "@" || name == "*"
	v := w.param(name)
	elems := v.elems()
	if pe.Slice == nil {
		return elems, true
	}
	if positional && w.params == nil || !v.isList && hasHole(v.s) {
		return []string{hole}, true // how many there are is not known
	}
	if positional {
		// ${@:0} starts with $0.
		elems = append([]string{w.param("0").s}, elems...)
	}
	from, to, ok := w.slice(pe.Slice, len(elems))
	if !ok {
		return []string{hole}, true
	}
	return elems[from:to], true
}

// slice is the bounds ${x:offset:length} takes in n items; negative
// offsets count from the end, a negative length ends before the end.
func (w *walker) slice(sl *syntax.Slice, n int) (from, to int, ok bool) {
	clamp := func(i int64) int {
		if i < 0 {
			i += int64(n)
			if i < 0 {
				return -1
			}
		}
		return int(min(i, int64(n)))
	}
	from, to = 0, n
	if sl.Offset != nil {
		off, ok := w.arith(sl.Offset)
		if !ok {
			return 0, 0, false
		}
		if from = clamp(off); from < 0 {
			return 0, 0, true // bash: nothing
		}
	}
	if sl.Length != nil {
		l, ok := w.arith(sl.Length)
		if !ok {
			return 0, 0, false
		}
		if l < 0 {
			if to = clamp(l); to < from {
				return 0, 0, false // bash: an error
			}
		} else {
			to = from + int(min(l, int64(n-from)))
		}
	}
	return from, to, true
}

// paramValue is a parameter expansion as one string; ok is false when
// bash would fail (${x:?}, an indirection to nothing).
func (w *walker) paramValue(pe *syntax.ParamExp) (string, bool) {
	if pe.Param == nil || pe.Width || pe.IsSet {
		return "", false
	}
	name := pe.Param.Value
	all, star := paramList(pe)
	join := func(elems []string) string {
		if star || pe.Excl && pe.Names == syntax.NamesPrefix {
			sep := ""
			if ifs := w.ifs(); ifs != "" {
				_, n := utf8.DecodeRuneInString(ifs)
				sep = ifs[:n]
			}
			return strings.Join(elems, sep)
		}
		return strings.Join(elems, " ")
	}
	var (
		elems []string
		str   string
		set   = true
	)
	switch {
	case pe.Excl && pe.Names != 0:
		// ${!prefix*}: names of variables, not known.
		return hole, true
	case pe.Excl && all:
		// ${!a[@]}: the indexes of an array.
		v := w.param(name)
		if !v.isList {
			if hasHole(v.s) {
				return hole, true
			}
			return "0", true
		}
		keys := make([]string, len(v.list))
		for i := range keys {
			keys[i] = strconv.Itoa(i)
		}
		return join(keys), true
	case all:
		var ok bool
		if elems, ok = w.listElems(pe); !ok {
			return "", false
		}
		str = join(elems)
		set = len(elems) > 0
	case name == "LINENO":
		str = strconv.FormatUint(uint64(pe.Pos().Line()), 10)
	default:
		v := w.param(name)
		str = v.str()
		switch {
		case pe.Index != nil && (!v.isList && hasHole(v.s)):
			str = hole // an unknown variable may be an array
		case pe.Index != nil:
			i, ok := w.arith(pe.Index)
			switch {
			case !ok:
				str = hole
			case v.isList:
				if i < 0 {
					i += int64(len(v.list))
				}
				if i >= 0 && i < int64(len(v.list)) {
					str = v.list[i]
				} else {
					str, set = "", false
				}
			case i != 0:
				str, set = "", false
			}
		case v.isList && len(v.list) == 0:
			set = false
		}
		if pe.Excl {
			// ${!x}: the variable x names.
			switch {
			case hasHole(str):
				str = hole
			case str == "":
				return "", false
			case syntax.ValidName(str) || isSpecialParam(str):
				str = w.param(str).str()
			default:
				str = hole
			}
		}
		elems = []string{str}
	}

	switch {
	case pe.Length:
		if all {
			return strconv.Itoa(len(elems)), true
		}
		if hasHole(str) {
			return hole, true
		}
		return strconv.Itoa(utf8.RuneCountInString(str)), true
	case pe.Slice != nil:
		if all {
			return str, true // sliced with the list
		}
		if hasHole(str) {
			return hole, true
		}
		rs := []rune(str)
		from, to, ok := w.slice(pe.Slice, len(rs))
		if !ok {
			return hole, true
		}
		return string(rs[from:to]), true
	case pe.Repl != nil, pe.Exp != nil && !defaultOp(pe.Exp.Op):
		out, ok := w.elemOps(pe, elems)
		if !ok {
			return "", false
		}
		return join(out), true
	case pe.Exp != nil:
		var arg string
		if pe.Exp.Word != nil {
			var ok bool
			if arg, ok = w.expandLiteral(pe.Exp.Word); !ok {
				return "", false
			}
		}
		if assignOp(pe.Exp.Op) && str == hole && !all && pe.Index == nil && !hasHole(arg) && arg != "" {
			// : ${x:=rm}: x not known may now hold the word.
			if w.alts == nil {
				w.alts = map[string]string{}
			}
			w.alts[name] = arg
		}
		switch pe.Exp.Op {
		case syntax.AlternateUnsetOrNull:
			if str != "" {
				return arg, true
			}
			return "", true
		case syntax.AlternateUnset:
			if set {
				return arg, true
			}
			return "", true
		case syntax.DefaultUnset, syntax.AssignUnset, syntax.ErrorUnset:
			if set {
				return str, true
			}
		default: // the :- := :? forms
			if str != "" {
				return str, true
			}
		}
		switch pe.Exp.Op {
		case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
			return "", false
		case syntax.AssignUnset, syntax.AssignUnsetOrNull:
			if !all && pe.Index == nil && syntax.ValidName(name) {
				w.vars[name] = arg
			}
		}
		return arg, true
	}
	return str, true
}

// defaultOp reports the operators that choose between the value and a
// word: - = ? + and their : forms.
func defaultOp(op syntax.ParExpOperator) bool {
	switch op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull,
		syntax.ErrorUnset, syntax.ErrorUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		return true
	}
	return false
}

func assignOp(op syntax.ParExpOperator) bool {
	return op == syntax.AssignUnset || op == syntax.AssignUnsetOrNull
}

func isSpecialParam(s string) bool {
	if _, err := strconv.Atoi(s); err == nil {
		return true
	}
	switch s {
	case "@", "*", "#", "?", "$", "!", "-":
		return true
	}
	return false
}

// elemOps applies the operators that work on each element: replacement,
// removal of a prefix or suffix, case conversion and the @ operators.
func (w *walker) elemOps(pe *syntax.ParamExp, elems []string) ([]string, bool) {
	switch {
	case pe.Repl != nil:
		return w.replace(pe.Repl, elems)
	case pe.Exp == nil:
		return elems, true
	}
	op := pe.Exp.Op
	switch op {
	case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
		pat, ok := w.pattern(pe.Exp.Word)
		if !ok {
			return nil, false
		}
		suffix := op == syntax.RemSmallSuffix || op == syntax.RemLargeSuffix
		shortest := op == syntax.RemSmallPrefix || op == syntax.RemSmallSuffix
		return mapElems(elems, func(s string) string { return removeMatch(s, pat, suffix, shortest) }), true
	case syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll:
		pat, ok := w.pattern(pe.Exp.Word)
		if !ok {
			return nil, false
		}
		if pat == "" {
			pat = "?"
		}
		conv := unicode.ToLower
		if op == syntax.UpperFirst || op == syntax.UpperAll {
			conv = unicode.ToUpper
		}
		every := op == syntax.UpperAll || op == syntax.LowerAll
		return mapElems(elems, func(s string) string {
			rs := []rune(s)
			for i, r := range rs {
				if match(pat, string(r)) {
					rs[i] = conv(r)
				}
				if !every {
					break
				}
			}
			return string(rs)
		}), true
	case syntax.OtherParamOps:
		return w.atOp(pe, elems)
	}
	return elems, true
}

func mapElems(elems []string, f func(string) string) []string {
	out := make([]string, len(elems))
	for i, e := range elems {
		out[i] = f(e)
	}
	return out
}

// atOp applies ${x@OP}.
func (w *walker) atOp(pe *syntax.ParamExp, elems []string) ([]string, bool) {
	op := ""
	if pe.Exp.Word != nil {
		op = pe.Exp.Word.Lit()
	}
	switch op {
	case "Q":
		return mapElems(elems, shellQuote), true
	case "E":
		return mapElems(elems, ansiC), true
	case "U":
		return mapElems(elems, strings.ToUpper), true
	case "L":
		return mapElems(elems, strings.ToLower), true
	case "u":
		return mapElems(elems, func(s string) string {
			r, n := utf8.DecodeRuneInString(s)
			if n == 0 {
				return s
			}
			return string(unicode.ToUpper(r)) + s[n:]
		}), true
	case "a":
		if _, ok := w.lists[pe.Param.Value]; ok {
			return mapElems(elems, func(string) string { return "a" }), true
		}
		return mapElems(elems, func(string) string { return "" }), true
	case "A":
		return mapElems(elems, func(s string) string { return pe.Param.Value + "=" + shellQuote(s) }), true
	case "P", "K", "k":
		// Prompt expansion is judged by paramCode; the text is kept.
		return elems, true
	}
	return nil, false
}

// shellQuote is ${x@Q}: s in single quotes, or in $'…' when it holds
// control characters.
func shellQuote(s string) string {
	if strings.ContainsFunc(s, unicode.IsControl) {
		return dollarQuote(s)
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// maxReplaced bounds the values ${x//pat/with} is worked out for: the
// cost grows with the square of the length.
const maxReplaced = 4 << 10

// replace applies ${x/pat/with}, ${x//pat/with} and the anchored
// ${x/#pat/with}, ${x/%pat/with} to each element.
func (w *walker) replace(r *syntax.Replace, elems []string) ([]string, bool) {
	pat, ok := w.pattern(r.Orig)
	if !ok {
		return nil, false
	}
	with := ""
	if r.With != nil {
		if with, ok = w.expandLiteral(r.With); !ok {
			return nil, false
		}
	}
	anchor := byte(0)
	if !r.All && len(pat) > 0 && (pat[0] == '#' || pat[0] == '%') {
		anchor, pat = pat[0], pat[1:]
	}
	if pat == "" && anchor == 0 {
		return elems, true
	}
	toks := compile(pat)
	return mapElems(elems, func(s string) string {
		if len(s) > maxReplaced {
			return hole
		}
		switch anchor {
		case '#':
			if n := longestPrefix(toks, s); n >= 0 {
				return with + s[n:]
			}
			return s
		case '%':
			if n := longestSuffix(s, pat); n >= 0 {
				return s[:n] + with
			}
			return s
		}
		var b strings.Builder
		for i := 0; i < len(s); {
			n := longestPrefix(toks, s[i:])
			if n <= 0 {
				_, size := utf8.DecodeRuneInString(s[i:])
				b.WriteString(s[i : i+size])
				i += size
				continue
			}
			b.WriteString(with)
			i += n
			if !r.All {
				b.WriteString(s[i:])
				return b.String()
			}
		}
		return b.String()
	}), true
}

// pattern is word as a pattern for ${x#…} and the like: unquoted text
// keeps its pattern characters, quoted text matches itself.
func (w *walker) pattern(word *syntax.Word) (string, bool) {
	if word == nil {
		return "", true
	}
	var b strings.Builder
	for _, p := range word.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value) // its backslashes escape
		case *syntax.ParamExp:
			v, ok := w.paramValue(p)
			if !ok {
				return "", false
			}
			b.WriteString(v)
		case *syntax.CmdSubst:
			b.WriteString(w.substText(p))
		case *syntax.ArithmExp:
			b.WriteString(w.arithText(p.X))
		case *syntax.ExtGlob:
			b.WriteString(p.Op.String() + p.Pattern.Value + ")")
		default:
			v, ok := w.quotedPart(p)
			if !ok {
				return "", false
			}
			b.WriteString(quoteMeta(v))
		}
	}
	return b.String(), true
}
