package danger

import (
	"github.com/qsh-shell/qsh/internal/lazy"
)

// Inline code that reads its standard input and evaluates what it read
// (python3 -c 'exec(sys.stdin.read())', perl -e 'eval join "",<STDIN>',
// ruby -e 'eval STDIN.read') runs its input as `python3 -` does: fed
// from a download it runs code from the network. Code that reads its
// input as data (json.load(sys.stdin)) is judged for itself alone.

// stdinLangs are, for each interpreter, what reads the standard input,
// what evaluates a string as the language's code, and what runs a
// string as a shell command.
type stdinLang struct {
	read, eval, shell *lazy.Regexp
}

var stdinLangs = lazy.Value[map[string]stdinLang]{Build: func() map[string]stdinLang {
	return map[string]stdinLang{
		"python": {
			read: &lazy.Regexp{Expr: `sys\.stdin|\binput\s*\(|\bopen\s*\(\s*0\s*[,)]|/dev/stdin|/dev/fd/0|/proc/self/fd/0|\bfileinput\b`},
			// ast.literal_eval and re.compile are not evaluators: the
			// character before the name must not be a word's or a dot.
			eval: &lazy.Regexp{Expr: `(?:^|[^\w.]|\bbuiltins\.)(?:exec|eval|compile|execfile)\s*\(|\bpickle\.loads?\s*\(|` +
				`\binteract\s*\(|\brunpy\b`},
			shell: &lazy.Regexp{Expr: `\bos\.(?:system|popen)\s*\(|\bshell\s*=\s*True|\bpty\.spawn\s*\(`},
		},
		"perl": {
			read: &lazy.Regexp{Expr: `<STDIN>|<>|<<>>|<ARGV>|\bSTDIN\b|/dev/stdin|/dev/fd/0`},
			// eval BLOCK catches errors; eval EXPR (and a bare eval, of $_)
			// runs a string.
			eval:  &lazy.Regexp{Expr: `\beval\b\s*(?:[^\s{]|$)|\bdo\s*\(?\s*['"]/dev/(?:stdin|fd/0)`},
			shell: &lazy.Regexp{Expr: "\\b(?:system|exec|qx)\\b|`|\\bopen\\b[^;]*\\|"},
		},
		"ruby": {
			read: &lazy.Regexp{Expr: `\$stdin|\bSTDIN\b|\bARGF\b|\$<|(?:^|[^\w.])(?:gets|readlines|readline)\b|/dev/stdin`},
			eval: &lazy.Regexp{Expr: `(?:^|[^\w.:]|\b(?:Kernel|binding|TOPLEVEL_BINDING)\.)(?:eval|instance_eval|class_eval|module_eval)\b|` +
				`\b(?:load|require)\s*\(?\s*['"]/dev/(?:stdin|fd/0)`},
			shell: &lazy.Regexp{Expr: "(?:^|[^\\w.])(?:system|exec|spawn)\\b|%x|\\bIO\\.popen\\b|\\bOpen3\\.|`"},
		},
		"node": {
			read: &lazy.Regexp{Expr: `process\.stdin|readFileSync\s*\(\s*(?:0\b|['"]/dev/(?:stdin|fd/0)|process\.stdin)|/dev/stdin|` +
				`\bBun\.stdin\b|\bDeno\.stdin\b`},
			eval: &lazy.Regexp{Expr: `(?:^|[^\w.$])eval\b|(?:^|[^\w.$])Function\s*\(|\bvm\.\w+|require\s*\(\s*['"](?:node:)?vm['"]|` +
				`\._compile\s*\(|\bimport\s*\(\s*['"` + "`" + `]data:`},
			shell: &lazy.Regexp{Expr: `\b(?:exec|execSync|spawn|spawnSync|execFile|execFileSync)\s*\(|child_process|\bBun\.spawn`},
		},
		"php": {
			read: &lazy.Regexp{Expr: `\bSTDIN\b|php://stdin|/dev/stdin|(?:^|[^\w>:$])readline\s*\(`},
			eval: &lazy.Regexp{Expr: `(?:^|[^\w>:$])(?:eval|assert|create_function)\s*\(|` +
				`\b(?:include|require)(?:_once)?\b[^;]*(?:php://stdin|/dev/stdin)`},
			shell: &lazy.Regexp{Expr: "(?:^|[^\\w>:$])(?:system|exec|shell_exec|passthru|popen|proc_open)\\s*\\(|`"},
		},
		"lua": {
			// dofile() and loadfile() without a name read the input.
			read:  &lazy.Regexp{Expr: `\bio\.(?:read|stdin)\b|\bio\.lines\s*\(\s*\)|\b(?:dofile|loadfile)\s*\(\s*\)`},
			eval:  &lazy.Regexp{Expr: `(?:^|[^\w.:])(?:load|loadstring|dofile|loadfile)\s*[(\s'"]`},
			shell: &lazy.Regexp{Expr: `\bos\.execute\b|\bio\.popen\b`},
		},
	}
}}

// stdinLangOf maps an interpreter's name (without its version) to its
// entry in stdinLangs.
var stdinLangOf = map[string]string{"python": "python", "pypy": "python", "perl": "perl", "ruby": "ruby",
	"node": "node", "nodejs": "node", "bun": "node", "php": "php", "lua": "lua", "luajit": "lua"}

// stdinEval judges inline code of an interpreter that reads its standard
// input (or loops over it: perl -n, -p) and evaluates or runs what it
// read: the input is the code, judged as a script given on the input is.
func (w *walker) stdinEval(r *rule, name, lang, code string, args []arg, io ioInfo) {
	if io.in.kind == inNone {
		return
	}
	l, ok := stdinLangs.Get()[stdinLangOf[lang]]
	if !ok {
		return
	}
	loops := (lang == "perl" || lang == "ruby") && (hasFlagLetter(args, 'n') || hasFlagLetter(args, 'p'))
	if !loops && !l.read.Get().MatchString(code) {
		return
	}
	evals, shells := l.eval.Get().MatchString(code), l.shell.Get().MatchString(code)
	if !evals && !shells {
		return
	}
	switch io.in.kind {
	case inDownload:
		w.res.add(Blocked, "`"+name+"`: its code runs what it reads from its input, downloaded from the network")
	case inData:
		if io.in.hidden {
			w.res.add(Dangerous, "`"+name+"`: runs code hidden by an encoding, which cannot be read at the prompt")
		}
		if evals {
			w.inline(lang, io.in.data)
		}
		if shells {
			w.nested(io.in.data, input{})
		}
	default:
		if evals {
			w.stdinCode(r, name, lang, io)
		} else {
			w.res.add(Dangerous, "`"+name+"`: runs commands it reads from its input")
		}
	}
}
