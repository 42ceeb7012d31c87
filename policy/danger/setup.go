package danger

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/internal/lazy"
)

// Shell setup code: eval "$(pyenv init -)", source <(kubectl completion
// bash) run what an installed program prints for the shell — its
// completions, hooks and environment. That is the program's own code, as
// trusted as running the program: dev. A program fetched, a script, an
// interpreter's code or anything from the network is not one of these.

// setupVerbs are the subcommands (or flags) that print shell setup code.
var setupVerbs = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return nameSet("completion completions init hook activate shellenv env shell-init shell.bash shell.zsh " +
		"--completion --completions --alias virtualenv-init")
}}

// shellSetup reports a substitution that is one installed program asked
// for its shell setup code.
func shellSetup(stmts []*syntax.Stmt) bool {
	if len(stmts) != 1 || len(stmts[0].Redirs) > 0 || stmts[0].Background {
		return false
	}
	c, ok := stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) < 2 || len(c.Assigns) > 0 {
		return false
	}
	name := c.Args[0].Lit()
	if name == "" || strings.Contains(name, "/") || fetchers.Get()[name] {
		return false
	}
	if name == "ssh-agent" || name == "gpg-agent" {
		a := c.Args[1].Lit()
		return len(c.Args) == 2 && (a == "-s" || a == "-c" || a == "--daemon")
	}
	if r := lookup(name); r != nil && (r.kind == kindShell || r.kind == kindInterp || r.kind == kindEval ||
		r.kind == kindWrap) {
		return false
	}
	return setupVerbs.Get()[c.Args[1].Lit()] || name == "register-python-argcomplete"
}

// setupOnly reports shell code that is nothing but such setup code.
func setupOnly(src string) bool {
	s := strings.TrimSpace(src)
	return s != "" && strings.Trim(s, holeSetup+" \t\n") == ""
}
