package eval

import (
	"io"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// call runs a simple command: its words are expanded, then its
// redirections applied, then its assignments, and the command found — a
// function, a builtin or a program — runs.
func (r *Runner) call(st *syntax.Stmt, c *syntax.CallExpr) {
	r.setCmdCall(st, c)
	if r.pipeCmd != c {
		r.debugTrap()
	}
	if r.flow != flowNone {
		return
	}
	r.substStatus = -1
	if r.opts.set[optKeyword] {
		c = keywordAssigns(c)
	}
	args := r.argFields(c.Args...)
	if len(c.Args) > 0 && len(args) > 0 {
		if text, ok := r.lenientWord(c.Args[0].Pos()); ok && text == "let" {
			args[0] = "let" // a let whose arguments the parser refused
		}
	}
	if len(args) == 0 {
		r.assignOnly(st, c)
		return
	}
	if len(c.Assigns) == 0 {
		// bash traces the words before the redirections are made (so
		// not into 2>/dev/null).
		r.xtraceWords(quoteAll(args))
	}
	if r.isExecAlone(args) {
		// exec with no command: its redirections stay. One that fails
		// ends a non-interactive shell only in posix mode; bash goes on
		// with status 1, so `exec 3<f || fallback` works.
		if _, ok := r.redirect(st.Redirs, true); !ok {
			r.status = 1
			if !r.sess.interactive && r.opts.set[optPosix] {
				r.exit(1)
			}
			return
		}
		r.status = 0
		return
	}
	// The assignments before the command are expanded and traced
	// before the redirections too, which do not see them.
	temp := r.tempScope(c.Assigns, args)
	restore, ok := r.redirect(st.Redirs, false)
	if !ok {
		r.status = 1
		return
	}
	defer func() {
		restore()
		// A program's death by a signal is told on the shell's own
		// stderr, not the command's.
		if msg := r.signaledMsg; msg != "" {
			r.signaledMsg = ""
			io.WriteString(r.stderr(), msg)
		}
	}()
	r.run(args, temp)
}

// keywordAssigns is a command as set -k reads it: the words after its
// name that are assignments as written (name=… with the name unquoted)
// go with the assignments before it, into its environment.
func keywordAssigns(c *syntax.CallExpr) *syntax.CallExpr {
	var moved []*syntax.Assign
	var args []*syntax.Word
	for i, w := range c.Args {
		if i > 0 {
			if a := assignWord(w); a != nil {
				moved = append(moved, a)
				continue
			}
		}
		args = append(args, w)
	}
	if moved == nil {
		return c
	}
	c2 := *c
	c2.Assigns = append(append([]*syntax.Assign(nil), c.Assigns...), moved...)
	c2.Args = args
	return &c2
}

// assignWord is w read as an assignment, name=value or name+=value; nil
// when it is not one.
func assignWord(w *syntax.Word) *syntax.Assign {
	if len(w.Parts) == 0 {
		return nil
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return nil
	}
	eq := strings.IndexByte(lit.Value, '=')
	if eq < 1 {
		return nil
	}
	name, appending := lit.Value[:eq], false
	if strings.HasSuffix(name, "+") {
		name, appending = name[:len(name)-1], true
	}
	if !validName(name) {
		return nil
	}
	rest := *lit
	rest.Value = lit.Value[eq+1:]
	rest.ValuePos = syntax.NewPos(lit.ValuePos.Offset()+uint(eq+1), lit.ValuePos.Line(), lit.ValuePos.Col()+uint(eq+1))
	value := &syntax.Word{Parts: append([]syntax.WordPart{&rest}, w.Parts[1:]...)}
	nameLit := &syntax.Lit{ValuePos: lit.ValuePos, ValueEnd: syntax.NewPos(lit.ValuePos.Offset()+uint(len(name)), lit.ValuePos.Line(), lit.ValuePos.Col()+uint(len(name))), Value: name}
	return &syntax.Assign{Name: nameLit, Value: value, Append: appending}
}

// isExecAlone reports whether args are the exec builtin with no command.
func (r *Runner) isExecAlone(args []string) bool {
	if args[0] != "exec" || r.funcs.get("exec") != nil || r.Builtin("exec") == nil {
		return false
	}
	for _, a := range args[1:] {
		if a != "--" {
			return false
		}
	}
	return true
}

// commandText is BASH_COMMAND's text for a simple command.
func (r *Runner) commandText(st *syntax.Stmt, c *syntax.CallExpr) string {
	if len(st.Redirs) == 0 && !strings.ContainsAny(r.srcOf(c), "\\$`\n\t") && !strings.Contains(r.srcOf(c), "  ") {
		return UnescapeRawBytes(r.srcOf(c)) // the common case, as bash would print it
	}
	// bash prints the command again: one space between words,
	// redirections as 2> f, here-document bodies after a newline.
	p := &funcPrinter{src: r.src, exact: sourceMatches(st, r.src)}
	bare := *st
	bare.Negated, bare.Background, bare.Coprocess = false, false, false
	p.stmt(&bare)
	p.flushWith("")
	return UnescapeRawBytes(p.String())
}

// assignOnly runs a command of assignments alone: they stay in the shell;
// its status is the last command substitution's.
func (r *Runner) assignOnly(st *syntax.Stmt, c *syntax.CallExpr) {
	var trace []string
	for _, a := range c.Assigns {
		if err := r.assignStmt(a, &trace); err != nil {
			if err.Error() != "" { // else reported
				r.errorf("%s", err.Error())
			}
			r.status = 1
			if isFatal(err) {
				// bash abandons the rest of the line (of a -c string,
				// an eval's text) and a script reads on; posix mode
				// ends a non-interactive shell, with bash's 127.
				if r.opts.set[optPosix] && !r.sess.interactive && r.subshell == 0 {
					panic(exitPanic{status: 127})
				}
				panic(abort{status: 1})
			}
		}
	}
	for _, t := range trace {
		r.xtraceWords([]string{t}) // bash traces each assignment alone
	}
	restore, ok := r.redirect(st.Redirs, false)
	if !ok {
		r.status = 1
		return
	}
	restore()
	r.status = 0
	if r.substStatus >= 0 {
		r.status = r.substStatus
	}
}

// assignStmt performs one assignment of a statement to the shell.
func (r *Runner) assignStmt(a *syntax.Assign, trace *[]string) error {
	name := a.Name.Value
	if a.Array != nil {
		if a.Index != nil {
			return &varError{msg: name + "[" + r.srcOf(a.Index) + "]: cannot assign list to array member"}
		}
		err := r.assignArray(name, a.Array, a.Append, 0)
		if trace != nil {
			*trace = append(*trace, r.srcOf(a))
		}
		return err
	}
	val := r.assignValue(a.Value)
	op := "="
	if a.Append {
		op = "+="
	}
	if a.Index != nil {
		if trace != nil {
			*trace = append(*trace, name+"["+r.srcOf(a.Index)+"]"+op+val)
		}
		return r.assignSub(name, a.Index, val, a.Append)
	}
	if trace != nil {
		*trace = append(*trace, name+op+assignQuote(val))
	}
	err := r.assign(name, val, a.Append)
	if err == nil && r.opts.set[optAllexport] {
		r.Export(name)
	}
	return err
}

// assignSub is name[index]=value, index as the tree has it.
func (r *Runner) assignSub(name string, index syntax.ArithmExpr, value string, appending bool) error {
	target, _, _ := r.resolve(name)
	if v, _ := r.vars.find(target); v != nil && v.m != nil {
		return r.assignElem(target, r.subscriptKey(index), value, appending)
	}
	return r.assignIndex(target, r.subscriptIndex(index), value, appending)
}

// assignArray is name=(…) or name+=(…); kind forces the array's kind
// (declare -a/-A), else an existing variable's kind is kept.
func (r *Runner) assignArray(name string, arr *syntax.ArrayExpr, appending bool, kind Attr) error {
	target, kind, err := r.arrayTarget(name, kind)
	if err != nil {
		return err
	}
	// The elements are expanded before the old value goes: a=(x "${a[@]}").
	return r.storeArray(target, r.arrayElems(arr, kind), appending, kind)
}

// storeDeclArray is assignArray for a declaration's compound assignment,
// its elements expanded already for an array of the kind guessed; when
// the guess was wrong, they are expanded again.
func (r *Runner) storeDeclArray(name string, arr *syntax.ArrayExpr, elems []arrayElem, guessed Attr, appending bool, kind Attr) error {
	target, kind, err := r.arrayTarget(name, kind)
	if err != nil {
		return err
	}
	if kind != guessed {
		elems = r.arrayElems(arr, kind)
	}
	return r.storeArray(target, elems, appending, kind)
}

// arrayTarget is the variable name=(…) assigns and the kind of array it
// is to be; an error when it is readonly.
func (r *Runner) arrayTarget(name string, kind Attr) (string, Attr, error) {
	target, _, _ := r.resolve(name)
	existing, _ := r.vars.find(target)
	if kind == 0 {
		kind = AttrIndexed
		if existing != nil && existing.m != nil {
			kind = AttrAssoc
		}
	}
	if existing != nil && existing.Attr&AttrReadonly != 0 {
		return "", 0, readonlyErr(target)
	}
	return target, kind, nil
}

// arrayElem is an element of name=(…), expanded.
type arrayElem struct {
	key   string
	index int64
	keyed bool
	vals  []string
	shown string // the key as set -x shows it
}

// arrayElems expands the elements of a compound assignment to an array
// of the kind given.
func (r *Runner) arrayElems(arr *syntax.ArrayExpr, kind Attr) []arrayElem {
	var elems []arrayElem
	for _, e := range arr.Elems {
		if e.Index != nil {
			el := arrayElem{keyed: true}
			if kind == AttrAssoc {
				el.key = r.subscriptKey(e.Index)
				el.shown = el.key
			} else {
				el.index = r.subscriptIndex(e.Index)
				if r.opts.set[optXtrace] {
					el.shown = r.traceKey(r.srcOf(e.Index))
				}
			}
			if e.Value != nil {
				el.vals = []string{r.assignValue(e.Value)}
			} else {
				el.vals = []string{""}
			}
			elems = append(elems, el)
			continue
		}
		if e.Value == nil {
			continue
		}
		elems = append(elems, arrayElem{vals: r.Fields(e.Value)})
	}
	return elems
}

// arrayTrace is name=(…) as set -x shows a declaration's compound
// assignment: each key and value single-quoted.
func arrayTrace(name string, appending bool, elems []arrayElem) string {
	var b strings.Builder
	b.WriteString(name)
	if appending {
		b.WriteString("+")
	}
	b.WriteString("=(")
	first := true
	for _, el := range elems {
		for _, s := range el.vals {
			if !first {
				b.WriteByte(' ')
			}
			first = false
			if el.keyed {
				b.WriteString("[" + singleQuote(el.shown) + "]=")
			}
			b.WriteString(singleQuote(s))
		}
	}
	b.WriteString(")")
	return b.String()
}

// traceKey is an indexed array's key as set -x shows it: its text
// expanded as a word (the arithmetic comes after), unless that would run
// a command again.
func (r *Runner) traceKey(src string) string {
	if strings.Contains(src, "`") || strings.Contains(strings.ReplaceAll(src, "$((", ""), "$(") {
		return src
	}
	return r.assocKey(src)
}

// storeArray gives target the elements arrayElems expanded.
func (r *Runner) storeArray(target string, elems []arrayElem, appending bool, kind Attr) error {
	v, err := r.prepare(target, kind)
	if err != nil {
		return err
	}
	if !appending {
		if kind == AttrAssoc {
			v.m = newAssoc()
		} else {
			v.arr = &indexed{}
		}
	}
	v.set = true
	if kind == AttrAssoc {
		// Keys and values may also come in pairs: m=(k1 v1 k2 v2).
		var pending *string
		for _, el := range elems {
			if el.keyed {
				s, err := r.convert(v, el.vals[0], "", false)
				if err != nil {
					return err
				}
				v.m.set(el.key, s)
				continue
			}
			for _, s := range el.vals {
				if pending == nil {
					k := s
					pending = &k
					continue
				}
				cs, err := r.convert(v, s, "", false)
				if err != nil {
					return err
				}
				v.m.set(*pending, cs)
				pending = nil
			}
		}
		if pending != nil {
			v.m.set(*pending, "")
		}
		r.vars.changed(v)
		return nil
	}
	next := int64(v.arr.max()) + 1
	for _, el := range elems {
		if el.keyed {
			i := el.index
			if i < 0 {
				i += int64(v.arr.max()) + 1
				if i < 0 {
					r.errorf("%s: bad array subscript", itoa(el.index))
					continue
				}
			}
			s, err := r.convert(v, el.vals[0], "", false)
			if err != nil {
				return err
			}
			v.arr.set(int(i), s)
			next = i + 1
			continue
		}
		for _, s := range el.vals {
			cs, err := r.convert(v, s, "", false)
			if err != nil {
				return err
			}
			v.arr.set(int(next), cs)
			next++
		}
	}
	r.vars.changed(v)
	return nil
}

// run runs a command by its expanded words, with the assignments before
// it.
func (r *Runner) run(args []string, temp *scope) {
	name := args[0]
	fn := r.funcs.get(name)
	b := r.sess.builtins[name]
	if b != nil && !b.enabled() {
		b = nil
	}
	if fn != nil && (b == nil || !b.Special || !r.opts.set[optPosix]) && !strings.Contains(name, "/") {
		r.markShellPart()
		r.withTemp(temp, args, func() { r.callFunc(fn, args) })
		return
	}
	if b != nil && !strings.Contains(name, "/") {
		r.markShellPart()
		r.withTemp(temp, args, func() { r.runBuiltin(b, args) })
		r.specialDone(b)
		return
	}
	// A program's assignments are in scope while it is looked up (a
	// PATH=… before it counts) and exported to it.
	r.withTemp(temp, args, func() { r.execProgram(args, nil) })
}

// specialDone ends a non-interactive shell in posix mode after a special
// builtin's usage error, as POSIX asks (not when command runs it).
func (r *Runner) specialDone(b *Builtin) {
	if b != nil && b.Special && r.status == 2 && r.opts.set[optPosix] && !r.sess.interactive && r.flow == flowNone {
		r.exit(2)
	}
}

// tempScope expands the assignments before a command into a scope of
// their own, exported to what runs inside, and traces them and the
// command's words. The scope is not left on the stack: withTemp puts it
// there while the command runs. nil when there are no assignments.
func (r *Runner) tempScope(assigns []*syntax.Assign, args []string) *scope {
	if len(assigns) == 0 {
		return nil
	}
	var trace []string
	// In order, each in scope for the values after it, as bash does:
	// A=1 B=$A cmd gives cmd B=1.
	s := newScope()
	s.temp = true
	r.vars.push(s)
	defer r.popTemp(s) // also when a value's expansion fails
	for _, a := range assigns {
		if a.Array != nil || a.Index != nil {
			continue
		}
		val := r.assignValue(a.Value)
		if a.Append {
			old, _ := r.Get(a.Name.Value)
			val = old + val
		}
		if v, _ := r.vars.find(a.Name.Value); v != nil && v.Attr&AttrReadonly != 0 {
			// bash says so and runs the command all the same.
			r.errorf("%s: readonly variable", a.Name.Value)
			continue
		}
		s.vars[a.Name.Value] = &Var{Attr: AttrExport, set: true, str: val}
		r.vars.gen++
		trace = append(trace, a.Name.Value+"="+assignQuote(val))
	}
	for _, t := range trace {
		r.xtraceWords([]string{t})
	}
	r.xtraceWords(quoteAll(args))
	return s
}

// withTemp runs f with the scope tempScope made, if any.
func (r *Runner) withTemp(s *scope, args []string, f func()) {
	if s != nil {
		r.vars.push(s)
		defer r.popTemp(s)
		if _, ok := s.vars["IFS"]; ok {
			r.ifsCache = nil // a DEBUG trap may have split words just before
		}
	}
	r.lastArg = args[len(args)-1]
	f()
}

// popTemp removes the scope of the assignments before a command. A
// function's frame may have been pushed above it and popped since; the
// IFS cache is refreshed as IFS may have come or gone.
func (r *Runner) popTemp(s *scope) {
	for i := len(r.vars.scopes) - 1; i > 0; i-- {
		if r.vars.scopes[i] == s {
			r.vars.scopes = append(r.vars.scopes[:i], r.vars.scopes[i+1:]...)
			r.vars.gen++
			break
		}
	}
	if _, ok := s.vars["IFS"]; ok {
		r.ifsCache = nil
	}
}

func quoteAll(args []string) []string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = quoteWord(a)
	}
	return q
}

// assignQuote is an assignment's value as set -x shows it: nothing for
// an empty one.
func assignQuote(v string) string {
	if v == "" {
		return ""
	}
	return quoteWord(v)
}
