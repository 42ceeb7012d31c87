package shell

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/shell/extglob"
	"github.com/qsh-shell/qsh/shell/marks"
	"github.com/qsh-shell/qsh/shell/rewrite"
)

// builtinMark prefixes the name of a builtin qsh implements itself. interp
// runs its own builtins (and fails on those it lacks) before any exec
// handler, so [Shell.call] renames the call to reach [Shell.builtins]. The
// NUL byte means no real command can have the name.
const builtinMark = "qsh\x00"

// ownBuiltins are the builtins interp lacks or gets wrong for profiles.
var ownBuiltins = map[string]bool{"umask": true, "kill": true, "history": true, "trap": true,
	"ulimit": true, "fc": true, "suspend": true, "caller": true, "fg": true, "bg": true,
	"printf": true, "cd": true, "pwd": true, "jobs": true, "disown": true, "wait": true, marks.JobMark: true,
	marks.BgMark: true, marks.BgStartMark: true, marks.BgEndMark: true, marks.PidMark: true, promptMark: true,
	debugMark: true, statusMark: true, bgDebugMark: true, syntaxMark: true, withholdMark: true, "bind": true,
	// bash's own, whole (options.go, dirs.go, echo.go, read.go, mapfile.go, getopts.go)
	"set": true, "shopt": true, "dirs": true, "pushd": true, "popd": true, "echo": true, "read": true,
	"mapfile": true, "readarray": true, "getopts": true, "test": true, "[": true, "hash": true, "times": true,
	// programmable completion (compspec.go, compgen.go) and package
	// rewrite's pattern (its status builtin is statusMark)
	"complete": true, "compgen": true, "compopt": true, rewrite.PatternBuiltin: true, rewrite.ReplBuiltin: true,
}

// declBuiltins are bash's declaration builtins. interp has them only as
// syntax (declare a=1); reached as commands (builtin declare, command
// export, $cmd a=1) they run through eval.
var declBuiltins = map[string]bool{"declare": true, "typeset": true, "local": true, "export": true, "readonly": true}

// usageFlags are the flags of builtins interp runs that do not know --:
// qsh drops the --, and fails as bash does on a flag they lack (x: none).
var usageFlags = map[string]string{"eval": "x", "source": "x", ".": "x", "exec": "acl"}

// call sees every simple command after expansion.
func (s *Shell) call(ctx context.Context, args []string) ([]string, error) {
	hc := interp.HandlerCtx(ctx)
	if args[0] == debuggedMark && len(args) > 1 {
		args = args[1:] // its DEBUG trap has run
	} else if out, ok := s.debugCall(hc, args); ok {
		return mark(out), nil
	}
	name := args[0]
	if out, ok := s.noteCall(ctx, args); ok {
		return out, nil
	}
	if out, ok := s.compatCall(hc, args); ok {
		return out, nil
	}
	if (name == "builtin" || name == "command") && !s.isFuncAt(hc, name) {
		args = s.unwrapMeta(hc, args)
		name = args[0]
	}
	if name == trappedMark && len(args) > 1 {
		args, name = args[1:], args[1] // its traps have run
	} else if out, ok := s.trapCall(hc, args); ok {
		return out, nil
	}
	if usageFlags[name] != "" && len(args) > 1 && !s.isFuncAt(hc, name) {
		if a := args[1]; a == "--" {
			args = append([]string{name}, args[2:]...)
		} else if len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], usageFlags[name]) != "" {
			return mark([]string{"usage", name, a}), nil
		}
	}
	if out, ok := s.followCall(hc, args); ok {
		return out, nil
	}
	switch {
	case strings.HasPrefix(name, marks.Prefix) && ownBuiltins[name]:
		// qsh's marks, with no look at the functions: they run in
		// background statements too, whose goroutines must not read
		// the main shell's table of functions while it defines some.
		return mark(args), nil
	case name == "exit":
		s.exitCalled.Store(true)
	case name == "logout" && !s.isFuncAt(hc, name):
		s.exitCalled.Store(true)
		return append([]string{"exit"}, args[1:]...), nil
	case name == "exec" && len(args) > 1 && !s.isFuncAt(hc, name):
		// The program replaces the shell: when it ends, so does the
		// session. As in bash, a program that cannot be found does not
		// end an interactive shell.
		_, err := interp.LookPathDir(hc.Dir, hc.Env, args[1])
		s.exitCalled.Store(err == nil)
	case name == "eval" && !s.isFuncAt(hc, name):
		return s.markEval(hc, args), nil
	case (name == "alias" || name == "unalias") && !s.isFuncAt(hc, name):
		return mark(args), nil
	case (name == "source" || name == ".") && len(args) > 1 && !s.isFuncAt(hc, name):
		s.sources.expect(args[1])
	case ownBuiltins[name] && !s.isFuncAt(hc, name):
		return mark(args), nil
	case declBuiltins[name] && !s.isFuncAt(hc, name):
		return mark(args), nil
	case name == "builtin" && len(args) > 1 && (ownBuiltins[args[1]] || declBuiltins[args[1]]) && !s.isFuncAt(hc, name):
		return mark(args[1:]), nil
	case name == "command" && len(args) > 1 && !s.isFuncAt(hc, name):
		return s.commandCall(hc, args)
	case name == "type" && !s.isFuncAt(hc, name):
		return mark(args), nil
	}
	return args, nil
}

func mark(args []string) []string {
	out := append([]string{builtinMark + args[0]}, args[1:]...)
	return out
}

// isFunc reports whether name is a function of the shell. Only for the
// shell's own goroutine, or one it waits for: elsewhere, see isFuncAt.
func (s *Shell) isFunc(name string) bool {
	_, ok := s.runner.Funcs[name]
	return ok
}

// isFuncAt is isFunc for the command of hc, which may run in a background
// statement, while the shell defines functions: that asks the names filed
// when the statement began (see [bgTable.fileFuncs]).
func (s *Shell) isFuncAt(hc interp.HandlerContext, name string) bool {
	if tok := s.bgToken(hc); tok != "" {
		return s.bgs.isFunc(tok, name)
	}
	return s.isFunc(name)
}

// builtins runs the builtins [Shell.call] marked.
func (s *Shell) builtins(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
	return func(ctx context.Context, args []string) error {
		name, ok := strings.CutPrefix(args[0], builtinMark)
		if !ok {
			return next(ctx, args)
		}
		hc := interp.HandlerCtx(ctx)
		b := builtinIO{name: name, out: hc.Stdout, err: hc.Stderr, where: s.errPrefix(hc)}
		var st int
		switch name {
		case "umask":
			st = b.umask(args[1:])
		case "kill":
			st = s.kill(ctx, b, args[1:])
		case "history":
			env := func(name string) (string, bool) { v := hc.Env.Get(name); return v.String(), v.IsSet() }
			st = s.historyBuiltin(env, hc.Dir, b, args[1:], inRun(ctx))
		case "trap":
			st = s.trap(ctx, hc, b, args[1:])
		case "command":
			st = s.commandV(hc, b, args[1:])
		case "type":
			st = s.typeBuiltin(hc, b, args[1:])
		case "shopt":
			st = s.shoptBuiltin(ctx, hc, b, args[1:])
		case "set":
			st = s.setBuiltin(ctx, hc, b, args[1:])
		case "ulimit":
			st = b.ulimit(args[1:], inRun(ctx))
		case "fc":
			st = s.fcBuiltin(b, args[1:])
		case "suspend":
			st = s.suspendBuiltin(b, args[1:])
		case "fg":
			st = s.fgBuiltin(ctx, b, args[1:])
		case "bg":
			st = s.bgBuiltin(ctx, b, args[1:])
		case "jobs":
			st = s.jobsBuiltin(ctx, b, args[1:])
		case "disown":
			// The jobs are the user's: the assistant's programs start none
			// (see tools/guarded). As in bash's subshell, whose table is
			// a copy, the session's stays as it is.
			if !inRun(ctx) {
				st = s.disownBuiltin(b, args[1:])
			}
		case "wait":
			return s.waitBuiltin(ctx, hc, args[1:])
		case marks.BgMark, marks.BgStartMark, marks.BgEndMark, marks.PidMark:
			return s.pidBuiltin(ctx, hc, append([]string{name}, args[1:]...))
		case marks.JobMark:
			return s.jobMarkBuiltin(ctx, hc, args[1:])
		case promptMark:
			s.promptBuiltin(args[1:])
		case "bind":
			if inRun(ctx) && bindReadsFile(args[1:]) {
				// Its changes would not outlive the run (see [Shell.keep]),
				// and the file is read past the open handler the sandbox
				// and the guard watch.
				st = b.fail(1, "-f: the assistant's commands read no key bindings from files")
				break
			}
			st = s.bindBuiltin(ctx, hc, b, args[1:])
		case debugMark:
			return s.debugBuiltin(ctx, hc, args[1:])
		case statusMark:
			return statusBuiltin(args[1:])
		case withholdMark:
			return withholdBuiltin(ctx, hc, args[1:])
		case syntaxMark:
			fmt.Fprintln(hc.Stderr, strings.Join(args[1:], " "))
			return interp.ExitStatus(2)
		case bgDebugMark:
			return s.bgDebugBuiltin(ctx, hc, args[1:])
		case "caller":
			st = 1
		case "printf":
			st = s.printfBuiltin(ctx, hc, b, args[1:])
		case "complete":
			st = s.complete(b, args[1:])
		case "compgen":
			st = s.compgen(ctx, hc, b, args[1:])
		case "compopt":
			st = s.compopt(ctx, b, args[1:])
		case "call":
			return s.callInFrame(ctx, hc, args[1:])
		case "progcomp":
			st = s.progcomp(ctx, hc)
		case rewrite.PatternBuiltin:
			st = patternBuiltin(b, args[1:])
		case rewrite.ReplBuiltin:
			return replBuiltin(ctx, hc, args[1:])
		case "cd":
			st = s.cd(ctx, hc, b, args[1:])
		case "pwd":
			st = s.pwd(hc, b, args[1:])
		case "usage":
			b.name = args[1]
			st = b.fail(2, "%s: invalid option", args[2])
		case sigTrapMark:
			return s.sigTrapBuiltin(ctx, hc, args[1:])
		case returnMark:
			return s.returnBuiltin(ctx, hc, args[1:])
		case "hash":
			st = s.hashBuiltin(hc, b, args[1:])
		case "times":
			st = timesBuiltin(b)
		case "alias":
			st = s.aliasBuiltin(ctx, hc, b, args[1:])
		case "unalias":
			st = s.unaliasBuiltin(ctx, hc, b, args[1:])
		case "echo":
			st = s.echoBuiltin(hc, b, args[1:])
		case "read":
			st = s.readBuiltin(ctx, hc, b, args[1:])
		case "getopts":
			st = s.getoptsBuiltin(ctx, hc, b, args[1:])
		case "test", "[":
			st = s.testBuiltin(hc, b, args[1:])
		case "mapfile", "readarray":
			st = s.mapfileBuiltin(ctx, hc, b, args[1:])
		case "dirs":
			st = s.dirsCall(ctx, hc, b, args[1:])
		case "pushd":
			st = s.pushd(ctx, hc, b, args[1:])
		case "popd":
			st = s.popd(ctx, hc, b, args[1:])
		case "declare", "typeset", "local", "export", "readonly":
			return s.declCall(ctx, hc, name, args[1:])
		}
		if st != 0 {
			return interp.ExitStatus(st)
		}
		return nil
	}
}

// builtinIO is where a builtin writes, and its name for messages.
type builtinIO struct {
	name     string
	out, err io.Writer
	where    string // starts messages: "qsh: ", or the sourced file and line
	// errorf, when set, prints the builtin's messages instead (the
	// evaluator's, which knows where they come from).
	errorf func(format string, args ...any)
}

func (b builtinIO) fail(st int, format string, args ...any) int {
	if b.errorf != nil {
		b.errorf(format, args...)
		return st
	}
	where := b.where
	if where == "" {
		where = "qsh: "
	}
	fmt.Fprintf(b.err, "%s%s: %s\n", where, b.name, fmt.Sprintf(format, args...))
	return st
}

func (b builtinIO) umask(args []string) int {
	old := syscall.Umask(0)
	syscall.Umask(old)
	symbolic, print := false, false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		for _, c := range args[0][1:] {
			switch c {
			case 'S':
				symbolic = true
			case 'p':
				print = true
			default:
				return b.fail(2, "-%c: invalid option\nusage: umask [-p] [-S] [mode]", c)
			}
		}
		args = args[1:]
	}
	if len(args) == 0 {
		switch {
		case symbolic:
			fmt.Fprintln(b.out, symbolicMode(0o777&^old))
		case print:
			fmt.Fprintf(b.out, "umask %04o\n", old)
		default:
			fmt.Fprintf(b.out, "%04o\n", old)
		}
		return 0
	}
	if strings.TrimSpace(args[0]) == "" {
		return b.fail(1, "%s: invalid symbolic mode operator", args[0])
	}
	mask, err := parseUmask(args[0], old)
	if err != nil {
		return b.fail(1, "%s: %v", args[0], err)
	}
	syscall.Umask(mask)
	return 0
}

// symbolicMode prints permissions like `u=rwx,g=rx,o=rx`.
func symbolicMode(perm int) string {
	var parts []string
	for i, who := range []string{"u", "g", "o"} {
		bits := perm >> (6 - 3*i) & 7
		p := who + "="
		for j, c := range "rwx" {
			if bits&(4>>j) != 0 {
				p += string(c)
			}
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ",")
}

// parseUmask reads an octal mask or a symbolic mode (`u=rwx,g-w,o=`)
// applied to the permissions old allows.
func parseUmask(s string, old int) (int, error) {
	if s[0] >= '0' && s[0] <= '9' {
		n, err := strconv.ParseUint(s, 8, 32)
		if err != nil || n > 0o777 {
			return 0, fmt.Errorf("octal number out of range")
		}
		return int(n), nil
	}
	allowed := 0o777 &^ old
	for clause := range strings.SplitSeq(s, ",") {
		i := strings.IndexAny(clause, "=+-")
		if i < 0 {
			return 0, fmt.Errorf("invalid symbolic mode operator")
		}
		who, op, perms := clause[:i], clause[i], clause[i+1:]
		var whoBits int
		if who == "" {
			who = "a"
		}
		for _, c := range who {
			switch c {
			case 'u':
				whoBits |= 0o700
			case 'g':
				whoBits |= 0o070
			case 'o':
				whoBits |= 0o007
			case 'a':
				whoBits |= 0o777
			default:
				return 0, fmt.Errorf("invalid symbolic mode character %q", c)
			}
		}
		var permBits int
		for _, c := range perms {
			switch c {
			case 'r':
				permBits |= 0o444
			case 'w':
				permBits |= 0o222
			case 'x':
				permBits |= 0o111
			default:
				return 0, fmt.Errorf("invalid symbolic mode character %q", c)
			}
		}
		bits := whoBits & permBits
		switch op {
		case '=':
			allowed = allowed&^whoBits | bits
		case '+':
			allowed |= bits
		case '-':
			allowed &^= bits
		}
	}
	return 0o777 &^ allowed, nil
}

func (s *Shell) kill(ctx context.Context, b builtinIO, args []string) int {
	sig := syscall.SIGTERM
	if len(args) == 0 {
		return b.fail(2, "usage: kill [-s sigspec | -n signum | -sigspec] pid ... or kill -l [sigspec]")
	}
	switch a := args[0]; {
	case a == "-l" || a == "-L":
		return b.listSignals(args[1:])
	case a == "-s" || a == "-n":
		if len(args) < 2 {
			return b.fail(2, "%s: option requires an argument", a)
		}
		s, ok := signalNum(args[1])
		if !ok {
			return b.fail(1, "%s: invalid signal specification", args[1])
		}
		sig, args = s, args[2:]
	case a == "--":
		args = args[1:]
	case strings.HasPrefix(a, "-") && len(a) > 1:
		s, ok := signalNum(a[1:])
		if !ok {
			return b.fail(1, "%s: invalid signal specification", a[1:])
		}
		sig, args = s, args[1:]
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	st := 0
	for _, a := range args {
		if strings.HasPrefix(a, "%") {
			if s.killJob(ctx, b, a, sig) != 0 {
				st = 1
			}
			continue
		}
		pid, err := strconv.Atoi(a)
		if err != nil {
			st = b.fail(1, "%s: arguments must be process or job IDs", a)
			continue
		}
		if s.selfSignal(pid, sig) {
			continue
		}
		if err := syscall.Kill(pid, sig); err != nil {
			st = b.fail(1, "(%d) - %s", pid, errText(err))
			continue
		}
		s.awaitSelfSignal(ctx, pid, sig)
		s.bgs.signalled(pid, sig)
	}
	return st
}

func errText(err error) string {
	s := err.Error()
	return strings.ToUpper(s[:1]) + s[1:]
}

func quote(s string) string {
	q, err := syntax.Quote(s, syntax.LangBash)
	if err != nil {
		return strconv.Quote(s)
	}
	return q
}

// declCall runs a declaration builtin reached as a command, its arguments
// (expanded already) quoted for eval.
func (s *Shell) declCall(ctx context.Context, hc interp.HandlerContext, name string, args []string) error {
	if namesOnly, names, ok := funcsArgs(args); ok && (name == "declare" || name == "typeset") {
		b := builtinIO{name: name, out: hc.Stdout, err: hc.Stderr, where: s.errPrefix(hc)}
		if st := s.declareFuncs(ctx, hc, b, namesOnly, names); st != 0 {
			return interp.ExitStatus(st)
		}
		return nil
	}
	src := name
	for _, a := range args {
		src += " " + singleQuote(a)
	}
	return hc.Builtin(ctx, []string{"eval", src})
}

// unwrapMeta takes the builtin and command words off the front of args
// down to the one that decides (`builtin command export a=1` is
// `builtin export a=1`), and the `--` after builtin; `builtin` alone is
// `true`.
func (s *Shell) unwrapMeta(hc interp.HandlerContext, args []string) []string {
	for {
		if args[0] == "builtin" && len(args) > 1 && args[1] == "--" {
			args = append([]string{"builtin"}, args[2:]...)
		}
		if args[0] == "builtin" && len(args) == 1 {
			return []string{"true"}
		}
		if len(args) < 2 || (args[1] != "builtin" && args[1] != "command") {
			return args
		}
		if args[0] == "builtin" && args[1] == "builtin" || args[1] == "command" {
			args = args[1:]
			continue
		}
		// command builtin X: builtin X
		args = args[1:]
	}
}

// patternBuiltin answers a pattern rewritten by package rewrite: args are
// the word, then pieces of pattern text ("p") and literal text ("l"). It
// prints a pattern for interp to match the word with: * when the word
// matches, else one that matches nothing the word can be.
func patternBuiltin(b builtinIO, args []string) int {
	if len(args) == 0 {
		return 2
	}
	word := args[0]
	switch {
	case extglob.Match(piecesPattern(args[1:]), word):
		fmt.Fprint(b.out, "*")
	case word == "":
		fmt.Fprint(b.out, "?")
	}
	return 0
}

// piecesPattern is the pattern of package rewrite's pieces: pattern text
// after "p", literal text after "l".
func piecesPattern(pieces []string) string {
	var pat strings.Builder
	for i := 0; i+1 < len(pieces); i += 2 {
		if pieces[i] == "l" {
			pat.WriteString(extglob.QuoteMeta(pieces[i+1]))
		} else {
			pat.WriteString(pieces[i+1])
		}
	}
	return pat.String()
}

// replBuiltin computes a substitution rewritten by package rewrite: args
// are the array to set, the mode, the replacement, the pattern's pieces,
// "--", then the values (see [substitute]).
func replBuiltin(ctx context.Context, hc interp.HandlerContext, args []string) error {
	if len(args) < 3 {
		return interp.ExitStatus(2)
	}
	name, mode, rep := args[0], args[1], args[2]
	sep := slices.Index(args, "--")
	if sep < 3 {
		return interp.ExitStatus(2)
	}
	if mode == "keys" && sep+1 < len(args) {
		keys := `("${!` + args[sep+1] + `[@]}")`
		if !hc.Env.Get(args[sep+1]).Declared() {
			keys = "()" // interp fails on the keys of an unset array
		}
		return hc.Builtin(ctx, []string{"eval", "declare -a " + name + "=" + keys})
	}
	pat, err := extglob.Compile(piecesPattern(args[3:sep]))
	var src strings.Builder
	src.WriteString("declare -a " + name + "=(")
	for _, v := range args[sep+1:] {
		if err == nil {
			v = substitute(pat, v, mode, rep)
		}
		src.WriteString(" " + singleQuote(v))
	}
	src.WriteString(" )")
	return hc.Builtin(ctx, []string{"eval", src.String()})
}

// substitute is bash's ${v/pat/rep} and the like, by mode: "#" and "%"
// replace the longest prefix or suffix pat matches, "#s" and "%s" the
// shortest, "/" the first match (leftmost, longest) and "//" every one.
func substitute(pat *extglob.Pattern, v, mode, rep string) string {
	switch mode {
	case "#", "#s":
		for k := range len(v) + 1 {
			if mode == "#" {
				k = len(v) - k
			}
			if pat.Match(v[:k]) {
				return rep + v[k:]
			}
		}
	case "%", "%s":
		for j := range len(v) + 1 {
			if mode == "%s" {
				j = len(v) - j
			}
			if pat.Match(v[j:]) {
				return v[:j] + rep
			}
		}
	case "/", "//":
		var b strings.Builder
		i := 0
		for i <= len(v) {
			end := -1
			for j := len(v); j >= i; j-- {
				if pat.Match(v[i:j]) {
					end = j
					break
				}
			}
			if end < 0 || end == i && i == len(v) && b.Len() > 0 {
				if i < len(v) {
					b.WriteByte(v[i])
				}
				i++
				continue
			}
			b.WriteString(rep)
			if end == i { // an empty match: keep the character after it
				if i < len(v) {
					b.WriteByte(v[i])
				}
				end++
			}
			i = end
			if mode == "/" {
				if i < len(v) {
					b.WriteString(v[i:])
				}
				return b.String()
			}
		}
		return b.String()
	}
	return v
}
