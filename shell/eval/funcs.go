package eval

import (
	"sort"
	"sync/atomic"

	"mvdan.cc/sh/v3/syntax"
)

// Func is a shell function.
type Func struct {
	Name string
	Body *syntax.Stmt
	// src is the text its definition was parsed from, source the file
	// (BASH_SOURCE), line where it starts.
	src     string
	lenient *lenient
	source  string
	line    int
	// lineBase is the lines before its text: those of the eval that
	// defined it.
	lineBase int
	trace    bool // declare -ft: it inherits DEBUG and RETURN traps
	export   bool // export -f
}

// funcs is a shell's function table; a subshell shares it until either
// side defines or removes one.
type funcs struct {
	m      map[string]*Func
	shared atomic.Bool
}

func newFuncs() *funcs { return &funcs{m: map[string]*Func{}} }

func (f *funcs) get(name string) *Func { return f.m[name] }

func (f *funcs) writable() map[string]*Func {
	if f.shared.Load() {
		m := make(map[string]*Func, len(f.m))
		for k, v := range f.m {
			m[k] = v
		}
		f.m = m
		f.shared.Store(false)
	}
	return f.m
}

func (f *funcs) set(name string, fn *Func) { f.writable()[name] = fn }
func (f *funcs) remove(name string)        { delete(f.writable(), name) }

func (f *funcs) fork() *funcs {
	f.shared.Store(true)
	c := &funcs{m: f.m}
	c.shared.Store(true)
	return c
}

func (f *funcs) names() []string {
	ns := make([]string, 0, len(f.m))
	for k := range f.m {
		ns = append(ns, k)
	}
	sort.Strings(ns)
	return ns
}

// Func is the function name, nil when there is none.
func (r *Runner) Func(name string) *Func { return r.funcs.get(name) }

// FuncNames lists the functions, sorted.
func (r *Runner) FuncNames() []string { return r.funcs.names() }

func (r *Runner) funcDecl(c *syntax.FuncDecl) {
	if c.Name == nil {
		// zsh's anonymous functions parse; bash has none.
		r.errorf("syntax error near unexpected token `('")
		r.status = 2
		return
	}
	name := UnescapeRawBytes(c.Name.Value) // a Latin-1 name is its bytes
	if text, ok := r.lenientWord(c.Name.Pos()); ok {
		r.errorf("`%s': not a valid identifier", text)
		r.status = 1
		return
	}
	if b := r.sess.builtins[name]; b != nil && b.Special && r.opts.set[optPosix] {
		r.errorf("`%s': is a special builtin", name)
		r.status = 1
		return
	}
	r.funcs.set(name, &Func{Name: name, Body: c.Body, src: r.src, lenient: r.lenient, source: r.currentSource(), line: int(c.Position.Line()) + r.lineBase, lineBase: r.lineBase})
	r.status = 0
}

// currentSource is the file the running code came from.
func (r *Runner) currentSource() string {
	if len(r.frames) > 0 {
		return r.frames[len(r.frames)-1].source
	}
	if r.sess.scriptName == "" && !r.sess.interactive {
		// bash's name for where a -c string's functions come from
		return "environment"
	}
	return r.sess.scriptName
}

// callFunc runs a function with args ($0 stays the shell's).
func (r *Runner) callFunc(fn *Func, args []string) {
	if nest, ok := r.Get("FUNCNEST"); ok && nest != "" {
		if n, err := r.arithString(nest); err == nil && n > 0 && int64(r.funcDepth) >= n {
			r.errorf("%s: maximum function nesting level exceeded (%d)", fn.Name, n)
			panic(abort{status: 1})
		}
	}
	if r.funcDepth >= maxFuncDepth {
		r.errorf("%s: maximum function nesting level exceeded (%d)", fn.Name, maxFuncDepth)
		panic(abort{status: 1})
	}
	r.sess.callSeq++
	if r.opts.shopt[optExtdebug] {
		r.initArgStack()
	}
	r.frames = append(r.frames, frame{
		name:     fn.Name,
		source:   fn.source,
		callLine: r.line,
		params:   r.params,
		fn:       fn,
		call:     r.sess.callSeq,
		args:     args[1:],
		pushed:   r.opts.shopt[optExtdebug],
	})
	// A trap's own text keeps the line it interrupted, but a function
	// it calls counts its lines, as in bash (its error messages say so).
	savedLine, savedLoops, savedBase, savedLock := r.line, r.loops, r.lineBase, r.lineLock
	r.lineLock = 0
	restoreCode := r.withCode(fn.src, fn.lenient)
	r.lineBase = fn.lineBase
	r.params = args[1:]
	r.loops = 0
	r.funcDepth++
	s := newScope()
	s.fn = true
	r.vars.push(s)
	savedDebug := r.inDebugFunc
	if !fn.trace && !r.opts.set[optFunctrace] {
		r.inDebugFunc++
	}
	restoreErr := r.hideErrTrap()
	defer func() {
		restoreErr()
		r.inDebugFunc = savedDebug
		r.popFuncScope(s)
		r.funcDepth--
		top := r.frames[len(r.frames)-1]
		r.frames = r.frames[:len(r.frames)-1]
		r.params = top.params
		if top.savedSet != nil {
			r.opts.set = *top.savedSet
		}
		restoreCode()
		r.line, r.loops, r.lineBase, r.lineLock = savedLine, savedLoops, savedBase, savedLock
	}()
	if r.inDebugFunc == savedDebug {
		// A traced function's DEBUG trap runs once on entry too, inside
		// it, BASH_COMMAND still the call, LINENO the body's: bats's
		// traces count on it.
		r.at(fn.Body.Position)
		r.debugTrap()
	}
	r.stmt(fn.Body)
	if r.flow == flowReturn {
		r.flow = flowNone
	}
	if r.flow == flowExit {
		// bash runs the EXIT trap where exit ended the shell: FUNCNAME
		// and the function's locals are still there. After set -e,
		// only FUNCNAME (and the other frame variables) are.
		if r.errexitExit {
			if r.errexitFrames == nil {
				r.errexitFrames = append([]frame(nil), r.frames...)
			}
		} else {
			r.runExitTrap()
			r.flow = flowExit
		}
		return
	}
	r.returnTrap(fn)
}

// maxFuncDepth bounds recursion where FUNCNEST is not set, before Go's
// stack would: bash goes on until it crashes.
const maxFuncDepth = 10000

// popFuncScope removes a function's scope (and any scope pushed above it
// that was not popped, such as assignments before a command that ended
// early).
func (r *Runner) popFuncScope(s *scope) {
	for i := len(r.vars.scopes) - 1; i > 0; i-- {
		if r.vars.scopes[i] == s {
			for _, above := range r.vars.scopes[i:] {
				if _, ok := above.vars["IFS"]; ok {
					r.ifsCache = nil
				}
			}
			r.vars.scopes = r.vars.scopes[:i]
			r.vars.gen++
			return
		}
	}
}
