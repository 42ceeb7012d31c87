package danger

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/internal/lazy"
	"github.com/qsh-shell/qsh/policy/secret"
)

// Holes stand for parts of a word that cannot be known before running.
// They are private-use runes, so no real command text contains them.
const (
	hole      = "\ue000" // any value at all
	holeDL    = '\ue001' // content fetched from the network
	holeEntry = "\ue002" // one entry name found by a command (find's {})
	holeTree  = "\ue003" // any path in a tree a command walks (find | xargs)
	// holeSetup is the shell setup code an installed tool prints for
	// eval or source (kubectl completion bash, pyenv init -).
	holeSetup = "\ue004"
)

func hasHole(s string) bool {
	return strings.ContainsAny(s, "\ue000\ue001\ue002\ue003\ue004")
}

// arg is one field of an expanded command line, with the source text it
// came from for the reasons the user reads.
type arg struct {
	s    string // the value, with holes for what is not known
	text string // how it was written
	// quoted: the glob characters of s were quoted, so they stand for
	// themselves ('v*' names a file called v*, it matches nothing).
	quoted bool
}

// substText is what a command substitution gives: the cwd for $(pwd),
// the output of commands that only compute from what they are given,
// what a search may print, or a hole (holeDL for content fetched from
// the network). Trailing newlines go, as in bash.
func (w *walker) substText(cs *syntax.CmdSubst) string {
	var out string
	switch {
	case w.cwd != "" && isPwd(cs.Stmts):
		out = w.cwd
	case w.cdPwd(cs.Stmts) != "":
		out = w.cdPwd(cs.Stmts)
	case passwdHome(cs.Stmts):
		// getent passwd "$USER" | cut -d: -f6: a user's home directory.
		out = "/home/" + hole
	case shellSetup(cs.Stmts):
		out = holeSetup
	default:
		if s, ok := w.substOutput(cs.Stmts); ok {
			out = s
		} else if p := w.searchOutput(cs.Stmts); p != "" {
			out = p
		} else if w.shared.fetching(cs, cs.Stmts) {
			out = string(holeDL)
		} else {
			out = hole
		}
	}
	if strings.IndexByte(out, 0) >= 0 {
		out = strings.ReplaceAll(out, "\x00", "")
	}
	return strings.TrimRight(out, "\n")
}

// procSubstPath is the file a process substitution gives: what <(…)
// prints, when known, is recorded as that file's content.
func (w *walker) procSubstPath(ps *syntax.ProcSubst) string {
	if ps.Op == syntax.CmdIn && shellSetup(ps.Stmts) {
		return "/dev/fd/" + holeSetup
	}
	if ps.Op == syntax.CmdIn && w.shared.fetching(ps, ps.Stmts) {
		return "/dev/fd/" + string(holeDL)
	}
	// <(echo …): what it gives is known, for source or bash to run.
	if out, ok := w.substOutput(ps.Stmts); ok && ps.Op == syntax.CmdIn {
		p := "/dev/fd/" + strconv.Itoa(62-len(w.shared.scripts))
		w.shared.wrote(p, out, true, false)
		return p
	}
	return "/dev/fd/63"
}

// fields expands a word to the fields the shell would pass, after first
// judging every command substitution inside it.
func (w *walker) fields(word *syntax.Word) []arg {
	// Most words are plain: no expansion to do.
	if len(word.Parts) == 1 {
		switch p := word.Parts[0].(type) {
		case *syntax.Lit:
			if !strings.ContainsAny(p.Value, "\\~{") {
				return []arg{{s: p.Value, text: p.Value}}
			}
		case *syntax.SglQuoted:
			if !p.Dollar {
				return []arg{{s: p.Value, text: w.text(word), quoted: true}}
			}
		}
	}
	w.substs(word)
	text := w.text(word)
	quoted := !globbing(word)
	fields, ok := w.expandFields(word)
	if !ok {
		return []arg{{s: hole, text: text}}
	}
	out := make([]arg, len(fields))
	for i, s := range fields {
		if (s == "~" || strings.HasPrefix(s, "~/")) && strings.Contains(text, "${") {
			// rm${IFS}-rf${IFS}~: bash leaves a tilde that splitting
			// brings to the front of a field as it is, but only one
			// hiding the command's shape writes it so; it is taken for
			// what it looks like.
			s = w.ws.Home + s[1:]
		}
		out[i] = arg{s: s, text: text, quoted: quoted}
	}
	return out
}

// globbing reports whether bash may expand a word as a pattern: an
// unquoted glob character, an extended glob, or an unquoted expansion
// whose value may hold one.
func globbing(word *syntax.Word) bool {
	for _, p := range word.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			for i := 0; i < len(v); i++ {
				switch v[i] {
				case '\\':
					i++ // \* is a star
				case '*', '?', '[':
					return true
				}
			}
		case *syntax.SglQuoted, *syntax.DblQuoted:
		default: // $x, $(…), extended globs
			return true
		}
	}
	return false
}

// literal expands a word as one string, as in an assignment value.
func (w *walker) literal(word *syntax.Word) string {
	if word == nil {
		return ""
	}
	w.substs(word)
	s, ok := w.expandLiteral(word)
	if !ok {
		return hole
	}
	return s
}

// text is how a word was written, for reasons.
func (w *walker) text(word *syntax.Word) string {
	if len(word.Parts) == 0 {
		return "" // ${x:-} with its empty default put in
	}
	if lit := word.Lit(); lit != "" {
		return lit
	}
	if start, end := word.Pos().Offset(), word.End().Offset(); start < end && end <= uint(len(w.src)) {
		return w.src[start:end]
	}
	var sb strings.Builder
	syntax.NewPrinter().Print(&sb, word)
	return sb.String()
}

// substs judges the commands a node runs while being expanded: command
// and process substitutions, and names secrets it expands.
func (w *walker) substs(node syntax.Node) {
	switch n := node.(type) {
	case nil:
		return
	case *syntax.Word: // typed nils: optional fields of the syntax tree
		if n == nil {
			return
		}
	case *syntax.ArrayExpr:
		if n == nil {
			return
		}
	}
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			c := w.clone()
			c.testOnly = false
			c.stmts(n.Stmts, input{})
			return false
		case *syntax.ProcSubst:
			c := w.clone()
			c.testOnly = false
			if n.Op == syntax.CmdOut {
				in := w.procIn
				if in.kind == inNone {
					in = input{kind: inUnknown}
				}
				c.stmts(n.Stmts, in)
			} else {
				c.stmts(n.Stmts, input{})
			}
			return false
		case *syntax.ArithmExp:
			w.arithVars(n.X, "$(( … ))")
		case *syntax.ParamExp:
			w.paramCode(n)
			if n.Param != nil && secret.Var(n.Param.Value) && !w.testOnly && !n.Length && !alternate(n) &&
				!n.Excl && !withoutUserinfo(n) {
				w.discloses("`$" + n.Param.Value + "` may expose a secret")
			}
			// ${!AWS_@} lists names: naming is not showing. Reading the
			// variables they name (${!v}) is judged by paramCode.
		}
		return true
	})
}

// fetching reports whether the statements of a substitution fetch from
// the network, so that their output is downloaded content. Answers are
// kept per substitution and nested ones are not walked again, so that
// 4,000 nested $(…) cost linear time, not quadratic.
func (s *shared) fetching(node syntax.Node, stmts []*syntax.Stmt) bool {
	if v, ok := s.fetches[node]; ok {
		return v
	}
	found := false
	for _, st := range stmts {
		syntax.Walk(st, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.CallExpr:
				if len(n.Args) > 0 {
					args := make([]string, len(n.Args)-1)
					for i, a := range n.Args[1:] {
						args[i] = a.Lit()
					}
					found = found || remoteOutput(commandBase(n.Args[0].Lit()), args)
				}
			case *syntax.CmdSubst:
				found = found || s.fetching(n, n.Stmts)
				return false
			case *syntax.ProcSubst:
				found = found || s.fetching(n, n.Stmts)
				return false
			}
			return !found
		})
	}
	if s.fetches == nil {
		s.fetches = map[syntax.Node]bool{}
	}
	s.fetches[node] = found
	return found
}

// isPwd reports whether stmts are just `pwd`, whose output is the cwd.
func isPwd(stmts []*syntax.Stmt) bool {
	if len(stmts) != 1 || len(stmts[0].Redirs) > 0 {
		return false
	}
	c, ok := stmts[0].Cmd.(*syntax.CallExpr)
	return ok && len(c.Args) == 1 && len(c.Assigns) == 0 && c.Args[0].Lit() == "pwd"
}

// cdPwd is the output of `cd DIR && pwd` (or `cd DIR; pwd`): DIR as an
// absolute path, or "" for other commands.
func (w *walker) cdPwd(stmts []*syntax.Stmt) string {
	var cd, pwd *syntax.Stmt
	switch {
	case len(stmts) == 2:
		cd, pwd = stmts[0], stmts[1]
	case len(stmts) == 1:
		b, ok := stmts[0].Cmd.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.AndStmt {
			return ""
		}
		cd, pwd = b.X, b.Y
	default:
		return ""
	}
	c, ok := cd.Cmd.(*syntax.CallExpr)
	if !ok || len(cd.Redirs) > 0 || len(c.Args) > 2 || len(c.Assigns) > 0 || c.Args[0].Lit() != "cd" ||
		!isPwd([]*syntax.Stmt{pwd}) {
		return ""
	}
	target := w.param("HOME").str()
	if len(c.Args) == 2 {
		if hasSubst(c.Args[1]) {
			return ""
		}
		f := w.clone().fields(c.Args[1])
		if len(f) != 1 {
			return ""
		}
		target = f[0].s
	}
	p, ok := w.abs(target)
	if !ok {
		return ""
	}
	return p
}

// passwdHome reports a pipeline that prints the home directory field of
// the user database: getent passwd NAME | cut -d: -f6, or awk's $6.
func passwdHome(stmts []*syntax.Stmt) bool {
	if len(stmts) != 1 {
		return false
	}
	b, ok := stmts[0].Cmd.(*syntax.BinaryCmd)
	if !ok || b.Op != syntax.Pipe {
		return false
	}
	x, ok1 := b.X.Cmd.(*syntax.CallExpr)
	y, ok2 := b.Y.Cmd.(*syntax.CallExpr)
	if !ok1 || !ok2 || len(x.Args) < 2 || x.Args[0].Lit() != "getent" || x.Args[1].Lit() != "passwd" {
		return false
	}
	for _, a := range y.Args[1:] {
		if v := a.Lit(); v == "-f6" || v == "6" || strings.Contains(w6(a), "$6") {
			return true
		}
	}
	return false
}

// w6 is a word's text when it is one single-quoted string (awk code).
func w6(word *syntax.Word) string {
	if len(word.Parts) == 1 {
		if q, ok := word.Parts[0].(*syntax.SglQuoted); ok {
			return q.Value
		}
	}
	return ""
}

// echoed is the output of a command substitution whose command only
// computes from its arguments (echo, printf, dirname, basename, realpath,
// which), when those are known.
func (w *walker) echoed(stmts []*syntax.Stmt) (string, bool) {
	if len(stmts) != 1 || len(stmts[0].Redirs) > 0 {
		return "", false
	}
	c, ok := stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) < 2 || len(c.Assigns) > 0 {
		return "", false
	}
	name := c.Args[0].Lit()
	switch name {
	case "echo", "printf", "dirname", "basename", "realpath":
	case "which", "command":
		// $(which rm) is where rm is; judged as rm.
		if n := c.Args[len(c.Args)-1].Lit(); n != "" && !strings.HasPrefix(n, "-") {
			return "/usr/bin/" + n, true
		}
		return "", false
	default:
		return "", false
	}
	q := w.clone()
	var parts []string
	for _, word := range c.Args[1:] {
		if hasSubst(word) {
			return "", false
		}
		for _, f := range q.fields(word) {
			if hasHole(f.s) {
				return "", false
			}
			if len(parts) == 0 && name == "echo" && (f.s == "-n" || f.s == "-e" || f.s == "-E") {
				continue // echo's own options
			}
			parts = append(parts, f.s)
		}
	}
	if len(parts) == 0 {
		return "", name == "echo"
	}
	switch name {
	case "printf":
		return printfText(parts[0], parts[1:])
	case "dirname", "basename", "realpath":
		if len(parts) != 1 || strings.HasPrefix(parts[0], "-") {
			return "", false
		}
		switch name {
		case "dirname":
			return path.Dir(parts[0]), true
		case "basename":
			return path.Base(parts[0]), true
		}
		p, ok := q.abs(parts[0])
		return p, ok
	}
	return strings.Join(parts, " "), true
}

// substOutput is what a substitution's commands print when they only
// compute from what they are given: echo and printf, base64 -d, rev, tr and cat of
// a here-string, ls of named files, head, tail and sort of those, in a
// pipeline ($(echo cm0gLXJmIH4= | base64 -d), $(ls ~/.ssh/id_* | head -1)).
func (w *walker) substOutput(stmts []*syntax.Stmt) (string, bool) {
	if len(stmts) == 0 || w.shared.noOutput[stmts[0]] || w.shared.outputDepth > 8 {
		return "", false
	}
	// Substitutions inside substitutions are computed again at each level:
	// the depth is bounded and a failure is remembered, so that deep
	// nesting stays linear.
	w.shared.outputDepth++
	s, ok := w.computeOutput(stmts)
	w.shared.outputDepth--
	if !ok {
		if w.shared.noOutput == nil {
			w.shared.noOutput = map[*syntax.Stmt]bool{}
		}
		w.shared.noOutput[stmts[0]] = true
	}
	return s, ok
}

func (w *walker) computeOutput(stmts []*syntax.Stmt) (string, bool) {
	if s, ok := w.echoed(stmts); ok {
		return s, true
	}
	if len(stmts) != 1 {
		return "", false
	}
	var elems []*syntax.Stmt
	var flatten func(s *syntax.Stmt) bool
	flatten = func(s *syntax.Stmt) bool {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok {
			if b.Op != syntax.Pipe || len(s.Redirs) > 0 {
				return false
			}
			return flatten(b.X) && flatten(b.Y)
		}
		elems = append(elems, s)
		return true
	}
	if !flatten(stmts[0]) || len(elems) > 8 {
		return "", false
	}
	// A clone judges nothing for the string: it only computes.
	q := w.clone()
	q.res = &result{}
	in := input{}
	for _, e := range elems {
		c, ok := e.Cmd.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 || len(c.Assigns) > 0 || e.Background || e.Negated {
			return "", false
		}
		var args []string
		for _, word := range c.Args {
			if hasSubst(word) {
				return "", false
			}
			for _, f := range q.fields(word) {
				if hasHole(f.s) {
					return "", false
				}
				args = append(args, f.s)
			}
		}
		in = q.redirects(e.Redirs, in).in
		name := commandBase(args[0])
		switch name {
		case "echo", "printf", "base64", "cat", "rev", "tr":
			// rev and tr: text turned around or translated, as a reversed
			// download-and-run hides itself.
			in = q.output(e, name, args[1:], in)
		case "ls":
			var names []string
			for _, a := range args[1:] {
				if !strings.HasPrefix(a, "-") {
					names = append(names, a)
				}
			}
			if len(names) == 0 {
				return "", false
			}
			in = input{kind: inData, data: strings.Join(names, "\n")}
		case "head", "tail", "sort", "uniq":
			// What passes through is a part of what came in: good enough
			// for judging what it names.
		default:
			return "", false
		}
		if in.kind != inData {
			return "", false
		}
	}
	return strings.TrimRight(in.data, "\n"), true
}

// searchOutput stands for the paths a substitution's search prints
// ($(find ~ -name id_rsa), $(locate .pem | head -1)), so that the command
// given them is judged by what they can be (see foundPath), or "".
func (w *walker) searchOutput(stmts []*syntax.Stmt) string {
	if len(stmts) != 1 {
		return ""
	}
	s := stmts[0]
	for {
		b, ok := s.Cmd.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.Pipe {
			break
		}
		if c, ok := b.Y.Cmd.(*syntax.CallExpr); !ok || len(c.Args) == 0 ||
			!slices.Contains([]string{"head", "tail", "sort", "uniq", "grep", "xargs"}, c.Args[0].Lit()) {
			return ""
		}
		s = b.X
	}
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return ""
	}
	switch name := c.Args[0].Lit(); name {
	case "find", "locate", "plocate", "mlocate":
		q := w.clone()
		q.res = &result{}
		var args []string
		for _, word := range c.Args[1:] {
			if hasSubst(word) {
				return ""
			}
			for _, f := range q.fields(word) {
				args = append(args, f.s)
			}
		}
		return foundPath(q.output(s, name, args, input{}))
	}
	return ""
}

// hasSubst reports a command or process substitution in a word: its
// output is computed, and its commands judged, elsewhere; computing an
// output from it again at each level of nesting would be quadratic.
func hasSubst(word *syntax.Word) bool {
	found := false
	syntax.Walk(word, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			found = true
		}
		return !found
	})
	return found
}

// fetchers are the commands whose output is content from the network.
var fetchers = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{
		"curl": true, "wget": true, "fetch": true, "http": true, "https": true,
		"xh": true, "aria2c": true, "lwp-request": true, "GET": true,
	}
}}

func commandBase(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// withoutUserinfo reports ${DATABASE_URL#*@} and the like: a URL's
// credentials (user:password@) cut off, the host and path left.
func withoutUserinfo(n *syntax.ParamExp) bool {
	if n.Exp == nil || n.Exp.Op != syntax.RemSmallPrefix && n.Exp.Op != syntax.RemLargePrefix || n.Exp.Word == nil {
		return false
	}
	name := n.Param.Value
	url := strings.HasSuffix(name, "_URL") || strings.HasSuffix(name, "_URI") || strings.HasSuffix(name, "_DSN") ||
		name == "DATABASE_URL"
	return url && strings.HasSuffix(n.Exp.Word.Lit(), "@")
}

// alternate reports ${X:+word} and ${X+word}: the value of X is not
// printed, only whether it is set (the word itself is walked as usual).
func alternate(n *syntax.ParamExp) bool {
	return n.Exp != nil && (n.Exp.Op == syntax.AlternateUnset || n.Exp.Op == syntax.AlternateUnsetOrNull)
}
