package eval

import (
	"context"
	"io"
	"syscall"
)

// The interactive shell follows what the evaluator does through these
// options: set -o vi changes its line editor, exit with stopped jobs is
// held once, a trap on SIGINT changes how it takes Ctrl-C.

// OnOption is called before a set -o or shopt option changes; an error
// refuses the change (an option the shell cannot honour).
func OnOption(f func(r *Runner, name string, on bool) error) Option {
	return func(r *Runner) { r.sess.onOption = f }
}

// OnChdir is called after the shell's directory changes (cd, pushd…).
func OnChdir(f func(r *Runner, dir string)) Option {
	return func(r *Runner) { r.sess.onChdir = f }
}

// OnExit is called when exit runs in the shell itself; false holds the
// exit (bash's "There are stopped jobs").
func OnExit(f func(r *Runner) bool) Option {
	return func(r *Runner) { r.sess.exitHook = f }
}

// BeforeExec is called before exec replaces the shell with a program: the
// terminal is given back as programs get it.
func BeforeExec(f func()) Option { return func(r *Runner) { r.sess.beforeExec = f } }

// OnSignalTrap is called when trap sets, ignores (cmd "") or resets a
// signal's trap in the shell itself; true means the shell handles the
// signal's delivery itself (SIGINT at an interactive prompt).
func OnSignalTrap(f func(sig syscall.Signal, cmd string, reset bool) bool) Option {
	return func(r *Runner) { r.sess.signalHook = f }
}

// PromptExpander expands prompt strings for ${x@P} and PS4: backslash
// escapes and expansions, as the interactive shell draws PS1.
func PromptExpander(f func(r *Runner, s string) string) Option {
	return func(r *Runner) { r.sess.promptExpand = f }
}

// Script names the script the shell runs: $0, BASH_SOURCE's outer frame,
// the name messages start with.
func Script(name string) Option {
	return func(r *Runner) {
		r.sess.scriptName = name
		r.sess.name = name
		r.arg0 = name
	}
}

// Login marks a login shell (shopt login_shell, logout).
func Login(on bool) Option {
	return func(r *Runner) {
		r.sess.login = on
		r.opts.shopt[optLoginShell] = on
	}
}

// SetStdio changes the shell's standard streams.
func (r *Runner) SetStdio(in io.Reader, out, errw io.Writer) {
	Stdio(in, out, errw)(r)
}

// ClearExit takes back an exit the shell was asked for (an interactive
// shell that goes on after `exit` in a startup file).
func (r *Runner) ClearExit() {
	if r.flow == flowExit {
		r.flow = flowNone
	}
}

// SetStatus sets $?.
func (r *Runner) SetStatus(st int) { r.status = st }

// ExpandString expands text as a double-quoted string, as bash expands
// PS1 after its escapes: parameters, command substitutions, arithmetic.
// $? is left as it was.
func (r *Runner) ExpandString(ctx context.Context, text string) (out string, err error) {
	status := r.status
	defer func() { r.status = status }()
	savedCtx := r.ctx
	r.ctx = ctx
	defer func() { r.ctx = savedCtx }()
	err = r.expandGuarded(ctx, r.dir, func() { out = r.expandDoc(text) })
	return out, err
}

// CallFunc runs the function name with args, as a command line would, and
// returns its status; -1 when there is no such function.
func (r *Runner) CallFunc(ctx context.Context, name string, args ...string) int {
	fn := r.funcs.get(name)
	if fn == nil {
		return -1
	}
	savedCtx := r.ctx
	r.ctx = ctx
	defer func() { r.ctx = savedCtx }()
	r.guard(func() { r.callFunc(fn, append([]string{name}, args...)) })
	if r.flow == flowReturn {
		r.flow = flowNone
	}
	return r.status
}

// Opt reports a set -o or shopt option's state; ok is false for a name
// that is neither.
func (r *Runner) Opt(name string) (on, ok bool) {
	if o, ok := lookupSetOpt(name); ok {
		return r.opts.set[o], true
	}
	if o, ok := lookupShopt(name); ok {
		return r.opts.shopt[o], true
	}
	return false, false
}

// SetOpt sets a set -o or shopt option, as set -o and shopt -s do.
func (r *Runner) SetOpt(name string, on bool) error {
	if o, ok := lookupSetOpt(name); ok {
		return r.setOption(o, on)
	}
	if o, ok := lookupShopt(name); ok {
		return r.setShopt(o, on)
	}
	return &varError{msg: name + ": invalid option name"}
}
