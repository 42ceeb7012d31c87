package eval

import (
	"context"
	"errors"

	"mvdan.cc/sh/v3/syntax"
)

// ErrWouldRun is the error of an expansion that would run something: a
// command or process substitution, in a [Runner.Dry] shell.
var ErrWouldRun = errors.New("the expansion would run a command")

// errExpansion is an expansion that failed as the shell would fail it.
var errExpansion = errors.New("the expansion fails")

// Dry is a copy of the shell for working out what words would expand to
// without running anything: a confirmation's preview of a command. Its
// command and process substitutions fail with [ErrWouldRun].
func (r *Runner) Dry() *Runner {
	d := r.fork()
	d.subshell = r.subshell // the copy stands for the shell itself
	d.dry = true
	d.fds = newFdTable()
	d.job, d.ownJob = nil, false
	return d
}

// ExpandFields expands words as the arguments of a command run from dir:
// braces, parameters, arithmetic, splitting, globbing, quote removal.
func (r *Runner) ExpandFields(ctx context.Context, dir string, words ...*syntax.Word) (fields []string, err error) {
	err = r.expandGuarded(ctx, dir, func() { fields = r.argFields(words...) })
	return fields, err
}

// ExpandLiteral expands a word as the value of an assignment: no
// splitting, no globbing.
func (r *Runner) ExpandLiteral(ctx context.Context, dir string, w *syntax.Word) (s string, err error) {
	err = r.expandGuarded(ctx, dir, func() { s = r.assignValue(w) })
	return s, err
}

func (r *Runner) expandGuarded(ctx context.Context, dir string, f func()) (err error) {
	savedCtx, savedDir, savedErr := r.ctx, r.dir, r.fds.get(2)
	r.ctx, r.dir = ctx, dir
	// The words come from a parse of their own: their text is printed
	// from the tree, not sliced from the running code's.
	defer r.withCode("", nil)()
	if r.dry {
		delete(r.fds.fds, 2) // its messages go nowhere
	}
	defer func() {
		r.ctx, r.dir = savedCtx, savedDir
		if r.dry && savedErr != nil {
			r.fds.fds[2] = savedErr
		}
		if e := recover(); e != nil {
			switch e.(type) {
			case wouldRun:
				err = ErrWouldRun
			case abort, cmdError, exitPanic:
				r.failing = false
				err = errExpansion
			default:
				panic(e)
			}
		}
	}()
	f()
	return nil
}

// wouldRun is the panic of a dry shell's substitution.
type wouldRun struct{}
