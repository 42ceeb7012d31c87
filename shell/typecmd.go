package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/shell/marks"
)

// type and command -v/-V, as bash's: what a name runs, in the order the
// shell looks it up (alias, keyword, function, builtin, file in PATH).

// kind is one thing a name may run.
type kind struct {
	what string // alias, keyword, function, builtin or file
	text string // the alias's value, the function's body or the file's path
}

// lookup lists what name may run, in order; all files in PATH if all, else
// the first. noFuncs leaves functions out (type -f).
func (s *Shell) lookup(hc interp.HandlerContext, name string, all, noFuncs bool) []kind {
	var kinds []kind
	if v, ok := s.aliases[name]; ok && s.opt(hc.Env, "expand_aliases") {
		kinds = append(kinds, kind{"alias", v})
	}
	if syntax.IsKeyword(name) {
		kinds = append(kinds, kind{what: "keyword"})
	}
	if !noFuncs && s.isFuncAt(hc, name) {
		kinds = append(kinds, kind{"function", s.funcText(hc, name)})
	}
	if interp.IsBuiltin(name) || ownBuiltins[name] && !strings.HasPrefix(name, marks.Prefix) {
		kinds = append(kinds, kind{what: "builtin"})
	}
	for _, p := range pathFiles(hc, name, all) {
		kinds = append(kinds, kind{"file", p})
	}
	return kinds
}

// pathFiles are the executable files name runs: itself if it has a slash,
// else the first (or all) in PATH, named as PATH's entry names them. As
// in bash, the first of them is a file that cannot be run when no other
// is found (running it then fails with 126).
func pathFiles(hc interp.HandlerContext, name string, all bool) []string {
	if strings.Contains(name, "/") {
		if isExecutable(hc.Dir, name) {
			return []string{name}
		}
		return nil
	}
	var paths []string
	plain := ""
	for dir := range strings.SplitSeq(hc.Env.Get("PATH").String(), ":") {
		p := name
		if dir != "" {
			p = strings.TrimSuffix(dir, "/") + "/" + name
		} else {
			p = "./" + name
		}
		switch exe, regular := fileMode(hc.Dir, p); {
		case exe:
			paths = append(paths, p)
			if !all {
				return paths
			}
		case regular && plain == "":
			plain = p
		}
	}
	if len(paths) == 0 && plain != "" && !all {
		return []string{plain}
	}
	return paths
}

func isExecutable(cwd, p string) bool {
	exe, _ := fileMode(cwd, p)
	return exe
}

// fileMode reports whether p is a regular file, and one that may be run.
func fileMode(cwd, p string) (exe, regular bool) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	fi, err := os.Stat(p)
	regular = err == nil && fi.Mode().IsRegular()
	return regular && fi.Mode()&0o111 != 0, regular
}

// funcText is a function's definition as bash prints it; "" when it
// cannot be read from here (a background statement).
func (s *Shell) funcText(hc interp.HandlerContext, name string) string {
	if s.bgToken(hc) != "" {
		return ""
	}
	body, ok := s.runner.Funcs[name]
	if !ok {
		return ""
	}
	return funcDefinition(name, body)
}

// describe prints what name is, as type does, or command -v if terse.
func describe(b builtinIO, name string, k kind, terse bool) {
	switch {
	case terse && k.what == "alias":
		fmt.Fprintf(b.out, "alias %s=%s\n", name, singleQuoteAlways(k.text))
	case terse && k.what == "file":
		fmt.Fprintln(b.out, k.text)
	case terse:
		fmt.Fprintln(b.out, name)
	case k.what == "alias":
		fmt.Fprintf(b.out, "%s is aliased to `%s'\n", name, k.text)
	case k.what == "keyword":
		fmt.Fprintf(b.out, "%s is a shell keyword\n", name)
	case k.what == "function":
		fmt.Fprintf(b.out, "%s is a function\n", name)
		if k.text != "" {
			fmt.Fprintln(b.out, k.text)
		}
	case k.what == "builtin":
		fmt.Fprintf(b.out, "%s is a shell builtin\n", name)
	default:
		fmt.Fprintf(b.out, "%s is %s\n", name, k.text)
	}
}

// typeBuiltin is `type [-afptP] name…`.
func (s *Shell) typeBuiltin(hc interp.HandlerContext, b builtinIO, args []string) int {
	var all, noFuncs, kindOnly, pathOnly, forcePath bool
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 'a':
				all = true
			case 'f':
				noFuncs = true
			case 't':
				kindOnly = true
			case 'p':
				pathOnly = true
			case 'P':
				forcePath = true
			default:
				b.fail(2, "-%c: invalid option", c)
				fmt.Fprintln(b.err, "type: usage: type [-afptP] name [name ...]")
				return 2
			}
		}
	}
	st := 0
	for _, name := range args {
		if forcePath {
			paths := pathFiles(hc, name, all)
			for _, p := range paths {
				fmt.Fprintln(b.out, p)
			}
			if len(paths) == 0 {
				st = 1
			}
			continue
		}
		kinds := s.lookup(hc, name, all, noFuncs)
		if len(kinds) == 0 {
			if !kindOnly && !pathOnly {
				b.fail(1, "%s: not found", name)
			}
			st = 1
			continue
		}
		if !all {
			kinds = kinds[:1]
		}
		for _, k := range kinds {
			switch {
			case kindOnly:
				fmt.Fprintln(b.out, k.what)
			case pathOnly:
				if k.what == "file" {
					fmt.Fprintln(b.out, k.text)
				}
			default:
				describe(b, name, k, false)
			}
		}
	}
	return st
}

// commandV is `command -v` and `command -V` (args start with the flag).
func (s *Shell) commandV(hc interp.HandlerContext, b builtinIO, args []string) int {
	verbose := false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 'v':
			case 'V':
				verbose = true
			case 'p':
				if !strings.ContainsAny(a, "vV") && len(args) > 0 {
					// only what the call handler found nowhere
					return b.fail(127, "%s: command not found", args[0])
				}
			default:
				b.fail(2, "-%c: invalid option", c)
				fmt.Fprintln(b.err, "command: usage: command [-pVv] command [arg ...]")
				return 2
			}
		}
	}
	st := 0
	found := false
	for _, name := range args {
		kinds := s.lookup(hc, name, false, false)
		if len(kinds) == 0 {
			if verbose {
				b.fail(1, "%s: not found", name)
			}
			continue
		}
		found = true
		describe(b, name, kinds[0], !verbose)
	}
	if !found {
		st = 1
	}
	return st
}

// defaultPath is where `command -p` looks: the PATH bash's getconf gives.
const defaultPath = "/bin:/usr/bin"

// commandCall rewrites `command [-pVv] name [args]` for the call handler:
// -v and -V go to [Shell.commandV], qsh's builtins run as such, -p finds
// the program in the default PATH.
func (s *Shell) commandCall(hc interp.HandlerContext, args []string) ([]string, error) {
	rest := args[1:]
	usePath := false
	for len(rest) > 0 && len(rest[0]) > 1 && rest[0][0] == '-' {
		a := rest[0]
		if a == "--" {
			rest = rest[1:]
			break
		}
		if strings.ContainsAny(a, "vV") {
			return mark(args), nil
		}
		if strings.Trim(a[1:], "p") != "" {
			return mark(args), nil // commandV says what is wrong
		}
		usePath = true
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return []string{"true"}, nil
	}
	name := rest[0]
	switch {
	case ownBuiltins[name] && !strings.HasPrefix(name, marks.Prefix), declBuiltins[name]:
		return mark(rest), nil
	case usePath && !interp.IsBuiltin(name) && !strings.Contains(name, "/"):
		for dir := range strings.SplitSeq(defaultPath, ":") {
			if p := dir + "/" + name; isExecutable(hc.Dir, p) {
				return append([]string{p}, rest[1:]...), nil
			}
		}
		return mark(append([]string{"command", "-p"}, rest...)), nil // not found
	}
	return append([]string{"command"}, rest...), nil
}
