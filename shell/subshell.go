package shell

import (
	"context"
	"io"
	"strings"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// Run runs command in a subshell of the session: the session's variables,
// functions, aliases and cwd are visible, and nothing it changes leaks
// back. Stdin is closed. exec, when non-nil, sees each program the command
// really runs, after all expansion, and may refuse it; open sees each file
// it opens for redirection. Run has the shape of [RunFunc]. It must not be
// called while the session runs a command line of its own.
func (s *Shell) Run(ctx context.Context, command string, stdout, stderr io.Writer,
	exec func(next interp.ExecHandlerFunc) interp.ExecHandlerFunc,
	open func(next interp.OpenHandlerFunc) interp.OpenHandlerFunc) (int, error) {
	// The aliases interp cannot hold expand as they do at the prompt.
	f, err := syntax.NewParser().Parse(strings.NewReader(s.expandAliases(command)), "")
	if err != nil {
		io.WriteString(stderr, syntaxError(err, "qsh")+"\n")
		return 2, nil
	}
	sub := s.runner.Subshell()
	if err := interp.StdIO(nil, stdout, stderr)(sub); err != nil {
		return 1, err
	}
	if open != nil {
		interp.OpenHandler(open(interp.DefaultOpenHandler()))(sub)
	}
	if exec != nil {
		ctx = context.WithValue(ctx, guardKey{}, execMiddleware(exec))
	}
	// Not the terminal's foreground: Ctrl-C cancels ctx at once, and the
	// programs are stopped through it.
	ctx = context.WithValue(ctx, fgKey{}, nil)
	ctx = context.WithValue(ctx, runKey{}, true)
	defer s.keep()()
	if names := s.withheld(); len(names) > 0 {
		if contain(sub, stderr, func() { sub.Run(ctx, &syntax.CallExpr{Args: words(withholdMark, names...)}) }) {
			return internalStatus, nil
		}
	}
	if contain(sub, stderr, func() { err = sub.Run(ctx, f) }) {
		return internalStatus, nil
	}
	if ctx.Err() != nil {
		return 130, ctx.Err()
	}
	if _, ok := interp.IsExitStatus(err); err != nil && !ok {
		io.WriteString(stderr, "qsh: "+err.Error()+"\n")
	}
	return status(err), nil
}

// withholdMark is the builtin that unsets, in the assistant's subshell,
// the variables it must not see (see [Withhold]).
const withholdMark = "__qsh_withhold"

// withheld lists the session's variables that [Withhold] names.
func (s *Shell) withheld() []string {
	if s.withhold == nil {
		return nil
	}
	var names []string
	for name, vr := range s.variables().Each {
		if vr.IsSet() && validName(name) && s.withhold(name) {
			names = append(names, name)
		}
	}
	return names
}

// withholdBuiltin is [withholdMark]: unset -v, which the DEBUG trap
// does not see.
func withholdBuiltin(ctx context.Context, hc interp.HandlerContext, names []string) error {
	return hc.Builtin(ctx, append([]string{"unset", "-v"}, names...))
}

// words is args as literal words.
func words(name string, args ...string) []*syntax.Word {
	out := []*syntax.Word{{Parts: []syntax.WordPart{&syntax.Lit{Value: name}}}}
	for _, a := range args {
		out = append(out, &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: a}}})
	}
	return out
}
