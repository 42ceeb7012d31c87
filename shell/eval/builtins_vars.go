package eval

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

func varBuiltins() []*Builtin {
	declUsage := "declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p [-aAfFilnrtux] [name ...]"
	decl := func(kind string) func(b *B) int {
		return func(b *B) int {
			items := make([]declItem, len(b.Args)-1)
			for i, a := range b.Args[1:] {
				items[i] = declItem{text: a}
			}
			return b.R.declare(b, kind, items)
		}
	}
	return []*Builtin{
		{Name: "declare", Usage: declUsage, Guarded: true, Run: decl("declare")},
		{Name: "typeset", Usage: strings.Replace(strings.Replace(declUsage, "declare", "typeset", 1), "declare", "typeset", 1), Guarded: true, Run: decl("typeset")},
		{Name: "local", Usage: "local [option] name[=value] ...", Guarded: true, Run: decl("local")},
		{Name: "export", Usage: "export [-fn] [name[=value] ...] or export -p", Special: true, Guarded: true, Run: decl("export")},
		{Name: "readonly", Usage: "readonly [-aAf] [name[=value] ...] or readonly -p", Special: true, Guarded: true, Run: decl("readonly")},
		{Name: "unset", Usage: "unset [-f] [-v] [-n] [name ...]", Special: true, Guarded: true, Run: builtinUnset},
		{Name: "set", Usage: "set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]", Special: true, Guarded: true, Run: builtinSet},
		{Name: "shopt", Usage: "shopt [-pqsu] [-o] [optname ...]", Guarded: true, Run: builtinShopt},
		{Name: "let", Usage: "let arg [arg ...]", Guarded: true, Run: builtinLet},
	}
}

// declItem is one argument of a declaration: a word to read at run time,
// or an assignment as the parser read it.
type declItem struct {
	text   string
	assign *syntax.Assign
	// The assignment's value or elements, expanded with the other
	// words before declare runs, as bash does.
	value    *string
	elems    []arrayElem
	guessed  Attr // the kind of array elems were expanded for
	expanded bool
}

// declClause runs declare, local, export, readonly and typeset written as
// keywords, whose assignments the parser read.
func (r *Runner) declClause(c *syntax.DeclClause, redirs []*syntax.Redirect) {
	r.setCmdNode("", c, "")
	r.debugTrap()
	if r.flow != flowNone {
		return
	}
	kind := c.Variant.Value
	var restore func()
	defer func() {
		if restore != nil {
			restore()
		}
	}()
	redirect := func() bool {
		var ok bool
		restore, ok = r.redirect(redirs, false)
		if !ok {
			restore = nil
			r.status = 1
		}
		return ok
	}
	if fn := r.funcs.get(kind); fn != nil {
		// A function of that name wins, as with any command.
		var args []string
		for _, a := range c.Args {
			args = append(args, r.declWords(a)...)
		}
		if redirect() {
			r.callFunc(fn, append([]string{kind}, args...))
		}
		return
	}
	args := c.Args
	if r.opts.set[optKeyword] {
		// set -k: the assignments go into the builtin's environment,
		// as with any command, and it runs without them.
		var temp []*syntax.Assign
		args = nil
		for _, a := range c.Args {
			if _, lenient := r.lenientWord(a.Pos()); a.Name != nil && !a.Naked && !lenient {
				temp = append(temp, a)
				continue
			}
			args = append(args, a)
		}
		if s := r.tempScope(temp, nil); s != nil {
			r.vars.push(s)
			defer r.popTemp(s)
		}
	}
	var items []declItem
	var trace []string
	for _, a := range args {
		if p := a.Pos(); a.Name != nil || a.Value != nil {
			if text, ok := r.lenientWord(p); ok {
				items = append(items, declItem{text: text})
				trace = append(trace, text)
				continue
			}
		}
		if a.Name == nil {
			for _, s := range r.Fields(a.Value) {
				items = append(items, declItem{text: s})
				trace = append(trace, quoteWord(s))
			}
			continue
		}
		it := r.declExpand(kind, items, a)
		items = append(items, it)
		trace = append(trace, r.declTrace(a, it))
	}
	r.xtraceWords(append([]string{kind}, trace...))
	if !redirect() {
		return
	}
	def := r.sess.builtins[kind]
	b := &B{Args: []string{kind}, Ctx: r.ctx, R: r, def: def}
	r.status = r.checkWrites(b, func() int { return r.declare(b, kind, items) })
	r.specialDone(def)
}

// declExpand expands an assignment of a declaration, after the words
// before it (its options among them). A compound assignment is traced
// as it is expanded, before the command.
func (r *Runner) declExpand(kind string, before []declItem, a *syntax.Assign) declItem {
	it := declItem{assign: a, expanded: true}
	switch {
	case a.Array != nil:
		if a.Index != nil {
			it.expanded = false // an error declare reports
			break
		}
		it.guessed = r.declArrayKind(kind, before, a.Name.Value)
		it.elems = r.arrayElems(a.Array, it.guessed)
		r.xtraceWords([]string{arrayTrace(a.Name.Value, a.Append, it.elems)})
	case !a.Naked:
		v := r.assignValue(a.Value)
		it.value = &v
	}
	return it
}

// declArrayKind is the kind of array declareOne will assign name=(…) to:
// the one its options say, else that of the variable it finds or makes.
func (r *Runner) declArrayKind(kind string, before []declItem, name string) Attr {
	on := map[byte]bool{}
	for _, it := range before {
		if it.assign != nil {
			break
		}
		if strings.HasPrefix(it.text, "-") {
			for _, c := range []byte(it.text[1:]) {
				on[c] = true
			}
		}
	}
	switch {
	case on['A']:
		return AttrAssoc
	case on['a']:
		return AttrIndexed
	}
	var v *Var
	if !on['g'] && kind != "export" && kind != "readonly" && r.vars.inFunction() {
		v = r.vars.local().vars[name]
		if v == nil && (r.opts.shopt[optLocalvarInherit] || on['I']) {
			v = r.lookup(name)
		}
	} else {
		target, _, _ := r.resolve(name)
		v, _ = r.vars.find(target)
	}
	if v != nil && v.m != nil {
		return AttrAssoc
	}
	return AttrIndexed
}

// declWords is a declaration's argument as plain words, for a function
// named like the keyword.
func (r *Runner) declWords(a *syntax.Assign) []string {
	if a.Name == nil {
		return r.Fields(a.Value)
	}
	return []string{r.srcOf(a)}
}

func (r *Runner) declare(b *B, kind string, items []declItem) int {
	if kind == "local" && len(r.frames) > 0 && r.frames[len(r.frames)-1].fn != nil {
		// local -: the set options come back as they are now when the
		// function returns.
		kept := items[:0:0]
		for _, it := range items {
			if it.assign == nil && it.text == "-" {
				if top := &r.frames[len(r.frames)-1]; top.savedSet == nil {
					saved := r.opts.set
					top.savedSet = &saved
				}
				continue
			}
			kept = append(kept, it)
		}
		if len(kept) == 0 && len(items) > 0 {
			return 0
		}
		items = kept
	}
	// Options come first, as words.
	spec := "aAfFgiIlnprtux"
	switch kind {
	case "local":
		spec = "aAfFgiIlnprtux"
	case "export":
		spec = "aAfnp"
	case "readonly":
		spec = "aAfp"
	}
	on, off := map[byte]bool{}, map[byte]bool{}
	i := 0
	for ; i < len(items); i++ {
		it := items[i]
		if it.assign != nil {
			break
		}
		a := it.text
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' && a[0] != '+' {
			break
		}
		if kind == "local" && a == "-" {
			break
		}
		for _, c := range []byte(a[1:]) {
			if !strings.ContainsRune(spec, rune(c)) || a[0] == '+' && (c == 'p' || c == 'F' || c == 'f' && kind != "declare") {
				r.errorf("%s: %c%c: invalid option", kind, a[0], c)
				if def := r.sess.builtins[kind]; def != nil {
					fmt.Fprintf(r.stderr(), "%s: usage: %s\n", kind, def.Usage)
				}
				return 2
			}
			if a[0] == '-' {
				on[c] = true
			} else {
				off[c] = true
			}
		}
	}
	names := items[i:]
	if kind == "local" && !r.vars.inFunction() {
		r.errorf("local: can only be used in a function")
		return 1
	}
	switch kind {
	case "export":
		if on['n'] {
			off['x'] = true
		} else {
			on['x'] = true
		}
		delete(on, 'n')
	case "readonly":
		on['r'] = true
	}
	if on['f'] || on['F'] {
		return r.declareFuncs(kind, on, off, names)
	}
	if len(names) == 0 || on['p'] && len(names) == 0 {
		return r.printVars(kind, on, off, len(on)+len(off) > 0)
	}
	if on['p'] {
		status := 0
		for _, it := range names {
			name := it.text
			if it.assign != nil {
				name = it.assign.Name.Value
			}
			if !r.printVar(name, on, true) {
				r.errorf("%s: %s: not found", kind, name)
				status = 1
			}
		}
		return status
	}
	status := 0
	for _, it := range names {
		if err := r.declareOne(kind, on, off, it); err != nil {
			switch {
			case err == errReported:
			case (kind == "export" || kind == "readonly") && isFatal(err):
				// bash's export and readonly assign as an
				// assignment does: its message names no builtin.
				r.errorf("%s", err.Error())
			default:
				r.errorf("%s: %s", kind, err.Error())
			}
			status = 1
		}
	}
	return status
}

// declareOne declares one name, with its value if it has one.
func (r *Runner) declareOne(kind string, on, off map[byte]bool, it declItem) error {
	var name string
	var index syntax.ArithmExpr
	var indexText string
	hasIndex := false
	var value *string
	var arr *syntax.ArrayExpr
	appending := false
	if a := it.assign; a != nil {
		name = a.Name.Value
		index = a.Index
		hasIndex = a.Index != nil
		appending = a.Append
		if a.Array != nil {
			arr = a.Array
		} else if !a.Naked {
			var v string
			if it.value != nil {
				v = *it.value
			} else {
				v = r.assignValue(a.Value)
			}
			value = &v
			// declare -a x='(1 2)': a quoted compound assignment, which
			// bash still takes with -a or -A.
			if (on['a'] || on['A']) && !hasIndex && strings.HasPrefix(v, "(") && strings.HasSuffix(v, ")") {
				if ae := parseArrayText(v); ae != nil {
					arr, value = ae, nil
				}
			}
		}
	} else {
		text := it.text
		n, v, hasValue := strings.Cut(text, "=")
		if hasValue && strings.HasSuffix(n, "+") {
			n, appending = strings.TrimSuffix(n, "+"), true
		}
		if bn, sub, has, ok := splitRef(n); ok && has {
			n, indexText, hasIndex = bn, sub, true
		}
		name = n
		if hasValue {
			if strings.HasPrefix(v, "(") && strings.HasSuffix(v, ")") && !hasIndex {
				if ae := parseArrayText(v); ae != nil {
					arr = ae
				}
			}
			if arr == nil {
				value = &v
			}
		}
	}
	if !validName(name) {
		return &varError{msg: "`" + it.String() + "': not a valid identifier"}
	}
	if kind == "export" || kind == "readonly" {
		if hasIndex {
			// Neither takes an array's element.
			if index != nil {
				indexText = r.srcOf(index)
			}
			return &varError{msg: "`" + name + "[" + indexText + "]': not a valid identifier"}
		}
		if value != nil && arr == nil {
			// These two assign as bash's plain assignments do, traced.
			op := "="
			if appending {
				op = "+="
			}
			r.xtraceWords([]string{name + op + assignQuote(*value)})
		}
	}
	// Where the variable lives: a new local in a function (declare,
	// local, typeset without -g), else the visible one or a global.
	global := on['g'] || kind == "export" || kind == "readonly"
	var v *Var
	var s *scope
	if !global && r.vars.inFunction() {
		s = r.vars.local()
		v = s.writable()[name]
		if v == nil {
			v = &Var{}
			if r.opts.shopt[optLocalvarInherit] || on['I'] {
				if old := r.lookup(name); old != nil {
					v = old.clone()
					v.Attr &^= AttrReadonly | AttrNameref
				}
			}
			// A readonly global may not be shadowed; a caller's
			// readonly local may, as bash allows.
			if old, os := r.vars.find(name); old != nil && old.Attr&AttrReadonly != 0 && os == r.vars.global() {
				return readonlyErr(name)
			}
			s.writable()[name] = v
		}
	} else {
		target := name
		if !on['n'] && !off['n'] {
			target, _, _ = r.resolve(name)
		}
		if on['g'] {
			s = r.vars.global()
			v = s.writable()[target]
		} else {
			v, _ = r.vars.forWrite(target)
		}
		if v == nil {
			s = r.vars.global()
			v = &Var{}
			s.writable()[target] = v
		}
		name = target
	}
	if v.Attr&AttrReadonly != 0 && (value != nil || arr != nil || len(off) > 0 || on['a'] || on['A'] || on['i'] || on['n']) {
		return readonlyErr(name)
	}
	// Kinds first: -a, -A.
	switch {
	case on['A']:
		if v.arr != nil {
			return &varError{msg: name + ": cannot convert indexed to associative array"}
		}
		if v.m == nil {
			v.m = newAssoc()
			if v.set && v.str != "" {
				v.m.set("0", v.str)
			}
			v.str = ""
			v.Attr |= AttrAssoc
		}
	case on['a']:
		if v.m != nil {
			return &varError{msg: name + ": cannot convert associative to indexed array"}
		}
		if v.arr == nil {
			v.arr = &indexed{}
			if v.set {
				v.arr.set(0, v.str)
			}
			v.str = ""
			v.Attr |= AttrIndexed
		}
	}
	for _, f := range attrFlags {
		if f.attr == AttrIndexed || f.attr == AttrAssoc || f.attr == AttrReadonly {
			continue
		}
		if on[f.flag] {
			v.Attr |= f.attr
			if f.attr == AttrLower {
				v.Attr &^= AttrUpper
			}
			if f.attr == AttrUpper {
				v.Attr &^= AttrLower
			}
		}
		if off[f.flag] {
			v.Attr &^= f.attr
		}
	}
	if v.Attr&AttrExport != 0 || off['x'] {
		r.vars.gen++
	}
	switch {
	case arr != nil:
		kindAttr := Attr(0)
		if on['A'] {
			kindAttr = AttrAssoc
		} else if on['a'] {
			kindAttr = AttrIndexed
		}
		if it.expanded && it.assign != nil && it.assign.Array == arr {
			if err := r.storeDeclArray(name, arr, it.elems, it.guessed, appending, kindAttr); err != nil {
				return err
			}
		} else if err := r.assignArray(name, arr, appending, kindAttr); err != nil {
			return err
		}
	case value != nil && v.Attr&AttrNameref != 0:
		if *value != "" && !refOK(*value) {
			return &varError{msg: "`" + *value + "': invalid variable name for name reference"}
		}
		if *value == name {
			return &varError{msg: name + ": nameref variable self references not allowed"}
		}
		v.str, v.set = *value, true
	case value != nil && hasIndex:
		var err error
		if index != nil {
			err = r.assignSub(name, index, *value, appending)
		} else {
			err = r.assignElem(name, indexText, *value, appending)
		}
		if err != nil {
			return err
		}
	case value != nil:
		if v.isArray() {
			if err := r.assignElem(name, "0", *value, appending); err != nil {
				return err
			}
		} else {
			sv, err := r.convert(v, *value, v.str, appending)
			if err != nil {
				return err
			}
			v.str, v.set = sv, true
			v.dyn = nil
			r.vars.changed(v)
			r.assigned(name, v)
		}
	case on['i'] && v.set && !v.isArray():
		// declare -i on a set variable keeps its value as it is.
	}
	if on['r'] {
		v.Attr |= AttrReadonly
	}
	if on['x'] && kind == "export" && r.opts.set[optAllexport] {
		r.vars.gen++
	}
	return nil
}

func (it declItem) String() string {
	if it.assign != nil {
		return it.assign.Name.Value
	}
	return it.text
}

// parseArrayText reads "(a b c)" given to declare as a word: bash parses
// it as a compound assignment.
func parseArrayText(v string) *syntax.ArrayExpr {
	p, err := Parse("x="+v, "")
	if err != nil || len(p.File.Stmts) != 1 {
		return nil
	}
	c, ok := p.File.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(c.Assigns) != 1 || len(c.Args) != 0 {
		return nil
	}
	return c.Assigns[0].Array
}

// printVars lists variables: with attributes, those that have them (as
// declare -p does), else all as name=value.
func (r *Runner) printVars(kind string, on, off map[byte]bool, filter bool) int {
	names := r.vars.names()
	if kind == "local" {
		// The running function's locals only, as declare prints them.
		names = names[:0]
		for i := len(r.vars.scopes) - 1; i > 0; i-- {
			if s := r.vars.scopes[i]; s.fn {
				for n := range s.vars {
					names = append(names, n)
				}
				break
			}
		}
		filter = true
	}
	sort.Strings(names)
	w := r.stdout()
	want := Attr(0)
	for _, f := range attrFlags {
		if on[f.flag] {
			want |= f.attr
		}
	}
	// The list leaves out the assignments before the command, as bash's.
	for _, name := range names {
		v := r.vars.findNonTemp(name)
		if v == nil {
			continue
		}
		if v.dyn != nil && v.dyn.get != nil {
			v = v.dyn.get(r)
		}
		if want != 0 && v.Attr&want != want {
			continue
		}
		if kind == "export" || kind == "readonly" || on['p'] || filter {
			fmt.Fprintln(w, declareLine(name, v))
			continue
		}
		if !v.set && !v.isArray() {
			continue
		}
		fmt.Fprintln(w, setLine(name, v))
	}
	return 0
}

// printVar prints one variable as declare -p does; false when it does not
// exist.
func (r *Runner) printVar(name string, on map[byte]bool, _ bool) bool {
	v, _ := r.vars.find(name)
	if v == nil {
		if fn := r.funcs.get(name); fn != nil && on['f'] {
			return true
		}
		return false
	}
	if v.dyn != nil && v.dyn.get != nil {
		v = v.dyn.get(r)
	}
	fmt.Fprintln(r.stdout(), declareLine(name, v))
	return true
}

// declareLine is a variable as declare -p prints it.
func declareLine(name string, v *Var) string {
	flags := attrLetters(v.Attr)
	if flags == "" {
		flags = "-"
	}
	head := "declare -" + flags + " " + name
	switch {
	case v.arr != nil:
		if !v.set && v.arr.len() == 0 {
			return head
		}
		return head + "=" + arrayText(v, false)
	case v.m != nil:
		if !v.set && v.m.len() == 0 {
			return head
		}
		return head + "=" + arrayText(v, false)
	case !v.set:
		return head
	}
	return head + "=" + dquote(v.str)
}

// setLine is a variable as set lists it.
func setLine(name string, v *Var) string {
	if v.isArray() {
		return name + "=" + arrayText(v, false)
	}
	s := v.str
	switch {
	case needsANSIC(s):
		return name + "=" + ansiCQuote(s)
	case hasShellMetas(s):
		return name + "=" + singleQuote(s)
	}
	return name + "=" + s
}

// hasShellMetas is bash's sh_contains_shell_metas: whether a value set
// prints needs quotes.
func hasShellMetas(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t', '\n', '\'', '"', '\\', '|', '&', ';', '(', ')', '<', '>', '!', '{', '}', '*', '[', '?',
			']', '^', '$', '`':
			return true
		case '~':
			if i == 0 || s[i-1] == '=' || s[i-1] == ':' {
				return true
			}
		case '#':
			if i == 0 {
				return true
			}
		}
	}
	return false
}

// arrayText is an array's value as declare -p and set show it.
func arrayText(v *Var, _ bool) string {
	var sb strings.Builder
	sb.WriteByte('(')
	if v.arr != nil {
		for i, k := range v.arr.keys {
			if i > 0 {
				sb.WriteByte(' ')
			}
			fmt.Fprintf(&sb, "[%d]=%s", k, dquote(v.arr.vals[i]))
		}
	} else if v.m != nil {
		for _, k := range v.m.keys() {
			fmt.Fprintf(&sb, "[%s]=%s ", shellQuoteKey(k), dquote(v.m.vals[k]))
		}
	}
	sb.WriteByte(')')
	return sb.String()
}

// declareFuncs is declare -f and -F: list functions, or set their
// attributes.
func (r *Runner) declareFuncs(kind string, on, off map[byte]bool, names []declItem) int {
	w := r.stdout()
	if len(names) == 0 {
		for _, n := range r.funcs.names() {
			fn := r.funcs.get(n)
			if on['x'] && !fn.export || kind == "export" && !fn.export {
				continue
			}
			if kind == "export" || kind == "readonly" {
				fmt.Fprintf(w, "declare -fx %s\n", n)
				continue
			}
			if on['F'] {
				fmt.Fprintf(w, "declare -f %s\n", n)
				continue
			}
			r.printFunc(w, fn)
		}
		return 0
	}
	status := 0
	for _, it := range names {
		name := it.String()
		fn := r.funcs.get(name)
		if fn == nil {
			if on['p'] || on['F'] || kind == "declare" || kind == "typeset" {
				status = 1
				continue
			}
			r.errorf("%s: %s: not a function", kind, name)
			status = 1
			continue
		}
		changed := false
		nf := *fn
		if on['x'] {
			nf.export, changed = true, true
		}
		if off['x'] {
			nf.export, changed = false, true
		}
		if on['t'] {
			nf.trace, changed = true, true
		}
		if off['t'] {
			nf.trace, changed = false, true
		}
		if changed {
			r.funcs.set(name, &nf)
			continue
		}
		if on['F'] {
			fmt.Fprintln(w, name)
			continue
		}
		r.printFunc(w, fn)
	}
	return status
}

// printFunc prints a function's definition as declare -f does.
func (r *Runner) printFunc(w io.Writer, fn *Func) {
	fmt.Fprint(w, FuncText(fn))
}

func builtinUnset(b *B) int {
	r := b.R
	f, args, ok := b.flags("fvn", false)
	if !ok {
		return 2
	}
	status := 0
	for _, name := range args {
		switch {
		case f.has('f'):
			r.funcs.remove(name)
		case f.has('n'):
			if v, s := r.vars.find(name); v != nil {
				if v.Attr&AttrReadonly != 0 {
					b.Errorf("%s: cannot unset: readonly variable", name)
					status = 1
					continue
				}
				delete(s.writable(), name)
			}
		default:
			n, _, hasSub, ok := splitRef(name)
			if !ok && name != "" && strings.Trim(name, "0123456789") == "" && !f.has('v') {
				continue // unset 1: bash says nothing
			}
			if !ok {
				b.Errorf("`%s': not a valid identifier", name)
				status = 1
				continue
			}
			_ = hasSub
			if v, _ := r.vars.find(n); v == nil && !f.has('v') && !hasSub {
				r.funcs.remove(n)
				continue
			}
			if err := r.unsetVar(name); err != nil {
				b.Errorf("%s", err.Error())
				status = 1
			}
		}
	}
	return status
}

func builtinLet(b *B) int {
	if len(b.Args) < 2 {
		b.Errorf("expression expected")
		return 1
	}
	var n int64
	for _, a := range b.Args[1:] {
		v, err := b.R.arithString(a)
		if err != nil {
			b.Errorf("%s", err.Error())
			return 1
		}
		n = v
	}
	return int(b2i(n == 0))
}

func builtinSet(b *B) int {
	r := b.R
	args := b.Args[1:]
	if len(args) == 0 {
		r.printVars("set", map[byte]bool{}, map[byte]bool{}, false)
		for _, n := range r.funcs.names() {
			r.printFunc(r.stdout(), r.funcs.get(n))
		}
		return 0
	}
	setParams := false
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			args, setParams = args[1:], true
			break
		}
		if a == "-" {
			// set - turns -x and -v off and ends options; the
			// parameters change only when words follow.
			r.opts.set[optXtrace], r.opts.set[optVerbose] = false, false
			args = args[1:]
			setParams = len(args) > 0
			break
		}
		if len(a) < 2 || a[0] != '-' && a[0] != '+' {
			setParams = true
			break
		}
		args = args[1:]
		on := a[0] == '-'
		for i := 1; i < len(a); i++ {
			c := a[i]
			if c == 'o' {
				if len(args) == 0 {
					r.printSetO(on)
					continue
				}
				name := args[0]
				args = args[1:]
				o, ok := lookupSetOpt(name)
				if !ok {
					b.Errorf("%s: invalid option name", name)
					return 2
				}
				if err := r.setOption(o, on); err != nil {
					b.Errorf("%s", err.Error())
					return 1
				}
				continue
			}
			o, ok := lookupSetLetter(c)
			if !ok {
				return b.UsageError(string(a[0]) + string(c))
			}
			if err := r.setOption(o, on); err != nil {
				b.Errorf("%s", err.Error())
				return 1
			}
		}
	}
	if setParams {
		r.params = append([]string(nil), args...)
	}
	return 0
}

// setOption turns a set -o option on or off, doing what it means.
func (r *Runner) setOption(o setOpt, on bool) error {
	if r.sess.onOption != nil {
		if err := r.sess.onOption(r, setOpts[o].name, on); err != nil {
			return err
		}
	}
	switch o {
	case optEmacs:
		r.opts.set[optVi] = false
	case optVi:
		r.opts.set[optEmacs] = false
	case optPosix:
		// bash keeps POSIXLY_CORRECT in step, for the programs it runs.
		if _, set := r.Get("POSIXLY_CORRECT"); on && !set {
			r.assign("POSIXLY_CORRECT", "y", false)
		} else if !on && set {
			r.unsetVar("POSIXLY_CORRECT")
		}
	case optNoexec:
		if r.sess.interactive {
			return nil // bash ignores set -n where a typo would lock the shell
		}
	}
	r.opts.set[o] = on
	return nil
}

func (r *Runner) printSetO(on bool) {
	w := r.stdout()
	for i, o := range setOpts {
		val := r.opts.set[i]
		if on {
			state := "off"
			if val {
				state = "on"
			}
			fmt.Fprintf(w, "%-15s\t%s\n", o.name, state)
		} else {
			sign := "+"
			if val {
				sign = "-"
			}
			fmt.Fprintf(w, "set %so %s\n", sign, o.name)
		}
	}
}

func builtinShopt(b *B) int {
	r := b.R
	f, args, ok := b.flags("pqsuo", false)
	if !ok {
		return 2
	}
	if f.has('s') && f.has('u') {
		b.Errorf("cannot set and unset shell options simultaneously")
		return 1
	}
	w := r.stdout()
	type opt struct {
		name string
		get  func() bool
		set  func(bool) error
	}
	var all []opt
	if f.has('o') {
		for i, o := range setOpts {
			i := setOpt(i)
			all = append(all, opt{o.name, func() bool { return r.opts.set[i] }, func(v bool) error { return r.setOption(i, v) }})
		}
	} else {
		for i, n := range shoptNames {
			i := shoptOpt(i)
			all = append(all, opt{n, func() bool { return r.opts.shopt[i] }, func(v bool) error { return r.setShopt(i, v) }})
		}
	}
	find := func(name string) *opt {
		for i := range all {
			if all[i].name == name {
				return &all[i]
			}
		}
		return nil
	}
	show := func(o *opt) {
		if f.has('q') {
			return
		}
		if f.has('p') {
			sign := "-u"
			if o.get() {
				sign = "-s"
			}
			if f.has('o') {
				sign = "+o"
				if o.get() {
					sign = "-o"
				}
				fmt.Fprintf(w, "set %s %s\n", sign, o.name)
				return
			}
			fmt.Fprintf(w, "shopt %s %s\n", sign, o.name)
			return
		}
		state := "off"
		if o.get() {
			state = "on"
		}
		fmt.Fprintf(w, "%-15s\t%s\n", o.name, state)
	}
	if len(args) == 0 {
		for i := range all {
			o := &all[i]
			if f.has('s') && !o.get() || f.has('u') && o.get() {
				continue
			}
			show(o)
		}
		return 0
	}
	status := 0
	for _, name := range args {
		o := find(name)
		if o == nil {
			if f.has('o') {
				b.Errorf("%s: invalid option name", name)
			} else {
				b.Errorf("%s: invalid shell option name", name)
			}
			status = 1
			continue
		}
		switch {
		case f.has('s'), f.has('u'):
			if err := o.set(f.has('s')); err != nil {
				b.Errorf("%s", err.Error())
				status = 1
			}
		default:
			show(o)
			if !o.get() {
				status = 1
			}
		}
	}
	return status
}

// setShopt sets a shopt option; the shell may refuse one it cannot honour.
func (r *Runner) setShopt(o shoptOpt, on bool) error {
	if r.sess.onOption != nil {
		if err := r.sess.onOption(r, shoptNames[o], on); err != nil {
			return err
		}
	}
	r.opts.shopt[o] = on
	if o == optExtdebug && on {
		r.initArgStack()
	}
	return nil
}

// declTrace is a declaration's assignment as set -x shows it on the
// command's line: expanded, as one word; a compound assignment by its
// name alone, its elements traced before.
func (r *Runner) declTrace(a *syntax.Assign, it declItem) string {
	if !r.opts.set[optXtrace] {
		return ""
	}
	if a.Array != nil && it.expanded || a.Naked {
		return a.Name.Value
	}
	if it.value == nil {
		return r.srcOf(a)
	}
	w := a.Name.Value
	if a.Index != nil {
		w += "[" + r.traceKey(r.srcOf(a.Index)) + "]"
	}
	if a.Append {
		w += "+"
	}
	return quoteWord(w + "=" + *it.value)
}
