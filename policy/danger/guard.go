package danger

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// ExecCheck judges a program a shell is about to start: its argv after
// all expansion, the directory it runs in, its environment (getenv; nil
// reads none) and whether its standard output is a pipe. A non-nil error
// says why it must not run.
type ExecCheck func(args []string, dir string, getenv func(string) string, piped bool) error

// OpenCheck judges a file a shell opens for a redirection: path as the
// shell hands it (absolute, or relative to dir), flag as [os.OpenFile]'s.
// Reads pass; a non-nil error says why the write must not happen.
type OpenCheck func(path, dir string, flag int) error

// Guard returns the run-time checks that judge what really runs against
// what the user approved: exec classifies each expanded argv, open each
// file a redirection opens for writing. Anything blocked, or worse than
// approved, is refused with an error that says why. The checks are plain
// functions so that this package stays free of the shell's evaluator:
// the caller wraps them around its runner and decides what a refusal
// stops.
func Guard(ws Workspace, approved Class) (exec ExecCheck, open OpenCheck) {
	exec = func(args []string, dir string, getenv func(string) string, piped bool) error {
		cmd := quoteArgs(args)
		v := classifyAt(cmd, ws, resolveDir(dir, ws), piped, getenv)
		if v.Class == Blocked || v.Class > approved {
			return refusal(cmd, v, approved)
		}
		return nil
	}
	open = func(path, dir string, flag int) error {
		if flag&(os.O_WRONLY|os.O_RDWR|os.O_APPEND|os.O_CREATE|os.O_TRUNC) == 0 {
			return nil
		}
		p := path
		if !filepath.IsAbs(p) {
			// Not filepath.Join, which cleans: see physical.
			p = strings.TrimSuffix(resolveDir(dir, ws), "/") + "/" + p
		}
		w := newWalker(ws, ws.Dir)
		c, why := w.writeClass(lexical(p, ws), "`> "+path+"`")
		// A link in the workspace may point anywhere.
		if r := physical(p); r != "" && r != filepath.Clean(p) {
			if c2, why2 := w.writeClass(r, "`> "+path+"` (a link to `"+r+"`)"); c2 > c {
				c, why = c2, why2
			}
		}
		if c == Blocked || c > approved {
			return refusal("> "+path, Verdict{Class: c, Reasons: []string{why}}, approved)
		}
		return nil
	}
	return exec, open
}

// resolveDir is the runner's cwd as the workspace spells it: the
// workspace may be given with symlinks resolved while the shell's cwd
// keeps them.
func resolveDir(dir string, ws Workspace) string {
	if ws.Dir == "" || under(dir, ws.Dir) {
		return dir
	}
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		return r
	}
	return dir
}

// lexical is the absolute path p as its text names it, cleaned, its
// directory spelt as the workspace spells it (see resolveDir): a shell
// hands the file of `> out.txt` over joined to its cwd, which may keep
// the links the workspace's path has resolved.
func lexical(p string, ws Workspace) string {
	p = filepath.Clean(p)
	parent, base := filepath.Split(p)
	return filepath.Join(resolveDir(filepath.Clean(parent), ws), base)
}

// physical is where the kernel finds p, links followed and each ".."
// taken after the links before it; a file not made yet is where its
// directory leads. "" when the directory does not exist either.
func physical(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return ""
	}
	parent, base := p[:i], p[i+1:]
	if parent == "" {
		parent = "/"
	}
	r, err := filepath.EvalSymlinks(parent)
	if err != nil || base == ".." || base == "." {
		return ""
	}
	return filepath.Join(r, base)
}

// classifyAt classifies a command as it runs from dir, at run time, in
// the environment getenv reads (where $KUBECONFIG and the like point).
func classifyAt(cmd string, ws Workspace, dir string, piped bool, getenv func(string) string) Verdict {
	w := newWalker(ws, dir)
	w.shared.runtime = true
	w.shared.piped = piped
	w.shared.getenv = getenv
	w.script(cmd)
	return w.res.verdict()
}

func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		s, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			s = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = s
	}
	return strings.Join(q, " ")
}

func refusal(cmd string, v Verdict, approved Class) error {
	why := strings.Join(v.Reasons, "; ")
	if v.Class == Blocked {
		return fmt.Errorf("qsh refused to run `%s`: blocked: %s", cmd, why)
	}
	return fmt.Errorf("qsh refused to run `%s`: it is %s (%s), worse than the %s the user approved", cmd, v.Class, why, approved)
}
