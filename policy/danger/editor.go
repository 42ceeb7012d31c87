package danger

import (
	"slices"
	"strings"

	"github.com/qsh-shell/qsh/internal/lazy"
)

// Checks for pagers and editors, whose options can run commands.

// less judges less(1)'s initial commands (+cmd, ++cmd), which are typed
// as if by the user: ! runs a shell command, | pipes to one, s saves to a
// file, v starts an editor, :e examines another file; and its log files.
func (w *walker) less(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case strings.HasPrefix(a, "+"):
			w.lessCommand(chain, strings.TrimPrefix(strings.TrimPrefix(a, "+"), "+"), args[i].text)
		case a == "-o" || a == "-O" || a == "--log-file" || a == "--LOG-FILE":
			if i+1 < len(args) {
				i++
				w.writeTo(args[i].s, chain+" "+a, args[i].text)
			}
		case strings.HasPrefix(a, "--log-file=") || strings.HasPrefix(a, "--LOG-FILE="):
			_, f, _ := strings.Cut(a, "=")
			w.writeTo(f, chain, args[i].text)
		case (strings.HasPrefix(a, "-o") || strings.HasPrefix(a, "-O")) && len(a) > 2:
			w.writeTo(a[2:], chain, args[i].text)
		}
	}
}

// lessCommand judges one initial command of less.
func (w *walker) lessCommand(chain, cmd, text string) {
	on := "`" + chain + " " + text + "`"
	switch {
	case cmd == "":
	case cmd[0] == '!':
		w.res.add(Dangerous, on+": runs a shell command")
		w.nested(cmd[1:], input{})
	case cmd[0] == '/' || cmd[0] == '?' || cmd[0] == '&':
		// A search or a filter: the rest is the pattern, unless a control
		// character ends it and more commands follow.
		if strings.ContainsFunc(cmd, func(r rune) bool { return r < ' ' }) {
			w.res.add(Dangerous, on+": commands after a search")
		}
	case strings.Trim(cmd, "0123456789GgFfbdujkyepP%^&") == "":
		// Moves: +G (the end), +F (follow), +150 (a line), +50% …
	default:
		w.res.add(Dangerous, on+": an initial command that may run programs or write files")
	}
}

// vim judges Vim's commands given with -c, +, --cmd and -S: `:!` runs a
// shell command, :w and :saveas write files, :r reads one (or a command's
// output), :source runs a script; what the classifier does not know is
// taken for the worst (:call system(), :lua …).
func (w *walker) vim(chain string, args []arg, io ioInfo) {
	if io.in.kind == inData && slices.ContainsFunc(args[1:], func(a arg) bool {
		return a.s == "-e" || a.s == "-es" || a.s == "-E" || a.s == "-Es" || a.s == "-s" && firstWord(chain) == "ex"
	}) {
		// Ex mode reads its commands from the input.
		for _, line := range strings.Split(io.in.data, "\n") {
			w.exCommand(chain, line, line)
		}
	} else if slices.ContainsFunc(args[1:], func(a arg) bool {
		return a.s == "-e" || a.s == "-es" || a.s == "-E" || a.s == "-Es"
	}) && !exQuits(args) {
		// Input that cannot be seen, unless the -c commands quit first.
		w.res.add(Dangerous, "`"+chain+" -es`: runs editor commands from its input")
	}
	for i := 1; i < len(args); i++ {
		a := args[i].s
		next := func() (arg, bool) {
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return arg{}, false
		}
		switch {
		case a == "-c" || a == "--cmd":
			if v, ok := next(); ok {
				w.exCommand(chain, v.s, v.text)
			}
		case strings.HasPrefix(a, "+") && len(a) > 1:
			w.exCommand(chain, a[1:], args[i].text)
		case a == "-S" || a == "-u" || a == "-s" && i+1 < len(args) && !strings.HasPrefix(args[i+1].s, "-") &&
			!strings.HasPrefix(args[i+1].s, "+"):
			// -S session, -u vimrc, -s a script of typed keys.
			if v, ok := next(); ok && v.s != "NONE" && v.s != "NORC" {
				w.runFile(v.s, v.text, "vim")
			}
		case a == "-i" || a == "-T" || a == "-U" || a == "-r" || a == "-t" || a == "-q":
			next()
		case !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+"):
			w.writeTo(a, chain, args[i].text) // a file to edit
		case a == "--":
			for _, f := range args[i+1:] {
				w.writeTo(f.s, chain, f.text)
			}
			return
		case a == "-w" || a == "-W":
			if v, ok := next(); ok {
				w.writeTo(v.s, chain+" "+a, v.text)
			}
		}
	}
}

// exCommand judges one Ex command line of Vim (several joined by |).
func (w *walker) exCommand(chain, line, text string) {
	on := "`" + chain + " " + text + "`"
	for _, c := range exSplit(line) {
		c = strings.TrimLeft(strings.TrimSpace(c), ":")
		// A range: %, ., $, numbers, 'marks, /patterns/ and commas.
		c = strings.TrimLeft(c, "%.$0123456789,;'<>+- ")
		name := c
		notLetter := func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') }
		if i := strings.IndexFunc(c, notLetter); i >= 0 {
			name = c[:i]
		}
		rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(c, name), "!"))
		switch {
		case strings.HasPrefix(c, "!"):
			w.res.add(Dangerous, on+": runs a shell command")
			w.nested(c[1:], input{})
		case name == "g" || name == "global" || name == "v" || name == "vglobal":
			// :g/pattern/command runs command on each matching line: the
			// command is judged as one of its own (p when there is none).
			p := strings.TrimPrefix(strings.TrimPrefix(c, name), "!")
			if p == "" {
				break
			}
			delim, end := p[0], -1
			for k := 1; k < len(p); k++ {
				if p[k] == '\\' {
					k++
				} else if p[k] == delim {
					end = k
					break
				}
			}
			if end < 0 {
				break // a pattern alone: prints the lines
			}
			if cmd := strings.TrimSpace(p[end+1:]); cmd != "" {
				w.exCommand(chain, cmd, text)
			}
		case name == "exe" || name == "execute":
			// The strings joined ("!r" . "m -rf ~") are an Ex command line.
			w.res.add(Dangerous, on+": runs an Ex command built from an expression")
			for _, run := range literalRuns(rest) {
				w.exCommand(chain, strings.Join(run, ""), text)
			}
		case name == "r" || name == "read":
			if cmd, ok := strings.CutPrefix(rest, "!"); ok {
				w.res.add(Dangerous, on+": runs a shell command")
				w.nested(cmd, input{})
			} else if rest != "" {
				p, ok := w.abs(rest)
				w.readFile(p, ok, on)
			}
		case name == "w" || name == "write" || name == "wq" || name == "x" || name == "xit" || name == "up" ||
			name == "update" || name == "sav" || name == "saveas" || name == "wa" || name == "wall" ||
			name == "wqa" || name == "xa" || name == "exit":
			if cmd, ok := strings.CutPrefix(rest, "!"); ok {
				w.res.add(Dangerous, on+": pipes the text to a shell command")
				w.nested(cmd, input{})
			} else if rest != "" {
				w.writeTo(strings.TrimPrefix(rest, ">>"), chain+" :"+name, rest)
			}
		case name == "so" || name == "source":
			w.runFile(rest, rest, "vim")
		case name == "" && c == "", name == "q" || name == "quit" || name == "qa" || name == "qall" ||
			name == "set" || name == "se" || name == "setlocal" || name == "syntax" || name == "e" ||
			name == "edit" || name == "noh" || name == "retab" || name == "undo" || name == "redo":
		case name == "s" || name == "substitute" || name == "d" || name == "delete" || name == "m" ||
			name == "move" || name == "t" || name == "co" || name == "copy" || name == "j" || name == "join":
			// Edits of the text in the buffer; written by :w.
		default:
			w.res.add(Dangerous, on+": editor commands that can run programs")
			// call system("…"): the strings are judged as commands, for
			// what is worse than dangerous.
			w.literals(c)
		}
	}
}

// exQuits reports whether Vim's last -c or + command quits, so that
// Ex mode never reads commands from its input.
func exQuits(args []arg) bool {
	last := ""
	for i := 1; i < len(args); i++ {
		switch a := args[i].s; {
		case (a == "-c" || a == "--cmd") && i+1 < len(args):
			i++
			last = args[i].s
		case strings.HasPrefix(a, "+") && len(a) > 1:
			last = a[1:]
		}
	}
	parts := exSplit(last)
	c := strings.TrimSuffix(strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(parts[len(parts)-1]), ":")), "!")
	switch c {
	case "q", "quit", "wq", "x", "xit", "qa", "qall", "wqa", "wqall", "xa", "xall", "exit", "cq":
		return true
	}
	return false
}

// exSplit splits an Ex command line at the bars that separate commands.
// A command that passes its argument to a shell (:!, :r !, :w !) or runs
// it as commands (:g, :normal, :bufdo …) takes the bars that follow as its
// own (Vim's :help :bar): `:!curl … | sh` is one shell command.
func exSplit(line string) []string {
	var out []string
	start := 0
	expr := exExpr(line)
	var quote byte
	for i := 0; i < len(line); i++ {
		if i == start && exTakesBar(line[start:]) {
			break
		}
		switch c := line[i]; {
		case quote != 0:
			// An expression's string: its bars are text (call system("a | sh")).
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\\':
			i++
		case expr && (c == '"' || c == '\''):
			quote = c
		case c == '|':
			out = append(out, line[start:i])
			start = i + 1
			expr = exExpr(line[start:])
		}
	}
	return append(out, line[start:])
}

// exExpr reports an Ex command whose argument is an expression (call,
// let, echo, execute …), in which strings are quoted.
func exExpr(c string) bool {
	c = strings.TrimLeft(c, ": \t")
	name := c
	if i := strings.IndexFunc(c, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') }); i >= 0 {
		name = c[:i]
	}
	switch name {
	case "cal", "call", "let", "echo", "echom", "echomsg", "exe", "exec", "execute", "if", "elseif", "while",
		"return", "eval", "lua", "py", "python", "py3", "python3", "rub", "ruby", "perl":
		return true
	}
	return false
}

// exTakesBar reports whether the Ex command that starts c sees | as part
// of its argument.
func exTakesBar(c string) bool {
	c = strings.TrimLeft(c, ": \t")
	c = strings.TrimLeft(c, "%.$0123456789,;'<>+- ")
	if strings.HasPrefix(c, "!") {
		return true
	}
	name := c
	if i := strings.IndexFunc(c, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') }); i >= 0 {
		name = c[:i]
	}
	rest := strings.TrimSpace(strings.TrimPrefix(c, name))
	switch name {
	case "r", "read", "w", "write":
		return strings.HasPrefix(rest, "!")
	case "g", "global", "v", "vglobal", "norm", "normal", "windo", "bufdo", "argdo", "tabdo", "cdo", "cfdo",
		"ldo", "lfdo", "com", "command":
		return true
	}
	return false
}

// emacs judges Emacs's code options: --eval runs Lisp (shell-command and
// the like run programs), -l/--load and --script load a file, -f calls a
// function.
func (w *walker) emacs(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		a := strings.TrimPrefix(args[i].s, "-")
		val := func() (arg, bool) {
			if _, v, ok := strings.Cut(args[i].s, "="); ok {
				return arg{s: v, text: v}, true
			}
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return arg{}, false
		}
		name, _, _ := strings.Cut(a, "=")
		switch name {
		case "-eval", "eval":
			if v, ok := val(); ok {
				w.res.add(Dangerous, "`"+chain+" --eval`: evaluates Lisp, which can run programs and change files")
				w.lispStrings(v.s)
			}
		case "-load", "l", "-script", "script", "x":
			if v, ok := val(); ok && (strings.Contains(v.s, "/") || strings.HasSuffix(v.s, ".el") ||
				name == "-script" || name == "script") {
				w.runFile(v.s, v.text, "emacs-lisp")
			}
		case "-funcall", "f":
			if v, ok := val(); ok && !strings.HasPrefix(v.s, "ert-run-tests") && v.s != "batch-byte-compile" &&
				v.s != "batch-native-compile" {
				w.res.add(Dangerous, "`"+chain+" -f "+v.text+"`: calls a Lisp function")
			}
		}
	}
}

// lispDelete finds Lisp's deletions of a directory or file named by a
// literal, ~ or $HOME: (delete-directory (expand-file-name "~") t).
var lispDelete = lazy.Regexp{Expr: `\((delete-directory|delete-file)\s+(?:"([^"]*)"|\((?:expand-file-name|file-truename|substitute-in-file-name)\s+"([^"]*)"\)|(\(getenv\s+"HOME"\)|user-home-directory|\(expand-file-name\s+"~/?"\)))\s*(t\b|nil\b)?`}

// lispStrings judges the shell commands of Lisp's shell-command and the
// like, when given as literal strings, and its deletions as rm's.
func (w *walker) lispStrings(code string) {
	for _, m := range lispDelete.Get().FindAllStringSubmatch(code, -1) {
		p := m[2] + m[3]
		if m[4] != "" {
			p = "~"
		}
		flags := "-f"
		if m[1] == "delete-directory" {
			flags = "-d"
			if m[5] == "t" {
				flags = "-rf"
			}
		}
		if p != "" && strings.Trim(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./~-") == "" {
			w.nested("rm "+flags+" -- "+p, input{})
		}
	}
	for _, f := range []string{"shell-command", "shell-command-to-string", "async-shell-command",
		"call-process-shell-command", "start-process-shell-command"} {
		for rest := code; ; {
			i := strings.Index(rest, "("+f)
			if i < 0 {
				break
			}
			rest = rest[i+len(f)+1:]
			if m := strLit.Get().FindStringSubmatch(rest); m != nil {
				w.nested(m[1]+m[2], input{})
			}
		}
	}
}
