package danger

import (
	"path"
	"strings"

	"github.com/qsh-shell/qsh/internal/lazy"
	"github.com/qsh-shell/qsh/policy/secret"
)

// codeFlag reports whether a is a flag of r whose value is code, and
// returns code attached to it (perl -e'…').
func codeFlag(r *rule, a string) (attached string, ok bool) {
	if r.kind == kindShell {
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && letters(a[1:]) && strings.Contains(a, "c") {
			return "", true
		}
		return "", false
	}
	for f := range strings.FieldsSeq(r.code) {
		if a == f {
			return "", true
		}
		if len(f) == 2 && strings.HasPrefix(a, f) && !strings.HasPrefix(a, "--") {
			return a[2:], true
		}
		// python -Ic, perl -ne, -pe, -lne: the code flag ends a cluster.
		if len(f) == 2 && strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && letters(a[1:]) && a[len(a)-1] == f[1] {
			return "", true
		}
	}
	return "", false
}

// readsStdin reports whether a shell or interpreter with these arguments
// runs code from its standard input.
func readsStdin(r *rule, args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if _, ok := codeFlag(r, a); ok {
			return false
		}
		if a == "-s" || a == "-" {
			return true
		}
		if a == "-m" {
			return false
		}
		if !strings.HasPrefix(a, "-") {
			return false
		}
		if takesValue(r.vals, a) {
			i++
		}
	}
	return true
}

// interp judges what a shell or interpreter runs: code given inline, a
// script file, or its standard input.
func (w *walker) interp(r *rule, chain string, args []arg, ops []int, io ioInfo) {
	name := chain
	lang := strings.TrimRight(name, "0123456789.")
	if io.net && r.kind == kindShell {
		w.res.add(Blocked, "reverse shell: `"+name+"` is wired to a network connection")
	}
	inPlace := false
	for i := 1; i < len(args); i++ {
		a := args[i].s
		if syntaxCheck(r, lang, a) {
			w.res.add(Safe, "`"+name+" "+a+"`: checks the syntax, runs nothing")
			return
		}
		if code, ok := codeFlag(r, a); ok {
			if code == "" {
				if r.kind == kindShell {
					// bash -c CODE: the code is the first operand after the flags.
					for j := i + 1; j < len(args); j++ {
						if !shellOption(args[j].s) {
							// bash -c CODE NAME ARGS…: $0 is NAME, $1… the rest.
							params := []string{}
							if j+2 < len(args) {
								for _, a := range args[j+2:] {
									params = append(params, a.s)
								}
							}
							saved := w.arg0
							w.arg0 = ""
							if j+1 < len(args) {
								w.arg0 = args[j+1].s
							}
							w.nestedWith(args[j].s, io.in, params)
							w.arg0 = saved
							return
						}
					}
					w.res.add(Dangerous, "`"+name+" -c` without code")
					return
				}
				if i+1 >= len(args) {
					return
				}
				code = args[i+1].s
				i++
			}
			if r.kind == kindShell {
				w.nested(code, io.in)
				return
			}
			w.inline(lang, code)
			w.stdinEval(r, name, lang, code, args, io)
			if inPlace || lang == "perl" && hasFlagLetter(args, 'i') || lang == "ruby" && hasFlagLetter(args, 'i') {
				for j := i + 1; j < len(args); j++ {
					if !strings.HasPrefix(args[j].s, "-") {
						w.writeTo(args[j].s, name+" -i", args[j].text)
					}
				}
			}
			return
		}
		switch {
		case a == "-V" || a == "--version" || a == "-h" || a == "--help" || a == "-v" && r.kind == kindInterp:
			w.res.add(Safe, "`"+name+" "+a+"`: prints help or version")
			return
		case a == "-S" && lang == "php" && i+1 < len(args):
			// php -S ADDR: a web server on ADDR.
			host, _, _ := strings.Cut(args[i+1].s, ":")
			if localHost(host) && host != "0.0.0.0" {
				w.res.add(Dev, "`php -S "+args[i+1].text+"`: serves the project locally")
			} else {
				w.res.add(Dangerous, "`php -S "+args[i+1].text+"`: serves files to the network")
			}
			return
		case lang == "node" && (a == "-r" || a == "--require" || a == "--import" || a == "--loader" ||
			a == "--experimental-loader" || strings.HasPrefix(a, "--require=") || strings.HasPrefix(a, "--import=") ||
			strings.HasPrefix(a, "--loader=") || strings.HasPrefix(a, "--experimental-loader=")):
			// Code node loads before the script: judged as NODE_OPTIONS is.
			opt := a
			if !strings.Contains(a, "=") && i+1 < len(args) {
				i++
				opt = a + " " + args[i].s
			}
			w.codeOptions("NODE_OPTIONS", opt, "`node "+opt+"`")
		case lang == "node" && strings.HasPrefix(a, "--inspect"):
			// A debugger: on another interface than loopback, whoever
			// reaches the port runs code in the program.
			w.codeOptions("NODE_OPTIONS", a, "`"+name+" "+args[i].text+"`")
		case (a == "--test" || a == "--run" || a == "--watch") && name == "node":
			w.res.add(Dev, "`node "+a+"`: runs the project's tests or scripts")
			return
		case lang == "ruby" && (a == "-run" || a == "-r" && i+1 < len(args) && args[i+1].s == "un"):
			// ruby -run -e httpd: un.rb's web server, on every interface
			// unless --bind-address says otherwise.
			for _, b := range args[i:] {
				if b.s == "httpd" {
					w.res.add(Dangerous, "`ruby -run -e httpd`: serves files to the network")
				}
			}
		case a == "-m" && r.kind == kindInterp && i+1 < len(args):
			w.pyModule(args[i+1:], io)
			return
		case a == "-s" || a == "-":
			w.stdinCode(r, name, lang, io)
			return
		case a == "-i" && r.kind == kindShell:
		case a == "/dev/stdin" || a == "/dev/fd/0" || a == "/proc/self/fd/0":
			w.stdinCode(r, name, lang, io)
			return
		case !strings.HasPrefix(a, "-"):
			w.runFile(a, args[i].text, lang)
			if !w.local(args[i:], io) {
				w.operands(args[i+1:])
				w.listens(path.Base(a), args[i:])
			}
			return
		case takesValue(r.vals, a):
			i++
		}
	}
	w.stdinCode(r, name, lang, io)
}

// syntaxCheck reports the flags that make a shell or interpreter only
// parse its code: sh -n (also in a cluster, -nx), node --check, ruby -c,
// php -l. perl -c is not one: it runs BEGIN blocks.
func syntaxCheck(r *rule, lang, a string) bool {
	switch {
	case r.kind == kindShell:
		return a == "-n" || a == "-o noexec" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") &&
			letters(a[1:]) && strings.Contains(a, "n")
	case lang == "node":
		return a == "--check" || a == "-c"
	case lang == "ruby":
		return a == "-c" || a == "-wc" || a == "-cw"
	case lang == "php":
		return a == "-l" || a == "--syntax-check"
	}
	return false
}

// shellOption reports whether a looks like an option a shell accepts
// before its -c code; anything else is taken for the code, the worst case.
func shellOption(a string) bool {
	if a == "-" || a == "--" || !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+") {
		return false
	}
	if strings.HasPrefix(a, "--") {
		return letters(strings.ReplaceAll(a[2:], "-", ""))
	}
	return letters(a[1:])
}

func hasFlagLetter(args []arg, c byte) bool {
	for _, a := range args[1:] {
		if strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.IndexByte(a.s, c) > 0 {
			return true
		}
	}
	return false
}

// stdinCode judges a shell or interpreter that runs what it reads.
func (w *walker) stdinCode(r *rule, name, lang string, io ioInfo) {
	switch io.in.kind {
	case inNone:
		if w.shared.runtime {
			// At run time a pipe's content cannot be seen, but the whole
			// string was judged with its pipelines before it ran.
			w.res.add(Safe, "`"+name+"`: reads its input, judged with the whole command")
			return
		}
		w.res.add(Dangerous, "`"+name+"`: starts an interactive session")
	case inData:
		if io.in.hidden {
			w.res.add(Dangerous, "`"+name+"`: runs code hidden by an encoding, which cannot be read at the prompt")
		}
		if r.kind == kindShell {
			w.nested(io.in.data, input{})
		} else {
			w.inline(lang, io.in.data)
		}
	case inDownload:
		w.res.add(Blocked, "`"+name+"` runs code downloaded from the network")
	case inFile:
		if io.in.data == "" {
			w.res.add(Dangerous, "`"+name+"`: runs code from a file not known before running")
			return
		}
		w.runFile(io.in.data, io.in.data, lang)
	default:
		w.res.add(Dangerous, "`"+name+"`: runs code from its input, which cannot be seen")
		for _, p := range io.in.parts {
			w.literal1(p) // the parts that can be seen
		}
	}
}

// pyModules maps `python -m X` to the command it amounts to.
var pyModules = lazy.Value[map[string]string]{Build: func() map[string]string {
	return map[string]string{
		"pytest": "pytest", "pip": "pip", "unittest": "pytest", "black": "black", "mypy": "mypy", "ruff": "ruff",
		"isort": "isort", "flake8": "flake8", "pylint": "pylint", "coverage": "coverage", "tox": "tox",
		"twine": "twine", "poetry": "poetry", "uv": "uv", "pipx": "pipx",
	}
}}

// pySafe are modules that only print; pyDev build or run project code.
var (
	pySafe = lazy.Value[map[string]bool]{Build: func() map[string]bool {
		return map[string]bool{"json.tool": true, "pydoc": true, "timeit": true, "site": true, "sysconfig": true, "platform": true, "tabnanny": true, "py_compile": false, "this": true, "calendar": true, "tokenize": true, "ast": true, "dis": true}
	}}
	pyDev = lazy.Value[map[string]bool]{Build: func() map[string]bool {
		return map[string]bool{"venv": true, "build": true, "py_compile": true, "compileall": true, "cProfile": true, "pdb": false, "doctest": true, "pytest_benchmark": true, "maturin": true, "nox": true, "grpc_tools.protoc": true, "pre_commit": true}
	}}
)

func (w *walker) pyModule(args []arg, io ioInfo) {
	mod := args[0].s
	switch {
	case pyModules.Get()[mod] != "":
		inner := append([]arg{{s: pyModules.Get()[mod], text: "python -m " + mod}}, args[1:]...)
		w.run(inner, io)
	case pySafe.Get()[mod]:
		w.res.add(Safe, "`python -m "+mod+"`: only prints")
	case pyDev.Get()[mod]:
		w.res.add(Dev, "`python -m "+mod+"`: builds or runs project code")
	case mod == "http.server" || mod == "SimpleHTTPServer":
		for _, a := range args {
			if a.s == "127.0.0.1" || a.s == "localhost" {
				w.res.add(Dev, "`python -m "+mod+"`: serves files locally")
				return
			}
		}
		w.res.add(Dangerous, "`python -m "+mod+"`: serves files on every network interface")
	default:
		if !strings.Contains(mod, ".") && w.cwd != "" && w.inside(w.cwd+"/"+mod) {
			w.res.add(Dev, "`python -m "+mod+"`: runs a module")
			return
		}
		w.res.add(Dangerous, "`python -m "+mod+"`: runs a module the classifier does not know")
	}
}

// homeItem are the ways code names the home directory.
const homeItem = `os\.path\.expanduser\(\s*["']~/?["']\s*\)|(?:pathlib\.)?Path\.home\(\)|` +
	`(?:require\(\s*["']os["']\s*\)|os)\.homedir\(\)|process\.env\.HOME|process\.env\[["']HOME["']\]|` +
	`os\.environ\[["']HOME["']\]|os\.environ\.get\(["']HOME["']\)|os\.getenv\(["']HOME["']\)|` +
	`ENV\[["']HOME["']\]|\$ENV\{HOME\}|Dir\.home|Deno\.env\.get\(["']HOME["']\)|getenv\(["']HOME["']\)|` +
	`expanduser\(["']~["']\)|Deno\.homeDir\(\)|os\.UserHomeDir\(\)|glob\(\s*["']~["']\s*\)|` +
	`File\.expand_path\(\s*["']~["']\s*\)|Sys\.getenv\(["']HOME["']\)|path\.expand\(\s*["']~/?["']\s*\)|\bhomedir\(\)`

var (
	// forkCall starts processes; endless is a loop without end. Both
	// together are a fork bomb.
	forkCall = lazy.Regexp{Expr: `\bfork\b|pcntl_fork|child_process|\bspawn|Process\.spawn|posix_spawn|os\.exec`}
	endless  = lazy.Regexp{Expr: `while\s*\(?\s*(1|true|True|fork|!0)\b|\bwhile\s*\(\s*\)|for\s*\(\s*;\s*;\s*\)|` +
		`\bloop\s*(\{|do\b)|iter\s*\(\s*int\s*,|itertools\.count|\buntil\s+(0|false)\b|\b1\s+while\b|` +
		`setInterval|\brepeat\b[\s\S]*\buntil\s+false|while\s+true\s+do`}
	// grows adds to what a program holds.
	grows = lazy.Regexp{Expr: `\.push\(|\.append\(|\.extend\(|\+=|\.concat\(|new Array|bytearray|\.repeat\(|` +
		`<<\s*["'\[]|\bpush\s*@`}
	// fetchCode downloads; runCode runs what it is given as code.
	fetchCode = lazy.Regexp{Expr: `urlopen|urllib|requests\.|httpx|http\.client|https?\.(get|request)|\bfetch\s*\(|` +
		`open-uri|URI\.open|Net::HTTP|LWP|HTTP::Tiny|\bget\s*\(\s*["']https?:|["']https?://|curl_exec|` +
		`socket\.http|axios|\bgot\s*\(`}
	runCode = lazy.Regexp{Expr: `\bexec\s*\(|\beval\b|Function\s*\(|instance_eval|class_eval|\bload(string)?\s*\(|` +
		`compile\s*\(|runIn\w*Context|import\s*\(|system\s*\(|\bsystem\s+["'$]|popen|subprocess|child_process|` +
		`execSync|\bsh\b|\bbash\b|import_module|__import__\(\s*\w|\bsource\s*\(|source_url|source_gist|` +
		`\binclude(_once)?\s*\(|\brequire(_once)?\s*\(\s*["']https?:|\bdofile\b|\bloadfile\b|\bdo\s+["']|` +
		`eval\s*\(\s*parse|runpy|Invoke-Expression|\biex\b`}
	// urlCall is a call whose first argument is a URL: the function's
	// name and the URL's host.
	urlCall = lazy.Regexp{Expr: `([\w.]*\w)\s*\(\s*["']https?://([^/"':]+)`}
	// pkgInstallCode: a language's own call that installs packages (R's
	// install.packages and remotes::install_github, Julia's Pkg.add,
	// pip.main(['install' …]), Ruby's Gem.install).
	pkgInstallCode = lazy.Regexp{Expr: `install\.packages\s*\(|\w+::install(_\w+)?\s*\(|\binstall_github\s*\(|` +
		`\bPkg\.(add|develop)\s*\(|pip\.main\s*\(|pip\._internal|Gem\.install|pkg_install\s*\(`}
	// reverseShell: a socket wired to a shell or process.
	socketUse   = lazy.Regexp{Expr: `(?i)socket|fsockopen|TCPSocket|net\.connect|new\s+net\.Socket|/dev/tcp/|IO::Socket`}
	shellAttach = lazy.Regexp{Expr: `(?i)/bin/(ba|z|da)?sh|subprocess|pty\.spawn|dup2|\bexec\s*[\(\s"']|spawn\(|popen|proc_open|system\(|sh -i|cmd\.exe`}
	// shellCall extracts the command string of system("…") and friends.
	shellCall = lazy.Regexp{Expr: `(?:os\.system|os\.popen|subprocess\.\w+|commands\.getoutput|system|exec|execSync|spawnSync|shell_exec|passthru|popen|\bqx|IO\.popen|%x|Runtime\.getRuntime\(\)\.exec)\s*\(?\s*(?:\[\s*)?(?:r|b|f)?("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|` + "`[^`]*`" + `)`}
	// argvCall extracts list-form calls: subprocess.run(["rm", "-rf", "/"]).
	argvCall = lazy.Regexp{Expr: `\[\s*((?:(?:"[^"]*"|'[^']*'|` + homeItem + `)\s*,?\s*)+)\]`}
	// listCall extracts list-form calls without brackets: perl's
	// system "rm", "-rf", $ENV{HOME}; ruby's system("rm", "-rf", Dir.home).
	listCall = lazy.Regexp{Expr: `(?:\bsystem|\bexec|\bspawn|execFileSync|spawnSync|execFile|pcntl_exec)\s*\(?\s*` +
		`((?:(?:"[^"]*"|'[^']*')\s*,\s*)+(?:"[^"]*"|'[^']*'|` + homeItem + `))`}
	// progArgv extracts a program named apart from its argument list:
	// spawnSync("rm", ["-rf", dir]), new Deno.Command("rm", {args: [...]}).
	progArgv = lazy.Regexp{Expr: `(?:spawnSync|spawn|execFileSync|execFile|Command)\s*\(\s*("[^"]*"|'[^']*')\s*,\s*` +
		`(?:\{\s*args\s*:\s*)?\[\s*((?:(?:"[^"]*"|'[^']*'|` + homeItem + `)\s*,?\s*)+)\]`}
	// argvItem is one item of such a list.
	argvItem  = lazy.Regexp{Expr: `"([^"]*)"|'([^']*)'|(` + homeItem + `)`}
	backticks = lazy.Regexp{Expr: "`([^`]*)`"}
	strLit    = lazy.Regexp{Expr: `"([^"\\]*)"|'([^'\\]*)'`}
	// deleteCall finds recursive deletions; the argument is judged as a path.
	deleteCall = lazy.Regexp{Expr: `(?:rmtree|rmSync|rmdirSync|Deno\.removeSync|Deno\.remove|os\.RemoveAll|remove_dir_all|rm_rf|rm_r|remove_tree|rimraf|fs\.rm|fs\.promises\.rm|FileUtils\.rm\w*|File::Path|deltree|\.rmdir|unlinkSync)\s*\(?\s*(.)`}
	// recursiveCall deletes a tree when recursiveFlag is given: R's
	// unlink(x, recursive = TRUE), Julia's rm(x, recursive=true).
	recursiveCall = lazy.Regexp{Expr: `\b(?:unlink|rm|file\.remove|remove)\s*\(\s*(.)`}
	recursiveFlag = lazy.Regexp{Expr: `recursive\s*=\s*(?:TRUE|T|true|True)\b`}
	// homeExpr are ways code names the home directory.
	homeExpr = lazy.Regexp{Expr: homeItem + `|["']~["']`}
	// writesCode are calls that write, delete, run programs or reach the network.
	writesCode = lazy.Regexp{Expr: `\bfork\b|pcntl_|open\s*\([^)]*["'][wax+]|\.write\w*\s*\(|write_text|write_bytes|unlink|remove\s*\(|rmdir|rmtree|rename|os\.replace|shutil\.(?:rmtree|move|copy|make_archive|unpack_archive|chown)|chmod|chown|mkdir|makedirs|writeFile|appendFile|copyFile|fs\.\w*(rm|write|unlink|rename|mkdir|copy|append|chmod)|\bsystem\b|subprocess|popen|\bexec\s*\(|execSync|spawn|child_process|\beval\s*\(|Function\(|__import__|importlib|compile\(|ctypes|urllib|requests\.|http\.client|urlopen|fetch\(|https?\.(get|request)|socket|smtplib|ftplib|paramiko|LWP|HTTP::|Net::|IO::Socket|` + "`" + `|\bqx|%x|File\.(write|delete|open)|FileUtils|IO\.popen|file_put_contents|fopen|shell_exec|passthru|proc_open|curl_|os\.execute|io\.popen|os\.remove|os\.rename|io\.open|kill\s*\(|os\.kill|signal|truncate|pickle|marshal|setattr|globals\(\)|__builtins__|getattr|vars\(|require\s*\(\s*['"](?:node:)?(fs|child_process|http|https|net|dgram|tls|http2|cluster|worker_threads|vm|inspector)['"]|setPriority|process\.(?:binding|dlopen|_linkedBinding|chdir|setuid|setgid)|\bimport\s*\(|require\s*\(\s*[^'"\s]|from\s+os\s+import|import\s+(os|sys|shutil|subprocess|socket|pathlib|glob|tempfile)\b.*\b(remove|unlink|rmtree|system|run|call|Popen|write|rename|mkdir|chmod|connect)|\bunlink\b|\bopen\s*\(\s*\w+\s*,\s*["']?[>+|]`}
	// perlWrites are Perl's and Ruby's calls that write: open without
	// parentheses, with a write or pipe mode or with a mode or name held
	// in a variable (2-argument open reads its mode from the name), and
	// the other calls that write, link or copy.
	perlWrites = lazy.Regexp{Expr: `\bopen\s*\(?\s*(?:my\s+)?[$\w]+\s*,\s*(?:["']\s*(?:\+?[>|]|-\|)|["'][^"']*\|\s*["']|\$)|` +
		`\bopen\s*\(?\s*["']\s*\||\bsysopen\b|\bsymlink\b|\blink\s*\(|\butime\b|IO::File|File::Copy|` +
		`(?:^|[^.\w])(?:copy|move)\s*\(|IO\.(?:write|binwrite|copy_stream)|File\.(?:new|binwrite|symlink|link|utime|truncate)|` +
		`\bdbmopen\b|\bsyscall\b|\.spew\b`}
	// envDump prints the whole environment.
	envDump = lazy.Regexp{Expr: `os\.environ\s*(\)|$|\.items|\.keys|\.values|\.copy)|dict\(os\.environ\)|process\.env\s*(\)|$|,|;)|\bENV\.to_h|\bENV\s*(\)|$|\.each|\.keys|\.inspect)|%ENV|getenv\(\)|environ\b[^\[.]|\$_ENV|\$_SERVER`}
	// envKeys read only the environment's names or their count:
	// sorted(os.environ), Object.keys(process.env), ENV.keys.
	envKeys = lazy.Regexp{Expr: `(?:sorted|list|len|set|tuple)\(\s*os\.environ\s*\)|os\.environ\.keys\(\)|` +
		`Object\.keys\(\s*process\.env\s*\)|\bENV\.(?:keys|size|length|count)\b|(?:scalar\s*\(?\s*)?keys\s*%ENV`}
	runsCommands = lazy.Regexp{Expr: `system|subprocess|popen|\bexec|spawn|child_process|shell_exec|passthru|proc_open|os\.execute|` + "`"}
	envName      = lazy.Regexp{Expr: `(?:os\.environ\[|os\.getenv\(|os\.environ\.get\(|process\.env\.|process\.env\[|ENV\[|\$ENV\{|getenv\()\s*["']?(\w+)`}
	// envComputed reads variables by a name computed at run time ($ENV{$_}
	// in a loop over keys %ENV): any of them, so all of them.
	envComputed = lazy.Regexp{Expr: `\$ENV\{\s*\$|(?:os\.environ\[|os\.environ\.get\(|os\.getenv\(|process\.env\[|\bENV\[|\bENV\.fetch\()\s*[A-Za-z_$]|getenv\(\s*\$`}
)

// inline judges code given to an interpreter on the command line.
func (w *walker) inline(lang, code string) {
	label := "`" + lang + "` code"
	switch lang {
	case "python", "pypy":
		label = "`" + lang + " -c`"
	case "node", "nodejs", "bun", "perl", "ruby", "lua", "Rscript":
		label = "`" + lang + " -e`"
	case "php":
		label = "`php -r`"
	}
	if strings.ContainsRune(code, holeDL) {
		w.res.add(Blocked, label+": runs code downloaded from the network")
		return
	}
	if hasHole(code) {
		w.res.add(Dangerous, label+": code not known before running")
	}
	if lang == "awk" || lang == "gawk" || lang == "mawk" || lang == "nawk" {
		w.awkCode(code, nil)
		return
	}
	if mayContain(code, "sock", "Sock", "/dev/tcp", "net.connect") && socketUse.Get().MatchString(code) &&
		shellAttach.Get().MatchString(code) {
		w.res.add(Blocked, label+": reverse shell (a socket wired to a shell)")
		return
	}
	if lang != "python" && lang != "node" && lang != "nodejs" && lang != "pwsh" {
		for _, m := range backticks.Get().FindAllStringSubmatch(code, -1) {
			w.nested(m[1], input{})
		}
	}
	for _, m := range shellCall.Get().FindAllStringSubmatch(code, -1) {
		s := m[1]
		w.nested(unquoteCode(s), input{})
	}
	for _, re := range []*lazy.Regexp{&argvCall, &listCall, &progArgv} {
		for _, m := range re.Get().FindAllStringSubmatch(code, -1) {
			var argv []arg
			if re == &progArgv {
				prog := unquoteCode(m[1])
				argv, m[1] = []arg{{s: prog, text: prog}}, m[2]
			}
			for _, l := range argvItem.Get().FindAllStringSubmatch(m[1], -1) {
				v := l[1] + l[2]
				if l[3] != "" {
					v = w.ws.Home
				}
				argv = append(argv, arg{s: v, text: v})
			}
			if len(argv) > 0 && lookup(commandBase(argv[0].s)) != nil {
				w.exec(argv, ioInfo{})
			}
		}
	}
	if mayContain(code, "fork", "spawn", "child_process", "os.exec") && forkCall.Get().MatchString(code) &&
		endless.Get().MatchString(code) {
		w.res.add(Blocked, label+": fork bomb (starts processes in an endless loop)")
		return
	}
	if mayContain(code, "http", "url", "requests", "fetch", "URI", "LWP", "get(", "got(", "axios") &&
		fetchCode.Get().MatchString(code) && runCode.Get().MatchString(code) {
		w.res.add(Blocked, label+": downloads code and runs it")
		return
	}
	if fetches := w.urlCalls(label, code); fetches || mayContain(code, "http", "url", "requests", "fetch", "URI",
		"LWP", "get(", "got(", "axios") && fetchCode.Get().MatchString(code) {
		w.codeSaves(code)
	}
	dels := deleteCall.Get().FindAllStringSubmatchIndex(code, -1)
	if mayContain(code, "recursive") && recursiveFlag.Get().MatchString(code) {
		dels = append(dels, recursiveCall.Get().FindAllStringSubmatchIndex(code, -1)...)
	}
	for _, m := range dels {
		target := strings.TrimSpace(callArg(code[m[2]:]))
		p := w.codePath(target)
		if p == "" {
			w.res.add(Dangerous, label+": deletes files recursively")
			continue
		}
		if why := w.catastrophic(p); why != "" {
			w.res.add(Blocked, label+": "+why)
		} else {
			w.res.add(Dangerous, label+": deletes files")
		}
	}
	if mayContain(code, "install", "Pkg.add", "pip.main", "pkg_install") && pkgInstallCode.Get().MatchString(code) {
		w.res.add(Dangerous, label+": installs packages for the user, outside the project")
	}
	w.codeReads(label, code)
	if lang == "pwsh" || lang == "powershell" {
		w.pwshCode(label, code)
		return
	}
	w.encoded(lang, code)
	if hugeAlloc(code) || endless.Get().MatchString(code) && grows.Get().MatchString(code) {
		w.res.add(Dangerous, label+": allocates memory without bound, which may exhaust the machine")
	}
	if envDump.Get().MatchString(code) && envDump.Get().MatchString(envKeys.Get().ReplaceAllString(code, "")) {
		w.discloses(label + ": prints environment variables, which may include secrets")
	}
	if envComputed.Get().MatchString(code) {
		w.discloses(label + ": reads environment variables by a name computed when it runs, which may be any secret")
	}
	for _, m := range envName.Get().FindAllStringSubmatch(code, -1) {
		if secret.Var(m[1]) {
			w.discloses(label + ": reads the secret `" + m[1] + "`")
		}
	}
	if writesCode.Get().MatchString(code) || (lang == "perl" || lang == "ruby") && perlWrites.Get().MatchString(code) {
		w.res.add(Dangerous, label+": code can write, delete, run programs or reach the network")
		if runsCommands.Get().MatchString(code) {
			w.literals(code)
			w.joined(code)
		}
		return
	}
	w.res.add(Safe, label+": computes and prints")
}

// urlCalls judges calls whose first argument is the URL of another
// host (PHP's copy and file_get_contents, which fetch any URL they are
// given): network use, dangerous. A URL printed is text.
func (w *walker) urlCalls(label, code string) bool {
	if !strings.Contains(code, "://") {
		return false
	}
	fetches := false
	for _, m := range urlCall.Get().FindAllStringSubmatch(code, -1) {
		if printCalls[m[1]] {
			continue
		}
		if localHost(m[2]) {
			w.res.add(Dev, label+": `"+m[1]+"` talks to this machine")
			continue
		}
		fetches = true
		w.res.add(Dangerous, label+": `"+m[1]+"` reaches "+m[2]+" over the network")
	}
	return fetches
}

// printCalls print their arguments: a URL given to them is text.
var printCalls = map[string]bool{"print": true, "println": true, "printf": true, "echo": true, "puts": true,
	"log": true, "info": true, "warn": true, "error": true, "debug": true, "say": true, "write": true,
	"writeln": true, "format": true, "sprintf": true, "str": true, "String": true, "len": true}

// codeSaves records the files inline code that downloads names (PHP's
// copy(URL, FILE), urlretrieve(URL, FILE), open(FILE, 'wb')): what they
// hold may be the download, so a later command that runs one runs code
// from the network.
func (w *walker) codeSaves(code string) {
	for _, m := range strLit.Get().FindAllStringSubmatch(code, -1) {
		v := m[1] + m[2]
		if v == "" || strings.Contains(v, "://") || strings.ContainsAny(v, " \t\n$%{}") ||
			strings.HasPrefix(v, "-") || !strings.ContainsAny(v, "./") {
			continue
		}
		if p, ok := w.abs(v); ok {
			w.shared.download(p)
		}
	}
}

// mayContain reports whether code holds one of the words, a cheap test
// before a costly regular expression that needs one of them.
func mayContain(code string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(code, w) {
			return true
		}
	}
	return false
}

// callArg is the first argument at the start of s: up to a comma or
// closing parenthesis at depth zero.
func callArg(s string) string {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			if depth == 0 {
				return s[:i]
			}
			depth--
		case (c == ',' || c == ';') && depth == 0:
			return s[:i]
		}
	}
	return s
}

// literals judges each string literal of code that runs commands as if it
// were a command: the value may reach system() through a variable.
func (w *walker) literals(code string) {
	for _, m := range strLit.Get().FindAllStringSubmatch(code, 64) {
		if s := m[1] + m[2]; strings.Contains(s, " ") {
			w.literal1(s)
		}
	}
}

// joined judges the strings code builds from literal pieces: "r"+"m -rf ~",
// "r"."m", "".join(["r","m"," -rf ~"]), ["rm","-rf","/"].join(" "). A run is
// literals with only joining punctuation between them; it is judged joined
// with nothing and with spaces between the pieces (a separator given to
// join is one of the pieces, so both readings cover it closely enough).
func (w *walker) joined(code string) {
	for _, run := range literalRuns(code) {
		if len(run) > 1 {
			w.literal1(strings.Join(run, ""))
			w.literal1(strings.Join(run, " "))
		}
	}
}

// literalRuns are the runs of string literals of code with only joining
// punctuation between them (see joined).
func literalRuns(code string) [][]string {
	var runs [][]string
	var run []string
	end := -1
	for _, m := range strLit.Get().FindAllStringSubmatchIndex(code, 64) {
		if end >= 0 && !joinGap(code[end:m[0]]) {
			runs, run = append(runs, run), nil
		}
		if m[2] >= 0 {
			run = append(run, code[m[2]:m[3]])
		} else {
			run = append(run, code[m[4]:m[5]])
		}
		end = m[1]
	}
	if run != nil {
		runs = append(runs, run)
	}
	return runs
}

// joinGap reports whether what stands between two literals only joins
// them: concatenation operators, list punctuation and a call of join.
func joinGap(gap string) bool {
	return strings.Trim(strings.ReplaceAll(gap, "join", ""), " \t+.,[]()") == ""
}

// literal1 judges s as shell code when it parses, keeping only what is
// worse than dangerous: a literal that is not a command says nothing.
func (w *walker) literal1(s string) {
	c := w.clone()
	c.res = &result{}
	c.nested(s, input{})
	if c.res.class == Blocked {
		for _, r := range c.res.reasons {
			w.res.add(Blocked, r)
		}
	}
}

func unquoteCode(s string) string {
	if len(s) >= 2 {
		s = s[1 : len(s)-1]
	}
	return strings.NewReplacer(`\"`, `"`, `\'`, `'`, `\\`, `\`, `\n`, "\n").Replace(s)
}

// codePath turns the argument of a deletion call into a path, or "".
func (w *walker) codePath(expr string) string {
	e := homeExpr.Get().ReplaceAllString(expr, `"`+w.ws.Home+`"`)
	e = strings.ReplaceAll(e, `" + "`, "")
	e = strings.ReplaceAll(e, `' + '`, "")
	e = strings.ReplaceAll(e, `" + '`, "")
	e = strings.ReplaceAll(e, `' + "`, "")
	e = strings.TrimSpace(e)
	for _, p := range []string{"Path(", "path.join(", "os.path.join(", "File.join("} {
		e = strings.TrimPrefix(e, p)
	}
	e = strings.TrimPrefix(e, "r")
	m := strLit.Get().FindStringSubmatch(e)
	if m == nil || !strings.HasPrefix(e, m[0]) {
		return ""
	}
	v := m[1] + m[2]
	if v == "~" || strings.HasPrefix(v, "~/") {
		v = w.ws.Home + v[1:]
	}
	p, ok := w.abs(v)
	if !ok {
		return ""
	}
	return p
}

// deno judges deno run, serve and eval: a script given by URL (https:,
// jsr:, npm:) is code from the network, run with whatever permissions the
// flags grant; -A and --allow-run or --allow-write let it do anything.
func (w *walker) deno(chain string, args []arg, io ioInfo) {
	broad := false
	for i := 1; i < len(args); i++ {
		a := args[i].s
		name, _, _ := strings.Cut(a, "=")
		switch {
		case name == "--allow-write" && strings.Contains(a, "="):
			for _, d := range strings.Split(strings.SplitN(a, "=", 2)[1], ",") {
				if p, ok := w.abs(d); !ok || !(w.inside(p) || p == w.ws.Dir) {
					w.res.add(Dangerous, "`"+chain+" "+a+"`: lets the code write outside the workspace")
					break
				}
			}
			broad = true
		case a == "-A" || name == "--allow-all" || name == "--allow-run" || name == "--allow-write" ||
			name == "--allow-ffi" || name == "--allow-sys" || name == "--allow-env":
			broad = true
		case strings.HasSuffix(chain, "eval") && !strings.HasPrefix(a, "-"):
			w.inline("deno", a)
			return
		case !strings.HasPrefix(a, "-"):
			if !strings.Contains(a, ":") {
				w.runFile(a, args[i].text, "node")
			}
			if strings.Contains(a, "://") || strings.HasPrefix(a, "jsr:") || strings.HasPrefix(a, "npm:") {
				// Deno's permissions narrow what the code may do, but it is
				// still code from the network, run: blocked as curl | sh is.
				why := "downloads code and runs it"
				if broad {
					why += " with every permission"
				}
				w.res.add(Blocked, "`"+chain+" "+args[i].text+"`: "+why)
			}
			return
		}
	}
}

// homeJoin is the home directory joined to a literal: process.env.HOME +
// "/.npmrc", os.path.join(os.path.expanduser("~"), ".netrc").
var homeJoin = lazy.Regexp{Expr: `(?:` + homeItem + `)\s*(?:\+|,)\s*["']([^"']+)["']`}

// codeReads judges the files code names by literal paths: reading a
// secret file is dangerous whatever reads it.
func (w *walker) codeReads(label, code string) {
	var paths []string
	for _, m := range strLit.Get().FindAllStringSubmatch(code, 64) {
		v := m[1] + m[2]
		switch {
		case strings.HasPrefix(v, "~/"):
			paths = append(paths, w.ws.Home+v[1:])
		case strings.HasPrefix(v, "/") || strings.HasPrefix(v, ".") && !strings.Contains(v, " "):
			paths = append(paths, v)
		}
	}
	for _, m := range homeJoin.Get().FindAllStringSubmatch(code, 16) {
		paths = append(paths, w.ws.Home+"/"+strings.TrimPrefix(m[1], "/"))
	}
	for _, v := range paths {
		p, ok := w.abs(v)
		if !ok {
			continue
		}
		if why := w.secretFile(p); why != "" {
			w.discloses(label + ": reads `" + v + "`, which may hold secrets (" + why + ")")
			return
		}
	}
}
