package shell

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/shell/marks"
)

// bash-completion passes values up the call stack with the "upvars" idiom:
//
//	f() { local cur; g; }                    # f wants cur
//	g() { local cur=x; local cur && _upvars -v cur "$cur"; }
//	_upvars() { unset -v "$2" && eval $2=\"\$3\"; }
//
// In bash, `unset` of a variable local to a calling function removes it,
// so the assignment that follows reaches the next one up: f's cur. interp
// keeps the unset variable in g's scope, the value stays there and is lost
// when g returns; interp offers no hook to remove it. So, in completion
// functions (where bash-completion uses the idiom), qsh follows the calls:
// each call of a function goes through a builtin (callMark) that evals it
// with a frame of its own, named by __qsh_fr, a variable the call sees.
// When a function unsets a variable it does not declare local itself, but
// that is local where it was called, the variable's value in its caller
// once it returns is passed, when the caller returns in turn, to the
// caller's caller: where bash's assignment went. (When the variable was
// local further up, that repeats the value it has there: no harm.)
// Functions that declare local variables by computed names (local "$1")
// are left alone, since what they declare cannot be known.

// frameVar names the frame of the function call in progress.
const frameVar = marks.Prefix + "fr"

// callMark is the name of the builtin that calls a function in a frame.
const callMark = builtinMark + "call"

// frame is one function call followed under a completion function.
type frame struct {
	parent *frame
	fn     string // the function called
	mu     sync.Mutex
	// entered is set once the function's own call has begun: the first
	// call of fn in the frame is the one the frame is for.
	entered bool
	// unset are the calling functions' locals fn unset, whose values go
	// up when it returns.
	unset []string
	// pending are the values this call passes to its caller's scope when
	// it returns.
	pending map[string]expand.Variable
}

// frames are the frames in progress, by number (the value of frameVar).
type frames struct {
	mu   sync.Mutex
	next int
	m    map[string]*frame
	// locals caches, per function body, whether its local declarations
	// are all literal names, and which.
	locals map[*syntax.Stmt]localNames
}

type localNames struct {
	names    map[string]bool
	computed bool // some declaration names a variable by an expansion
}

func (t *frames) add(f *frame) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[string]*frame{}
	}
	t.next++
	id := strconv.Itoa(t.next)
	t.m[id] = f
	return id
}

func (t *frames) get(id string) *frame {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.m[id]
}

func (t *frames) remove(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.m, id)
}

// localsOf lists the local declarations of a function body.
func (t *frames) localsOf(body *syntax.Stmt) localNames {
	t.mu.Lock()
	defer t.mu.Unlock()
	if ln, ok := t.locals[body]; ok {
		return ln
	}
	ln := localNames{names: map[string]bool{}}
	syntax.Walk(body, func(n syntax.Node) bool {
		d, ok := n.(*syntax.DeclClause)
		if !ok {
			return true
		}
		switch d.Variant.Value {
		case "local", "declare", "typeset":
		default:
			return true
		}
		for _, as := range d.Args {
			switch {
			case as.Name != nil:
				ln.names[as.Name.Value] = true
			case as.Value != nil && as.Value.Lit() == "":
				ln.computed = true // local "$2"
			}
		}
		return true
	})
	if t.locals == nil {
		t.locals = map[*syntax.Stmt]localNames{}
	}
	t.locals[body] = ln
	return ln
}

// callFrom runs the completion function fn (with its arguments, quoted)
// where hc is, in a frame of its own: the root of the calls followed. It
// returns the function's status.
func (s *Shell) callFrom(ctx context.Context, hc interp.HandlerContext, fn, args string) int {
	f := &frame{fn: fn}
	id := s.frames.add(f)
	vr, _ := evalVar(ctx, hc, frameVar+"="+id+" "+fn+" "+args+"; declare "+statusVar+"=$?", statusVar)
	s.frames.remove(id)
	if len(f.pending) > 0 {
		assignUp(ctx, hc, f.pending)
	}
	st, _ := strconv.Atoi(vr.String())
	return st
}

// statusVar holds a completion function's status for a moment.
const statusVar = marks.Prefix + "rc"

// followCall is the call handler's part: under a completion function
// (frameVar is set), a function call goes through callMark, and an unset
// is noted. ok is false when args are left as they are.
func (s *Shell) followCall(hc interp.HandlerContext, args []string) (out []string, ok bool) {
	id := hc.Env.Get(frameVar)
	if !id.IsSet() {
		return nil, false
	}
	f := s.frames.get(id.String())
	if f == nil {
		return nil, false
	}
	name := args[0]
	if name == "unset" {
		s.noteUnset(hc, f, args[1:])
		return nil, false
	}
	if !s.isFuncAt(hc, name) {
		return nil, false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.entered && name == f.fn {
		f.entered = true
		return nil, false
	}
	return append([]string{callMark}, args...), true
}

// noteUnset notes the variables unset in f's function that it does not
// declare local and that are local where it was called.
func (s *Shell) noteUnset(hc interp.HandlerContext, f *frame, args []string) {
	if f.parent == nil || s.bgToken(hc) != "" {
		return
	}
	body, ok := s.runner.Funcs[f.fn]
	if !ok {
		return
	}
	ln := s.frames.localsOf(body)
	if ln.computed {
		return
	}
	for _, a := range args {
		switch {
		case a == "-f":
			return
		case a == "-v" || a == "--":
			continue
		case !validName(a) || ln.names[a] || !hc.Env.Get(a).Local:
			continue
		}
		f.mu.Lock()
		f.unset = append(f.unset, a)
		f.mu.Unlock()
	}
}

// callInFrame is the callMark builtin: it calls the function args[0] in a new
// frame, then files the values of the caller's locals it unset, for the
// caller to pass up when it returns, and passes up its own.
func (s *Shell) callInFrame(ctx context.Context, hc interp.HandlerContext, args []string) error {
	parent := s.frames.get(hc.Env.Get(frameVar).String())
	f := &frame{parent: parent, fn: args[0]}
	id := s.frames.add(f)
	var src strings.Builder
	src.WriteString(frameVar + "=" + id + " " + singleQuote(args[0]))
	for _, a := range args[1:] {
		src.WriteString(" " + singleQuote(a))
	}
	err := hc.Builtin(ctx, []string{"eval", src.String()})
	s.frames.remove(id)
	// Here is the caller's scope.
	f.mu.Lock()
	defer f.mu.Unlock()
	if parent != nil && len(f.unset) > 0 {
		parent.mu.Lock()
		if parent.pending == nil {
			parent.pending = map[string]expand.Variable{}
		}
		for _, name := range f.unset {
			parent.pending[name] = hc.Env.Get(name)
		}
		parent.mu.Unlock()
	}
	if len(f.pending) > 0 {
		assignUp(ctx, hc, f.pending)
	}
	return err
}

// assignUp assigns the values where hc is, which is the scope of a
// function's caller.
func assignUp(ctx context.Context, hc interp.HandlerContext, vals map[string]expand.Variable) {
	var src strings.Builder
	for _, name := range sortedKeys(vals) {
		vr := vals[name]
		switch {
		case !vr.IsSet():
		case vr.Kind == expand.Indexed:
			fmt.Fprintf(&src, "%s=(", name)
			for i, v := range vr.List {
				idx := i
				if vr.Indexes != nil {
					idx = vr.Indexes[i]
				}
				fmt.Fprintf(&src, " [%d]=%s", idx, singleQuote(v))
			}
			src.WriteString(" ); ")
		case vr.Kind == expand.String:
			fmt.Fprintf(&src, "%s=%s; ", name, singleQuote(vr.Str))
		}
	}
	if src.Len() > 0 {
		hc.Builtin(ctx, []string{"eval", src.String()})
	}
}
