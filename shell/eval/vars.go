package eval

import (
	"maps"
	"strings"
	"sync/atomic"
)

// Attr is a variable's attributes, as declare sets them.
type Attr uint16

const (
	AttrExport   Attr = 1 << iota // -x
	AttrReadonly                  // -r
	AttrInteger                   // -i
	AttrIndexed                   // -a
	AttrAssoc                     // -A
	AttrNameref                   // -n
	AttrLower                     // -l
	AttrUpper                     // -u
	AttrTrace                     // -t
)

// attrFlags lists the attributes in the order declare -p prints their
// letters.
var attrFlags = []struct {
	attr Attr
	flag byte
}{
	{AttrIndexed, 'a'}, {AttrAssoc, 'A'}, {AttrInteger, 'i'}, {AttrLower, 'l'}, {AttrNameref, 'n'},
	{AttrReadonly, 'r'}, {AttrTrace, 't'}, {AttrUpper, 'u'}, {AttrExport, 'x'},
}

// Var is one variable: its attributes and its value, a string, an indexed
// array or an associative array. A declared variable need not be set
// (local x).
type Var struct {
	Attr Attr
	set  bool
	str  string
	arr  *indexed
	m    *assoc
	// dyn makes a special variable (RANDOM, SECONDS, FUNCNAME…) whose
	// value is computed when read; unsetting it drops that, as in bash.
	dyn *dynamic
}

// dynamic computes a special variable's value, and takes assignments to it.
type dynamic struct {
	get func(r *Runner) *Var
	set func(r *Runner, value string) // nil: assigned as a plain value
}

func strVar(s string) *Var { return &Var{set: true, str: s} }

func arrVar(vals []string) *Var {
	a := &indexed{vals: vals, keys: make([]int, len(vals))}
	for i := range a.keys {
		a.keys[i] = i
	}
	return &Var{Attr: AttrIndexed, set: true, arr: a}
}

func (v *Var) isArray() bool { return v.Attr&(AttrIndexed|AttrAssoc) != 0 }

// IsSet reports whether the variable has a value: a scalar's, or an array's
// element 0 (what $a names).
func (v *Var) IsSet() bool {
	switch {
	case v == nil:
		return false
	case v.arr != nil:
		_, ok := v.arr.get(0)
		return ok
	case v.m != nil:
		_, ok := v.m.get("0")
		return ok
	}
	return v.set
}

// String is the value $name expands to: a scalar's, or element 0 of an
// array.
func (v *Var) String() string {
	switch {
	case v == nil:
		return ""
	case v.arr != nil:
		s, _ := v.arr.get(0)
		return s
	case v.m != nil:
		s, _ := v.m.get("0")
		return s
	}
	return v.str
}

// Values are the elements "${name[@]}" expands to.
func (v *Var) Values() []string {
	switch {
	case v == nil:
		return nil
	case v.arr != nil:
		return v.arr.vals
	case v.m != nil:
		ks := v.m.keys()
		vs := make([]string, len(ks))
		for i, k := range ks {
			vs[i] = v.m.vals[k]
		}
		return vs
	case v.set:
		return []string{v.str}
	}
	return nil
}

// Keys are what "${!name[@]}" expands to.
func (v *Var) Keys() []string {
	switch {
	case v == nil:
		return nil
	case v.arr != nil:
		ks := make([]string, len(v.arr.keys))
		for i, k := range v.arr.keys {
			ks[i] = itoa(int64(k))
		}
		return ks
	case v.m != nil:
		return v.m.keys()
	case v.set:
		return []string{"0"}
	}
	return nil
}

// count is ${#name[@]}.
func (v *Var) count() int {
	switch {
	case v == nil:
		return 0
	case v.arr != nil:
		return v.arr.len()
	case v.m != nil:
		return v.m.len()
	case v.set:
		return 1
	}
	return 0
}

func (v *Var) clone() *Var {
	c := *v
	if v.arr != nil {
		c.arr = v.arr.clone()
	}
	if v.m != nil {
		c.m = v.m.clone()
	}
	return &c
}

// scope is one level of the variable stack: the globals, a function's
// locals, or the assignments before a command (x=1 f).
type scope struct {
	vars map[string]*Var
	fn   bool // a function's locals
	temp bool // assignments before a function or builtin
	// shared is set when a subshell may read the same map: it is copied,
	// with its variables, before the first write on either side. Atomic:
	// two subshells may be made of an idle shell at once.
	shared atomic.Bool
}

func newScope() *scope { return &scope{vars: map[string]*Var{}} }

// writable makes the scope's map its own, to change.
func (s *scope) writable() map[string]*Var {
	if s.shared.Load() {
		m := make(map[string]*Var, len(s.vars))
		for k, v := range s.vars {
			m[k] = v.clone()
		}
		s.vars = m
		s.shared.Store(false)
	}
	return s.vars
}

// vars is the stack of scopes; [0] holds the globals. Lookups go from the
// top down, which is bash's dynamic scoping.
type vars struct {
	scopes []*scope
	// gen counts changes to exported variables, so that the environment
	// of programs is rebuilt only when it changed.
	gen int
}

func newVars() *vars { return &vars{scopes: []*scope{newScope()}} }

// fork copies the stack for a subshell: both sides keep the maps until one
// writes.
func (vs *vars) fork() *vars {
	c := &vars{scopes: make([]*scope, len(vs.scopes)), gen: vs.gen}
	for i, s := range vs.scopes {
		s.shared.Store(true)
		cs := &scope{vars: s.vars, fn: s.fn, temp: s.temp}
		cs.shared.Store(true)
		c.scopes[i] = cs
	}
	return c
}

func (vs *vars) global() *scope { return vs.scopes[0] }

// local is the scope local and declare write to: the innermost function's,
// or the globals outside functions.
func (vs *vars) local() *scope {
	for i := len(vs.scopes) - 1; i > 0; i-- {
		if vs.scopes[i].fn {
			return vs.scopes[i]
		}
	}
	return vs.scopes[0]
}

func (vs *vars) inFunction() bool { return vs.local() != vs.scopes[0] }

// push changes what is visible, exported variables included.
func (vs *vars) push(s *scope) { vs.scopes = append(vs.scopes, s); vs.gen++ }

// findNonTemp is find outside the scopes of assignments before a command.
func (vs *vars) findNonTemp(name string) *Var {
	for i := len(vs.scopes) - 1; i >= 0; i-- {
		if vs.scopes[i].temp {
			continue
		}
		if v, ok := vs.scopes[i].vars[name]; ok {
			return v
		}
	}
	return nil
}

// find is the variable name names, without following namerefs, and the
// scope it is in; nil when there is none.
func (vs *vars) find(name string) (*Var, *scope) {
	for i := len(vs.scopes) - 1; i >= 0; i-- {
		if v, ok := vs.scopes[i].vars[name]; ok {
			return v, vs.scopes[i]
		}
	}
	return nil, nil
}

// forWrite is the variable name names, in a map that may be changed; nil
// when there is none.
func (vs *vars) forWrite(name string) (*Var, *scope) {
	v, s := vs.find(name)
	if v == nil {
		return nil, nil
	}
	return s.writable()[name], s
}

// create makes an unset variable name in scope s, replacing none.
func (vs *vars) create(s *scope, name string) *Var {
	v := &Var{}
	s.writable()[name] = v
	return v
}

func (vs *vars) changed(v *Var) {
	if v.Attr&AttrExport != 0 {
		vs.gen++
	}
}

// each calls f with each visible variable, innermost first, once a name.
func (vs *vars) each(f func(name string, v *Var)) {
	seen := map[string]bool{}
	for i := len(vs.scopes) - 1; i >= 0; i-- {
		for name, v := range vs.scopes[i].vars {
			if !seen[name] {
				seen[name] = true
				f(name, v)
			}
		}
	}
}

func (vs *vars) names() []string {
	var ns []string
	vs.each(func(name string, _ *Var) { ns = append(ns, name) })
	return ns
}

// validName reports whether s is a shell variable name.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// splitRef splits a reference like a[1] into the name and the subscript;
// ok is false when s is not a name with an optional subscript.
func splitRef(s string) (name, sub string, hasSub, ok bool) {
	if i := strings.IndexByte(s, '['); i > 0 && strings.HasSuffix(s, "]") {
		name, sub = s[:i], s[i+1:len(s)-1]
		return name, sub, true, validName(name)
	}
	return s, "", false, validName(s)
}

// maxRefs bounds nameref chains, as bash's circular reference check.
const maxRefs = 8

// resolve follows namerefs from name: the name and subscript (for a
// reference to an element) finally meant.
func (r *Runner) resolve(name string) (target, sub string, hasSub bool) {
	target = name
	for range maxRefs {
		v, _ := r.vars.find(target)
		if v == nil || v.Attr&AttrNameref == 0 || !v.set {
			return target, "", false
		}
		ref := v.str
		n, s, has, ok := splitRef(ref)
		if !ok {
			return target, "", false
		}
		if has {
			return n, s, true
		}
		target = n
	}
	// A cycle refers to nothing; bash warns.
	r.errorf("warning: %s: circular name reference", name)
	return "", "", false
}

// lookup is the variable name names after namerefs, with dynamic values
// computed; nil when there is none.
func (r *Runner) lookup(name string) *Var {
	if v, _ := r.vars.find(name); v != nil && v.Attr&AttrNameref == 0 {
		if v.dyn != nil && v.dyn.get != nil {
			return v.dyn.get(r)
		}
		return v
	}
	target, sub, hasSub := r.resolve(name)
	v, _ := r.vars.find(target)
	if v != nil && v.dyn != nil && v.dyn.get != nil {
		v = v.dyn.get(r)
	}
	if hasSub && v != nil {
		s, ok := r.element(target, v, sub)
		if !ok {
			return nil
		}
		return strVar(s)
	}
	return v
}

// Get is the value of the variable name: $name.
func (r *Runner) Get(name string) (string, bool) {
	v := r.lookup(name)
	return v.String(), v.IsSet()
}

// Var is the variable name names, after namerefs; nil when there is none.
// It must not be changed.
func (r *Runner) Var(name string) *Var { return r.lookup(name) }

// VarNames lists the names of the visible variables.
func (r *Runner) VarNames() []string { return r.vars.names() }

// Set assigns a string to the variable name, as name=value does.
func (r *Runner) Set(name, value string) error { return r.assign(name, value, false) }

// SetArray makes name an indexed array of vals.
func (r *Runner) SetArray(name string, vals []string) error {
	v, err := r.prepare(name, AttrIndexed)
	if err != nil {
		return err
	}
	v.arr = &indexed{}
	for _, s := range vals {
		v.arr.append(s)
	}
	v.set = true
	r.vars.changed(v)
	return nil
}

// Unset removes the variable name as unset -v does.
func (r *Runner) Unset(name string) error { return r.unsetVar(name) }

// Export gives name the export attribute.
func (r *Runner) Export(name string) {
	v, _ := r.vars.forWrite(name)
	if v == nil {
		v = r.vars.create(r.vars.global(), name)
	}
	v.Attr |= AttrExport
	r.vars.gen++
}

// varError is an assignment that failed; its message is bash's. A fatal
// one (to a readonly variable) ends a non-interactive shell.
type varError struct {
	msg   string
	fatal bool
}

func (e *varError) Error() string { return e.msg }

func readonlyErr(name string) error { return &varError{msg: name + ": readonly variable", fatal: true} }

func isFatal(err error) bool {
	ve, ok := err.(*varError)
	return ok && ve.fatal
}

// prepare finds or creates the variable a write to name goes to (after
// namerefs, in the innermost scope that has it, else the globals), ready to
// change, converted to the kind kind asks (AttrIndexed, AttrAssoc or 0 for
// any).
func (r *Runner) prepare(name string, kind Attr) (*Var, error) {
	target, _, hasSub := r.resolve(name)
	if hasSub {
		return nil, &varError{msg: name + ": cannot assign to a reference to an element here"}
	}
	v, _ := r.vars.forWrite(target)
	if v == nil {
		v = r.vars.create(r.vars.global(), target)
	}
	if v.Attr&AttrReadonly != 0 {
		return nil, readonlyErr(target)
	}
	if v.dyn != nil && v.dyn.get != nil && kind != 0 {
		v.dyn = nil // an array assignment makes it plain
	}
	switch kind {
	case AttrIndexed:
		if v.m != nil {
			return v, nil // a=(…) on an associative array stays one
		}
		if v.arr == nil {
			v.arr = &indexed{}
			if v.set && v.Attr&AttrAssoc == 0 {
				v.arr.set(0, v.str)
			}
			v.str = ""
			v.Attr |= AttrIndexed
		}
	case AttrAssoc:
		if v.arr != nil {
			return nil, &varError{msg: target + ": cannot convert indexed to associative array"}
		}
		if v.m == nil {
			v.m = newAssoc()
			if v.set {
				v.m.set("0", v.str)
			}
			v.str = ""
			v.Attr |= AttrAssoc
		}
	}
	return v, nil
}

// convert applies the value attributes of v to an assigned string:
// integer evaluation, then case.
func (r *Runner) convert(v *Var, s string, appendTo string, appending bool) (string, error) {
	if v.Attr&AttrInteger != 0 {
		n, err := r.arithString(s)
		if err != nil {
			return "", err
		}
		if appending {
			base, err := r.arithString(appendTo)
			if err != nil {
				return "", err
			}
			n += base
			appending = false
		}
		s = itoa(n)
	}
	if appending {
		s = appendTo + s
	}
	switch {
	case v.Attr&AttrLower != 0:
		s = strings.ToLower(s)
	case v.Attr&AttrUpper != 0:
		s = strings.ToUpper(s)
	}
	return s, nil
}

// assign is name=value (name+=value when appending): to the variable, or
// to element 0 of an array.
func (r *Runner) assign(name, value string, appending bool) error {
	target, sub, hasSub := r.resolve(name)
	if hasSub {
		return r.assignElem(target, sub, value, appending)
	}
	if target == "" {
		// A cycle of namerefs, warned about: bash abandons the line.
		return &varError{fatal: true}
	}
	v, _ := r.vars.forWrite(target)
	if v == nil {
		v = r.vars.create(r.vars.global(), target)
	}
	if v.Attr&AttrReadonly != 0 {
		return readonlyErr(target)
	}
	if v.Attr&AttrNameref != 0 && !v.set {
		// declare -n r; r=a gives the reference its target.
		if value != "" && !refOK(value) {
			return &varError{msg: "`" + value + "': invalid variable name for name reference"}
		}
		v.str, v.set = value, true
		return nil
	}
	if v.dyn != nil && v.dyn.set != nil {
		v.dyn.set(r, value)
		return nil
	}
	if v.isArray() {
		return r.assignElem(target, "0", value, appending)
	}
	s, err := r.convert(v, value, v.str, appending)
	if err != nil {
		return err
	}
	v.str, v.set = s, true
	v.dyn = nil
	r.vars.changed(v)
	r.assigned(target, v)
	return nil
}

func refOK(s string) bool {
	_, _, _, ok := splitRef(s)
	return ok
}

// assignElem is name[sub]=value; sub is the subscript's text, evaluated as
// arithmetic for indexed arrays and taken as the key for associative ones.
func (r *Runner) assignElem(name, sub, value string, appending bool) error {
	v, _ := r.vars.forWrite(name)
	if v != nil && v.m != nil {
		return r.assignKey(name, v, sub, value, appending)
	}
	i, err := r.arithString(sub)
	if err != nil {
		return err
	}
	return r.assignIndex(name, i, value, appending)
}

func (r *Runner) assignKey(name string, v *Var, key, value string, appending bool) error {
	if v.Attr&AttrReadonly != 0 {
		return readonlyErr(name)
	}
	old, _ := v.m.get(key)
	s, err := r.convert(v, value, old, appending)
	if err != nil {
		return err
	}
	v.m.set(key, s)
	v.set = true
	r.vars.changed(v)
	return nil
}

func (r *Runner) assignIndex(name string, i int64, value string, appending bool) error {
	v, err := r.prepare(name, AttrIndexed)
	if err != nil {
		return err
	}
	if v.m != nil {
		return r.assignKey(name, v, itoa(i), value, appending)
	}
	if i < 0 {
		i += int64(v.arr.max()) + 1
		if i < 0 {
			// Fatal as a readonly variable's: bash ends a script there.
			return &varError{msg: name + "[" + itoa(i-int64(v.arr.max())-1) + "]: bad array subscript", fatal: true}
		}
	}
	old, _ := v.arr.get(int(i))
	s, err := r.convert(v, value, old, appending)
	if err != nil {
		return err
	}
	v.arr.set(int(i), s)
	v.set = true
	r.vars.changed(v)
	return nil
}

// assigned runs what an assignment to a few variables means to the shell
// itself.
func (r *Runner) assigned(name string, v *Var) {
	switch name {
	case "IFS":
		r.ifsCache = nil
	case "OPTIND":
		r.getopts = r.getopts.forget(v)
	case "PATH":
		// bash forgets where it found programs when PATH changes.
		r.hash.clear()
	}
	if r.sess.onAssign != nil && r.subshell == 0 && !r.dry {
		r.sess.onAssign(r, name)
	}
}

// element is ${v[sub]}: sub evaluated as arithmetic for indexed arrays and
// scalars, taken as the key for associative ones.
func (r *Runner) element(name string, v *Var, sub string) (string, bool) {
	if v.m != nil {
		return v.m.get(r.assocKey(sub))
	}
	i, err := r.arithString(r.arithText(sub))
	if err != nil {
		r.fatal(err)
	}
	return r.index(name, v, i)
}

// index is element i of an indexed array (or of a scalar, element 0), a
// negative i counting back from the end; name is the array's, for bash's
// "bad array subscript".
func (r *Runner) index(name string, v *Var, i int64) (string, bool) {
	switch {
	case v.arr != nil:
		if i < 0 {
			i += int64(v.arr.max()) + 1
			if i < 0 {
				r.errorf("%s: bad array subscript", name)
				return "", false
			}
		}
		return v.arr.get(int(i))
	case v.m != nil:
		return v.m.get(itoa(i))
	case i == 0 || i == -1:
		return v.str, v.set
	case i < -1 && v.set:
		r.errorf("%s: bad array subscript", name)
	}
	return "", false
}

// unsetVar is unset -v name: a local of the running function stays, unset;
// a variable of a calling function's scope is removed, so that the one it
// hid shows again, as bash's dynamic unset.
func (r *Runner) unsetVar(name string) error {
	if n, sub, has, ok := splitRef(name); ok && has {
		target, _, _ := r.resolve(n)
		return r.unsetElem(target, sub)
	}
	target, sub, hasSub := r.resolve(name)
	if hasSub {
		return r.unsetElem(target, sub)
	}
	v, s := r.vars.find(target)
	if v == nil {
		return nil
	}
	if v.Attr&AttrReadonly != 0 {
		return &varError{msg: target + ": cannot unset: readonly variable"}
	}
	r.vars.changed(v)
	if s.fn && (s == r.vars.local() || r.opts.shopt[optLocalvarUnset]) {
		// The running function's own local stays declared, unset; with
		// localvar_unset, a caller's local too (else unsetting it shows
		// the variable below it, as in bash).
		nv := &Var{Attr: v.Attr &^ (AttrIndexed | AttrAssoc | AttrNameref | AttrInteger | AttrLower | AttrUpper)}
		s.writable()[target] = nv
		r.assigned(target, nv)
		return nil
	}
	delete(s.writable(), target)
	r.assigned(target, nil)
	return nil
}

func (r *Runner) unsetElem(name, sub string) error {
	v, _ := r.vars.forWrite(name)
	if v == nil {
		return nil
	}
	if v.Attr&AttrReadonly != 0 {
		return &varError{msg: name + ": cannot unset: readonly variable"}
	}
	switch {
	case v.m != nil:
		v.m.unset(sub) // bash 5.2: a[@] of an associative array is the key @
	case sub == "@" || sub == "*":
		// bash empties the array and keeps its attributes.
		if v.arr == nil {
			return &varError{msg: name + ": not an array variable"}
		}
		v.arr = &indexed{}
	case v.arr != nil:
		i, err := r.arithString(sub)
		if err != nil {
			return err
		}
		if i < 0 {
			i += int64(v.arr.max()) + 1
			if i < 0 {
				return &varError{msg: name + "[" + sub + "]: bad array subscript"}
			}
		}
		v.arr.unset(int(i))
	default:
		i, err := r.arithString(sub)
		if err != nil {
			return err
		}
		if i == 0 {
			return r.unsetVar(name)
		}
	}
	r.vars.changed(v)
	return nil
}

// environ is the environment of the programs the shell runs: the exported
// variables that are set, plus extra (the assignments before the command).
func (r *Runner) environ(extra []string) []string {
	if r.envCache == nil || r.envGen != r.vars.gen {
		env := map[string]string{}
		r.vars.each(func(name string, v *Var) {
			if v.Attr&AttrExport != 0 && v.Attr&(AttrIndexed|AttrAssoc) == 0 {
				if v.dyn != nil && v.dyn.get != nil {
					v = v.dyn.get(r)
				}
				if v.set {
					env[name] = v.str
				}
			}
		})
		list := make([]string, 0, len(env))
		for _, k := range sortedKeys(env) {
			list = append(list, k+"="+env[k])
		}
		r.envCache, r.envGen = list, r.vars.gen
	}
	funcs := r.exportedFuncs()
	if len(extra) == 0 && len(funcs) == 0 {
		return r.envCache
	}
	extra = append(funcs, extra...)
	env := make([]string, 0, len(r.envCache)+len(extra))
	over := map[string]bool{}
	for _, kv := range extra {
		k, _, _ := strings.Cut(kv, "=")
		over[k] = true
	}
	for _, kv := range r.envCache {
		k, _, _ := strings.Cut(kv, "=")
		if !over[k] {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// exportedFuncs are the functions export -f marked, as bash passes them:
// BASH_FUNC_name%%=() { body }, which bash and qsh define again at start.
func (r *Runner) exportedFuncs() []string {
	var env []string
	for _, name := range sortedKeys(r.funcs.m) {
		fn := r.funcs.m[name]
		if !fn.export {
			continue
		}
		text := strings.TrimSuffix(strings.TrimPrefix(FuncText(fn), fn.Name+" () \n"), "\n")
		if rest, ok := strings.CutPrefix(text, "{ \n"); ok {
			text = "{ " + rest // bash takes only a value that starts "() {"
		}
		env = append(env, "BASH_FUNC_"+name+"%%=() "+text)
	}
	return env
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range maps.Keys(m) {
		ks = append(ks, k)
	}
	sortStrings(ks)
	return ks
}
