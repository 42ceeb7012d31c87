package tools

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/qsh-shell/qsh/policy/danger"
)

// The kinds of call a rule covers: an "always" covers only its own kind.
const (
	kindRun   = "run"   // execute_command
	kindRead  = "read"  // the filesystem tool's reads
	kindWrite = "write" // the filesystem tool's writes and edits
	kindCall  = "call"  // a tool added to the registry (MCP)
)

// Rule is what an `a` or `A` answer allows: later calls of one kind that
// it covers, no worse than Class, go ahead without asking. It is data, not
// a closure, so that `? /permissions` can show it and `A` can save it.
// Exactly one of Command, Exact, Under and Tool is set.
type Rule struct {
	Kind string
	// Command is the command and subcommand words a run starts with
	// ("go vet"), as [danger.Scope] makes them: never a whole interpreter,
	// never bare git.
	Command string
	// Exact is the one call the rule covers: a run's command text, or a
	// call's id (see [ask.key]).
	Exact string
	// Under is a directory the path of a read or write lies in.
	Under string
	// Tool is the name of an added tool, any of whose calls it covers.
	Tool  string
	Class danger.Class

	// Saved rules (`A`) apply in one project: a git root, else a
	// directory. Project is empty for the session's.
	Project string
	Made    time.Time
	From    string // the question being answered when it was made
}

// ruleFor is the narrowest sensible rule for approving command, as for
// execute_command; nil when none may be made (blocked).
func ruleFor(command string, v danger.Verdict) *Rule {
	scope, ok := danger.Scope(command, v)
	if !ok {
		return nil
	}
	r := &Rule{Kind: kindRun, Class: scope.Class, Exact: scope.Exact}
	if scope.Exact == "" {
		r.Command = strings.Join(scope.Words, " ")
	}
	return r
}

// covers reports whether the rule allows q.
func (r Rule) covers(q ask) bool {
	if r.Kind != q.kind || q.verdict.Class > r.Class || q.verdict.Class >= danger.Blocked {
		return false
	}
	switch {
	case r.Exact != "":
		return q.key() == r.Exact
	case r.Command != "":
		return danger.Rule{Words: strings.Fields(r.Command), Class: r.Class}.Match(q.subject)
	case r.Under != "":
		return q.path != "" && within(q.path, r.Under)
	case r.Tool != "":
		return q.tool == r.Tool
	}
	return false
}

// savable reports whether `A` may keep the rule: any rule for a command,
// and the rules of other kinds that cover more than one call (an exact
// write of one content is of no use later).
func (r Rule) savable() bool {
	return r.Kind == kindRun || r.Exact == ""
}

// within reports whether path is dir or lies in it.
func within(path, dir string) bool {
	if dir == "/" {
		return strings.HasPrefix(path, "/")
	}
	return path == dir || strings.HasPrefix(path, dir+"/")
}

// String shows the rule in `? /permissions` and at the prompt.
func (r Rule) String() string {
	var s string
	switch {
	case r.Exact != "" && r.Kind == kindRun:
		s = "run exactly `" + r.Exact + "`"
	case r.Exact != "":
		s = r.Kind + " exactly " + r.Exact
	case r.Command != "":
		s = "run `" + r.Command + " …`"
	case r.Under != "" && r.Kind == kindWrite:
		s = "write and edit files in " + r.Under
	case r.Under != "":
		s = "list and look at files in " + r.Under
	case r.Tool != "":
		s = "call " + r.Tool
	}
	if r.Class > danger.Safe {
		s += " (up to " + r.Class.String() + ")"
	}
	return s
}

// projectOf is the project a directory belongs to, where an `A` rule
// applies: the root of the git work tree it is in, else the directory
// itself. Only the file system is read: no git runs.
func projectOf(dir string) string {
	if dir == "" {
		return ""
	}
	dir = realPath(dir)
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return dir
		}
		d = up
	}
}
