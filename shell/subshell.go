package shell

import (
	"context"
	"io"

	"github.com/qsh-shell/qsh/shell/eval"
)

// Run runs command in a subshell of the session: the session's variables,
// functions, aliases and cwd are visible, and nothing it changes leaks
// back. Stdin is closed. exec, when non-nil, sees each program the command
// really runs, after all expansion, and may refuse it; open sees each file
// it opens for redirection. Run has the shape of [RunFunc]. It must not be
// called while the session runs a command line of its own.
func (s *Shell) Run(ctx context.Context, command string, stdout, stderr io.Writer,
	exec func(next eval.ExecHandler) eval.ExecHandler,
	open func(next eval.OpenHandler) eval.OpenHandler) (int, error) {
	sub := s.r.Fork()
	defer sub.Close()
	sub.SetStdio(nil, stdout, stderr)
	if open != nil {
		sub.WrapOpen(open)
	}
	if exec != nil {
		sub.WrapExec(exec)
		sub.ExecOutside()
	}
	ctx = context.WithValue(ctx, runKey{}, true)
	defer s.keep()()
	for _, name := range s.withheld() {
		sub.Unset(name)
	}
	st := sub.RunString(ctx, command, "qsh")
	if ctx.Err() != nil {
		return 130, ctx.Err()
	}
	return st, nil
}

// withheld lists the session's variables that [Withhold] names.
func (s *Shell) withheld() []string {
	if s.withhold == nil {
		return nil
	}
	var names []string
	for _, name := range s.r.VarNames() {
		if v := s.r.Var(name); v != nil && v.IsSet() && s.withhold(name) {
			names = append(names, name)
		}
	}
	return names
}
