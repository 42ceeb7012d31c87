// Package effect says in one line what a command line would change, for
// the confirmation line, before anyone decides: what a deletion removes
// (rm, find -delete, git clean), the files a redirection creates or
// overwrites, what mv and cp replace, and what git push --force, git reset
// --hard, git checkout -- . and git restore lose.
//
// Nothing of the command runs: its words are expanded by the session's
// shell through an [Expander] (a copy of it that runs nothing: a command
// substitution stops the expansion of its command, and that part is left
// out), and globs only read directories. What it reports comes from the
// file system and, for git, from git's own read-only answers (git clean
// --dry-run, rev-list, diff --name-only), all within a time budget.
package effect

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// Budget bounds the time a preview takes: past it, counts stop and say
// "at least", and git is not asked.
const Budget = 40 * time.Millisecond

// maxLine bounds the preview's length, in characters.
const maxLine = 160

// Preview says what command would change if it ran in dir, its words
// expanded by x; "" when it would change nothing it can tell, or the
// command does not parse. A name that is one of the shell's functions
// (x.IsFunc) runs it instead of a program: the preview says so, and
// guesses nothing of what it does. What the line assigns is assigned in
// x: each preview needs a copy of its own, used by one goroutine.
func Preview(ctx context.Context, command, dir string, x Expander) string {
	return preview(ctx, command, dir, x, Budget)
}

func preview(ctx context.Context, command, dir string, x Expander, budget time.Duration) string {
	if x.Fields == nil || x.Literal == nil {
		return "" // no shell to expand the words in
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	p := &previewer{ctx: ctx, dir: dir, x: x}
	for _, st := range f.Stmts {
		p.stmt(st)
	}
	return p.line()
}

// previewer walks a command line in order, as it would run.
type previewer struct {
	ctx   context.Context
	dir   string // where the next command runs: cd moves it
	x     Expander
	parts []string
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

// stmt previews one statement: its command, then its redirections. What
// runs in a subshell (( … ), the parts of a pipeline, cmd &) keeps its
// directory and variables to itself.
func (p *previewer) stmt(st *syntax.Stmt) {
	if st == nil {
		return
	}
	if st.Background {
		p.subshell(func() { p.command(st) })
		return
	}
	p.command(st)
}

func (p *previewer) command(st *syntax.Stmt) {
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		p.call(c)
	case *syntax.DeclClause:
		p.declare(c)
	case *syntax.ArithmCmd:
		p.arithm(c.X)
	case *syntax.LetClause:
		for _, x := range c.Exprs {
			p.arithm(x)
		}
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			p.subshell(func() { p.stmt(c.X) })
			p.subshell(func() { p.stmt(c.Y) })
			break
		}
		p.stmt(c.X)
		p.stmt(c.Y)
	case *syntax.Block:
		p.stmts(c.Stmts)
	case *syntax.Subshell:
		p.subshell(func() { p.stmts(c.Stmts) })
	case *syntax.IfClause:
		for ; c != nil; c = c.Else {
			p.stmts(c.Cond)
			p.stmts(c.Then)
		}
	case *syntax.CaseClause:
		for _, item := range c.Items {
			p.stmts(item.Stmts)
		}
	case *syntax.WhileClause:
		p.stmts(c.Cond)
		p.stmts(c.Do)
	case *syntax.ForClause:
		// The body runs with values the preview does not follow: the
		// loop's variables are unknown in it.
		switch l := c.Loop.(type) {
		case *syntax.WordIter:
			p.forget(l.Name.Value)
		case *syntax.CStyleLoop:
			p.forgetAssigned(l)
		}
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

// subshell previews f in a copy of the shell: cd and assignments stay in
// it.
func (p *previewer) subshell(f func()) {
	dir, x := p.dir, p.x
	if x.Subshell != nil {
		p.x = x.Subshell()
	}
	f()
	p.dir, p.x = dir, x
}

// call previews a simple command: assignments are kept for the words
// after them, cd moves the directory, and the commands that change files
// say what.
func (p *previewer) call(c *syntax.CallExpr) {
	if len(c.Args) == 0 {
		for _, a := range c.Assigns {
			p.assign(a)
		}
		return
	}
	args, ok := p.fields(c.Args)
	if !ok || len(args) == 0 || slices.ContainsFunc(args, unknown) {
		return
	}
	if p.x.IsFunc != nil && p.x.IsFunc(args[0]) {
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
	case "read":
		p.read(args[1:])
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

// cd follows a cd to a directory it can name, and sets PWD and OLDPWD as
// cd does, for the words after it.
func (p *previewer) cd(args []string) {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	to := ""
	switch {
	case len(args) == 0:
		to = p.param("HOME")
	case args[0] == "-":
		to = p.param("OLDPWD")
	default:
		to = args[0]
	}
	if to == "" || unknown(to) {
		return
	}
	from := p.dir
	p.dir = p.abs(to)
	p.set("OLDPWD", from)
	p.set("PWD", p.dir)
}

// read forgets the variables read sets: what it reads is not known.
func (p *previewer) read(args []string) {
	names := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || !strings.HasPrefix(a, "-") || a == "-" {
			if a == "--" {
				i++
			}
			for _, name := range args[i:] {
				p.forget(name)
				names++
			}
			break
		}
		// The options that take a value: in the same word or the next.
		if j := strings.IndexAny(a[1:], "adinNptu"); j >= 0 {
			v := a[j+2:]
			if v == "" && i+1 < len(args) {
				i++
				v = args[i]
			}
			if a[j+1] == 'a' {
				p.forget(v)
				names++
			}
		}
	}
	if names == 0 {
		p.forget("REPLY")
	}
}

// abs is path as the command would find it.
func (p *previewer) abs(path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(p.dir, path)
}
