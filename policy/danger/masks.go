package danger

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/internal/lazy"
)

// Naming is not showing: a command whose output keeps none of the values
// it reads — counts, hashes, the keys of KEY=VALUE lines, the names a jq
// filter picks — discloses no secret, and neither does what feeds it in
// a pipeline. Such commands mask what they read (walker.masked): a secret
// read, expanded or printed upstream of them is no disclosure, while
// everything else a masked command does (writes, network, code it runs)
// is judged as ever.

// discloses records that the command shows a secret, unless its output
// is masked.
func (w *walker) discloses(reason string) {
	if !w.masked {
		w.res.add(Dangerous, reason)
	}
}

// maskers are the commands that may mask their input, by their arguments.
var maskers = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return nameSet("wc sha1sum sha224sum sha256sum sha384sum sha512sum md5sum b2sum cksum sum shasum " +
		"grep egrep fgrep cut awk gawk mawk nawk sed jq")
}}

// How a command masks what it reads.
const (
	maskNone = iota
	maskAll  // counts, hashes, names: nothing of any value is left
	maskKeys // KEY=VALUE lines cut to their keys: a line without = is left whole
)

// masks says whether a command with these arguments prints none of the
// values it reads.
func masks(name string, args []string) int {
	switch name {
	case "wc", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "md5sum", "b2sum", "cksum", "sum",
		"shasum":
		return maskAll
	case "grep", "egrep", "fgrep":
		for _, a := range args {
			if a == "--" {
				break
			}
			if matchFlag("-c --count -q --quiet --silent -l --files-with-matches -L --files-without-match", a) {
				return maskAll
			}
		}
	case "cut":
		if cutKeys(args) {
			return maskKeys
		}
	case "awk", "gawk", "mawk", "nawk":
		if awkCount(args) {
			return maskAll
		}
		if awkKeys(args) {
			return maskKeys
		}
	case "sed":
		if sedKeys(args) {
			return maskKeys
		}
	case "jq":
		for _, a := range args {
			if !strings.HasPrefix(a, "-") {
				if jqNames(a) {
					return maskAll
				}
				break
			}
		}
	}
	return maskNone
}

// envLines reports a file that holds KEY=VALUE lines: .env and its kin.
// Cut to keys, only such a file shows no values; a key file has no = in
// its lines, which cut and sed leave whole.
func envLines(p string) bool {
	base := strings.ToLower(path.Base(p))
	return base == ".env" || strings.HasPrefix(base, ".env.") || strings.HasSuffix(base, ".env") ||
		base == ".dev.vars" || base == ".envrc" || base == ".flaskenv" ||
		// INI and properties files whose every secret is a KEY = VALUE line.
		strings.HasSuffix(p, "/.aws/credentials") || strings.HasSuffix(p, "/.aws/config") || base == ".npmrc" ||
		base == ".pypirc" || base == "gradle.properties"
}

// operandsEnvLines reports a cut, awk or sed whose file operands are all
// .env files (and there is one); the program is no file.
func operandsEnvLines(w *walker, r *rule, args []arg) bool {
	name := args[0].s
	program := name != "cut"
	files := 0
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case a == "-d" || a == "-f" || a == "-F" || a == "-v" || a == "--delimiter" || a == "--fields":
			i++
		case a == "-e" || a == "--expression":
			program = false
			i++
		case strings.HasPrefix(a, "-"):
		case program:
			program = false
		default:
			p, ok := w.abs(a)
			if !ok || !envLines(p) {
				return false
			}
			files++
		}
	}
	return files > 0
}

// printsEnvLines reports a pipeline element whose output is KEY=VALUE
// lines: the environment, or cat of .env files.
func printsEnvLines(s *syntax.Stmt) bool {
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return false
	}
	switch c.Args[0].Lit() {
	case "env", "printenv":
		return len(c.Args) == 1
	case "export", "declare":
		return len(c.Args) == 2 && (c.Args[1].Lit() == "-p" || c.Args[1].Lit() == "-x" || c.Args[1].Lit() == "-px")
	case "cat":
		for _, a := range c.Args[1:] {
			if !envLines(a.Lit()) {
				return false
			}
		}
		return len(c.Args) > 1
	}
	return false
}

// cutKeys: cut -d= -f1, the keys of KEY=VALUE lines.
func cutKeys(args []string) bool {
	delim, fields := "", ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "-d" || a == "-f" || a == "--delimiter" || a == "--fields") && i+1 < len(args):
			if a == "-d" || a == "--delimiter" {
				delim = args[i+1]
			} else {
				fields = args[i+1]
			}
			i++
		case strings.HasPrefix(a, "--delimiter="):
			delim = strings.TrimPrefix(a, "--delimiter=")
		case strings.HasPrefix(a, "--fields="):
			fields = strings.TrimPrefix(a, "--fields=")
		case strings.HasPrefix(a, "-d"):
			delim = a[2:]
		case strings.HasPrefix(a, "-f"):
			fields = a[2:]
		case a == "--complement":
			return false
		}
	}
	return delim == "=" && fields == "1"
}

// awkKeys: awk -F= '{print $1}'.
func awkKeys(args []string) bool {
	fs, prog := "", ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-F" && i+1 < len(args):
			fs = args[i+1]
			i++
		case strings.HasPrefix(a, "-F"):
			fs = a[2:]
		case a == "-v" && i+1 < len(args):
			if v, ok := strings.CutPrefix(args[i+1], "FS="); ok {
				fs = v
			}
			i++
		case strings.HasPrefix(a, "-"):
			return false // -f FILE and the like: another program
		case prog == "":
			prog = a
		}
	}
	return fs == "=" && printFirst.Get().MatchString(prog)
}

// awkCount: awk 'END{print NR}', awk '{n++} END{print n}': a count of
// lines.
func awkCount(args []string) bool {
	prog := ""
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, "-"):
			return false
		case prog == "":
			prog = a
		}
	}
	return awkCountProg.Get().MatchString(prog)
}

var awkCountProg = lazy.Regexp{Expr: `^\s*(\{\s*[A-Za-z_]\w*\s*\+\+\s*;?\s*\}\s*)?END\s*\{\s*print\s*\(?\s*(NR|FNR|[A-Za-z_]\w*)\s*\)?\s*;?\s*\}\s*$`}

var printFirst = lazy.Regexp{Expr: `^\s*(/[^/]*/|\$1\s*~\s*/[^/]*/|NF|\$1\s*!=\s*"")?\s*` +
	`\{\s*print\s*\(?\s*\$1\s*\)?\s*;?\s*\}\s*$`}

// sedKeys: sed 's/=.*//' or sed 's/=.*/=***/': every value cut off or
// replaced by text that holds none of it.
func sedKeys(args []string) bool {
	script, quiet := "", false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "-e" || a == "--expression") && i+1 < len(args):
			if script != "" {
				return false
			}
			script = args[i+1]
			i++
		case a == "-E" || a == "-r" || a == "--regexp-extended" || a == "-u" || a == "-s":
		case a == "-n" || a == "--quiet" || a == "--silent":
			quiet = true // only what s///p prints: the keys
		case strings.HasPrefix(a, "-"):
			return false // -i writes, -f reads a script
		case script == "":
			script = a
		}
	}
	if len(script) < 2 || script[0] != 's' {
		return false
	}
	parts := strings.Split(script[2:], script[1:2])
	if len(parts) != 3 {
		return false
	}
	re, repl, flags := parts[0], parts[1], parts[2]
	if quiet && !strings.Contains(flags, "p") {
		return false
	}
	return (re == "=.*" || re == "=.*$") && !strings.ContainsAny(repl, `&\`) && strings.Trim(flags, "gp") == ""
}

// jqNames: a jq filter whose last stage keeps only keys, names or
// lengths: keys, length, .items[].metadata.name.
func jqNames(filter string) bool {
	stages := strings.Split(filter, "|")
	last := strings.TrimSpace(stages[len(stages)-1])
	switch last {
	case "keys", "keys[]", "keys_unsorted", "keys_unsorted[]", "length", "map(keys)", "map(.key)", "[.[] | keys]":
		return true
	}
	return jqNamePath.Get().MatchString(last)
}

var jqNamePath = lazy.Regexp{Expr: `^(\.[A-Za-z_][A-Za-z0-9_]*|\[\]|\.\[\])*\.(name|Name|key|metadata\.name)(\[\])?$`}

// countsOnly reports a command that prints only counts, hashes or names
// of what it reads, whatever that is (wc, sha256sum, grep -c).
func (w *walker) countsOnly(s *syntax.Stmt) bool {
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 || !maskers.Get()[c.Args[0].Lit()] {
		return false
	}
	return masks(c.Args[0].Lit(), w.litArgs(c)) == maskAll
}

// keysLoop reports `while read -r line; do echo "${line%%=*}"; done <
// .env`: a loop over a file of KEY=VALUE lines that prints only what
// stands before each =, the keys.
func (w *walker) keysLoop(s *syntax.Stmt) bool {
	loop, ok := s.Cmd.(*syntax.WhileClause)
	if !ok || loop.Until || len(loop.Cond) != 1 || len(loop.Do) == 0 {
		return false
	}
	for _, r := range s.Redirs {
		if r.Op != syntax.RdrIn || r.Word == nil {
			return false
		}
		p, ok := w.abs(literalText(r.Word))
		if !ok || !envLines(p) {
			return false
		}
	}
	read, ok := loop.Cond[0].Cmd.(*syntax.CallExpr)
	if !ok || len(read.Args) < 2 || read.Args[0].Lit() != "read" || len(loop.Cond[0].Redirs) > 0 {
		return false
	}
	vars := map[string]bool{}
	for _, a := range read.Args[1:] {
		v := a.Lit()
		if v == "-r" {
			continue
		}
		if v == "" || strings.HasPrefix(v, "-") {
			return false
		}
		vars[v] = true
	}
	for _, st := range loop.Do {
		c, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(st.Redirs) > 0 || len(c.Args) == 0 || c.Args[0].Lit() != "echo" && c.Args[0].Lit() != "printf" {
			return false
		}
		for _, word := range c.Args[1:] {
			if !keysWord(word, vars) {
				return false
			}
		}
	}
	return true
}

// keysWord reports a word made of literal text and ${VAR%%=*} of the
// loop's variables.
func keysWord(word *syntax.Word, vars map[string]bool) bool {
	parts := word.Parts
	if len(parts) == 1 {
		if q, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = q.Parts
		}
	}
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.ParamExp:
			if p.Param == nil || !vars[p.Param.Value] || p.Excl || p.Exp == nil || p.Exp.Word == nil ||
				p.Exp.Op != syntax.RemLargeSuffix || literalText(p.Exp.Word) != "=*" {
				// %=* keeps up to the last =, part of a value with = in it.
				return false
			}
		default:
			return false
		}
	}
	return true
}

// litArgs are a command's arguments expanded, or nil when one holds a
// substitution (computed, and judged, elsewhere).
func (w *walker) litArgs(c *syntax.CallExpr) []string {
	q := w.clone()
	q.res = &result{}
	var args []string
	for _, word := range c.Args[1:] {
		if hasSubst(word) {
			return nil
		}
		for _, f := range q.fields(word) {
			args = append(args, f.s)
		}
	}
	return args
}

// maskedFrom is the index of the first element of a pipeline that masks
// what it reads (and so what every element before it prints), or -1.
func (w *walker) maskedFrom(elems []*syntax.Stmt) int {
	for i, s := range elems[1:] {
		c, ok := s.Cmd.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 || !maskers.Get()[c.Args[0].Lit()] {
			continue
		}
		args := w.litArgs(c)
		switch masks(c.Args[0].Lit(), args) {
		case maskAll:
			return i + 1
		case maskKeys:
			// The lines come from the environment or .env files, through
			// filters that keep each line whole (sort, grep, head).
			if printsEnvLines(elems[0]) && !slices.ContainsFunc(elems[1:i+1], func(s *syntax.Stmt) bool {
				return !printsEnvLines(s) && !keepsLines(s)
			}) {
				return i + 1
			}
		}
	}
	return -1
}

// keepsLines reports a filter that passes some of its input's lines
// through whole, changing none: sort, uniq, head, tail, tac, grep
// without -o.
func keepsLines(s *syntax.Stmt) bool {
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 || len(s.Redirs) > 0 {
		return false
	}
	switch c.Args[0].Lit() {
	case "sort", "uniq", "head", "tail", "tac", "cat":
		for _, a := range c.Args[1:] {
			if l := a.Lit(); l == "" || !strings.HasPrefix(l, "-") && !isNumber(l) {
				return false // a file operand, or a word not known
			}
		}
		return true
	case "grep", "egrep", "fgrep":
		pattern := false
		for _, a := range c.Args[1:] {
			l := a.Lit()
			switch {
			case l == "" && !pattern:
				pattern = true // a quoted pattern
			case l == "":
				return false
			case strings.HasPrefix(l, "-"):
				if matchFlag("-o --only-matching -r -R --recursive -f --file", l) {
					return false
				}
			case pattern:
				return false // a file
			default:
				pattern = true
			}
		}
		return true
	}
	return false
}
