// Package effect says in one line what a command line would change, for
// the confirmation line, before anyone decides: what a deletion removes
// (rm, find -delete, git clean), the files a redirection creates or
// overwrites, what mv and cp replace, and what git push --force, git reset
// --hard, git checkout -- . and git restore lose.
//
// Nothing of the command runs: its words are expanded with the session's
// variables, but a command substitution stops the expansion of its
// command (that part is left out), and globs only read directories. What
// it reports comes from the file system and, for git, from git's own
// read-only answers (git clean --dry-run, rev-list, diff --name-only),
// all within a time budget.
package effect

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Budget bounds the time a preview takes: past it, counts stop and say
// "at least", and git is not asked.
const Budget = 40 * time.Millisecond

// maxLine bounds the preview's length, in characters.
const maxLine = 160

// Preview says what command would change if it ran in dir with the
// session's variables vars (nil: none); "" when it would change nothing
// it can tell, or the command does not parse. isFunc reports whether a
// name is one of the session's functions (nil: none), which a command of
// that name runs instead of a program: the preview says so, and guesses
// nothing of what it does.
func Preview(ctx context.Context, command, dir string, vars expand.Environ, isFunc func(name string) bool) string {
	return preview(ctx, command, dir, vars, isFunc, Budget)
}

func preview(ctx context.Context, command, dir string, vars expand.Environ, isFunc func(string) bool, budget time.Duration) string {
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	if isFunc == nil {
		isFunc = func(string) bool { return false }
	}
	p := &previewer{ctx: ctx, dir: dir, vars: &overlay{base: vars, set: map[string]expand.Variable{}}, isFunc: isFunc}
	for _, st := range f.Stmts {
		p.stmt(st)
	}
	return p.line()
}

// previewer walks a command line in order, as it would run.
type previewer struct {
	ctx   context.Context
	dir   string // where the next command runs: cd moves it
	vars  *overlay
	parts []string
	// isFunc reports whether a command name is the session's function.
	isFunc func(name string) bool
}

func (p *previewer) add(s string) {
	if s != "" && !slices.Contains(p.parts, s) {
		p.parts = append(p.parts, s)
	}
}

// line joins what was found, cut to one line.
func (p *previewer) line() string {
	s := strings.Join(p.parts, "; ")
	if r := []rune(s); len(r) > maxLine {
		s = string(r[:maxLine-1]) + "…"
	}
	return s
}

// config is how words expand: the variables, the directory for globs,
// and no command substitution.
func (p *previewer) config() *expand.Config {
	return &expand.Config{
		Env: p.vars.with("PWD", p.dir),
		CmdSubst: func(io.Writer, *syntax.CmdSubst) error {
			return notRun{}
		},
		ProcSubst: func(*syntax.ProcSubst) (string, error) { return "", notRun{} },
		// A glob over a big tree stops at the budget, its command left out.
		ReadDir2: func(dir string) ([]fs.DirEntry, error) {
			if err := p.ctx.Err(); err != nil {
				return nil, err
			}
			return os.ReadDir(dir)
		},
	}
}

// maxFields bounds the words a command expands to: brace expansion can
// make billions ({1..1000000000}, {a,b}{a,b}…), which are not made.
const maxFields = 4096

// fields expands words as the shell would, or fails: a substitution, an
// error, more than maxFields words, or the budget spent.
func (p *previewer) fields(words []*syntax.Word) ([]string, bool) {
	var out []string
	for f, err := range expand.FieldsSeq(p.config(), words...) {
		if err != nil || len(out) >= maxFields || len(out)%256 == 255 && p.ctx.Err() != nil {
			return nil, false
		}
		out = append(out, f)
	}
	return out, true
}

// notRun is the error of a substitution: a type, not a variable, so
// that linking this package into qsh costs its start-up no initialiser.
type notRun struct{}

func (notRun) Error() string { return "not run for a preview" }

// unknown reports whether s holds a value the preview cannot know.
func unknown(s string) bool { return strings.Contains(s, unknownValue) }

// stmt previews one statement: its command, then its redirections.
func (p *previewer) stmt(st *syntax.Stmt) {
	if st == nil {
		return
	}
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		p.call(c)
	case *syntax.BinaryCmd:
		p.stmt(c.X)
		p.stmt(c.Y)
	case *syntax.Block:
		p.stmts(c.Stmts)
	case *syntax.Subshell:
		dir := p.dir
		p.stmts(c.Stmts)
		p.dir = dir
	case *syntax.IfClause:
		for ; c != nil; c = c.Else {
			p.stmts(c.Cond)
			p.stmts(c.Then)
		}
	case *syntax.WhileClause:
		p.stmts(c.Cond)
		p.stmts(c.Do)
	case *syntax.ForClause:
		p.stmts(c.Do)
	}
	for _, r := range st.Redirs {
		p.redirect(r)
	}
}

func (p *previewer) stmts(list []*syntax.Stmt) {
	for _, st := range list {
		p.stmt(st)
	}
}

// call previews a simple command: assignments are kept for the words
// after them, cd moves the directory, and the commands that change files
// say what.
func (p *previewer) call(c *syntax.CallExpr) {
	cfg := p.config()
	if len(c.Args) == 0 {
		for _, a := range c.Assigns {
			if a.Name == nil || a.Array != nil || a.Index != nil {
				continue
			}
			v := ""
			if a.Value != nil {
				s, err := expand.Literal(cfg, a.Value)
				if err != nil {
					p.vars.unknown(a.Name.Value)
					continue
				}
				v = s
			}
			p.vars.set[a.Name.Value] = expand.Variable{Set: true, Kind: expand.String, Str: v}
		}
		return
	}
	args, ok := p.fields(c.Args)
	if !ok || len(args) == 0 || slices.ContainsFunc(args, unknown) {
		return
	}
	if p.isFunc(args[0]) {
		// Even one named rm: what it does is the user's.
		p.add("runs your function " + args[0])
		return
	}
	args = unwrap(args)
	if len(args) == 0 {
		return
	}
	switch filepath.Base(args[0]) {
	case "cd":
		p.cd(args[1:])
	case "rm":
		p.add(p.rm(args[1:]))
	case "find":
		p.add(p.find(args[1:]))
	case "mv", "cp":
		p.add(p.replaces(filepath.Base(args[0]), args[1:]))
	case "tee":
		p.add(p.tee(args[1:]))
	case "git":
		p.add(p.git(args[1:]))
	}
}

// unwrap drops the commands that run the rest as it is (sudo rm …,
// command rm …, env X=1 rm …).
func unwrap(args []string) []string {
	for len(args) > 0 {
		switch filepath.Base(args[0]) {
		case "sudo", "doas", "command", "exec", "nohup", "time":
			args = args[1:]
			for len(args) > 0 && strings.HasPrefix(args[0], "-") {
				args = args[1:] // their own options
			}
		case "env":
			args = args[1:]
			for len(args) > 0 && (strings.Contains(args[0], "=") || strings.HasPrefix(args[0], "-")) {
				args = args[1:]
			}
		default:
			return args
		}
	}
	return args
}

// cd follows a cd to a directory it can name.
func (p *previewer) cd(args []string) {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	to := ""
	switch {
	case len(args) == 0:
		to = p.vars.Get("HOME").String()
	case args[0] == "-":
		to = p.vars.Get("OLDPWD").String()
	default:
		to = args[0]
	}
	if to != "" {
		p.dir = p.abs(to)
	}
}

// abs is path as the command would find it.
func (p *previewer) abs(path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(p.dir, path)
}

// overlay is the session's variables under what the line itself sets.
type overlay struct {
	base expand.Environ
	set  map[string]expand.Variable
}

func (o *overlay) Get(name string) expand.Variable {
	if vr, ok := o.set[name]; ok {
		return vr
	}
	if o.base == nil {
		return expand.Variable{}
	}
	return o.base.Get(name)
}

func (o *overlay) Each(f func(name string, vr expand.Variable) bool) {
	if o.base != nil {
		stop := false
		o.base.Each(func(name string, vr expand.Variable) bool {
			if _, ok := o.set[name]; ok {
				return true
			}
			stop = !f(name, vr)
			return !stop
		})
		if stop {
			return
		}
	}
	for name, vr := range o.set {
		if !f(name, vr) {
			return
		}
	}
}

func (o *overlay) Set(name string, vr expand.Variable) error {
	o.set[name] = vr
	return nil
}

// unknownValue stands for a value the preview cannot know (set by a
// command substitution): a command whose words hold it is left out.
const unknownValue = "\x00?"

func (o *overlay) unknown(name string) {
	o.set[name] = expand.Variable{Set: true, Kind: expand.String, Str: unknownValue}
}

// with is the overlay with one more variable, for one expansion.
func (o *overlay) with(name, value string) expand.Environ {
	return &withVar{o, name, expand.Variable{Set: true, Kind: expand.String, Str: value}}
}

type withVar struct {
	*overlay
	name string
	vr   expand.Variable
}

func (w *withVar) Get(name string) expand.Variable {
	if name == w.name {
		return w.vr
	}
	return w.overlay.Get(name)
}
