package danger

import (
	"strings"

	"github.com/qsh-shell/qsh/internal/lazy"
)

// Runtimes that run a program file they are given (java -jar, go run,
// bun, dotnet): the file is judged where it lies, as a script given to an
// interpreter is (runFile): the project's own code is dev, a file
// elsewhere (~/Downloads, /tmp) dangerous, one this line downloads
// blocked. Their debuggers, told to listen on every interface, let anyone
// who reaches the port run code in them.

// java judges java's options and the program it runs: -jar FILE, a
// source file (java Main.java), agents, and a JDWP debugger's address.
func (w *walker) java(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		a := args[i].s
		switch {
		case a == "-jar" || a == "--jar":
			if i+1 < len(args) {
				w.runFile(args[i+1].s, args[i+1].text, "java")
			}
			return
		case strings.Contains(a, "jdwp"):
			w.jdwp(chain, a)
		case strings.HasPrefix(a, "-javaagent:") || strings.HasPrefix(a, "-agentpath:"):
			w.codeOptions("JAVA_TOOL_OPTIONS", a, "`"+chain+" "+args[i].text+"`")
		case a == "-cp" || a == "-classpath" || a == "--class-path" || a == "-p" || a == "--module-path" ||
			a == "--add-modules" || a == "-m" || a == "--module" || a == "-d" || a == "--source":
			i++
			if a == "-m" || a == "--module" {
				return // a module's main class: the class path's code
			}
		case !strings.HasPrefix(a, "-"):
			if strings.HasSuffix(a, ".java") || strings.Contains(a, "/") {
				w.runFile(a, args[i].text, "java")
			}
			return
		}
	}
}

// jdwp judges a JDWP agent's options (-agentlib:jdwp=…,address=HOST:PORT,
// -Xrunjdwp:…): a debugger server on every interface, or on another
// host's, gives whoever connects the program's powers.
func (w *walker) jdwp(chain, a string) {
	_, opts, _ := strings.Cut(a, "jdwp")
	opts = strings.TrimLeft(opts, "=:")
	server := false
	addr := ""
	for o := range strings.SplitSeq(opts, ",") {
		k, v, _ := strings.Cut(o, "=")
		switch k {
		case "server":
			server = v == "y"
		case "address":
			addr = v
		}
	}
	if !server {
		return // it connects out to a debugger that listens
	}
	host, _, hasPort := strings.Cut(addr, ":")
	if hasPort && (host == "*" || everyInterface(addr) || !localHost(host)) {
		w.res.add(Dangerous, "`"+chain+" "+a+"`: opens a debugger to the network, which runs any code it is sent")
	}
}

// goRun judges the files or directory go run builds and runs.
func (w *walker) goRun(chain string, args []arg, io ioInfo) {
	ops := scan(&rule{vals: "-o -p -C -exec -tags -ldflags -gcflags -asmflags -mod -modfile -overlay -pgo -toolexec " +
		"-buildmode -compiler -gccgoflags -installsuffix -pkgdir"}, args)
	for j, i := range ops {
		a := args[i].s
		switch {
		case strings.HasSuffix(a, ".go"):
			w.runFile(a, args[i].text, "go")
			continue
		case j == 0 && (strings.HasPrefix(a, "/") || strings.HasPrefix(a, "..")):
			w.runFile(a, args[i].text, "go")
		}
		return
	}
}

// runtimeFile judges the first operand of a runtime that takes a program
// file (bun x.ts, dotnet app.dll) when it names a file by its path or
// extension; a name alone is a script or subcommand of the project.
func (w *walker) runtimeFile(chain string, args []arg, exts ...string) {
	ops := scan(lookup(firstWord(chain)), args)
	if len(ops) == 0 {
		return
	}
	a := args[ops[0]]
	for _, e := range exts {
		if strings.HasSuffix(a.s, e) || strings.Contains(a.s, "/") && !strings.Contains(a.s, "://") {
			w.runFile(a.s, a.text, firstWord(chain))
			return
		}
	}
}

func (w *walker) dotnetFile(chain string, args []arg, io ioInfo) {
	w.runtimeFile(chain, args, ".dll", ".exe")
}

var (
	// juliaPkg is code that only runs Pkg's project operations: the
	// project's tests, build and environment.
	juliaPkg = lazy.Regexp{Expr: `^\s*(?:(?:using|import)\s+Pkg\s*[;\n]\s*)?(?:Pkg\.(?:test|build|instantiate|resolve|` +
		`status|precompile|activate)\(\s*(?:"[^"$]*"|\.|[\w=]*)?\s*\)\s*[;\n]?\s*)+$`}
	// juliaActs are Julia's calls that run programs, touch files, load
	// code or reach the network; backquotes make a command.
	juliaActs = lazy.Regexp{Expr: `\b(?:run|rm|mv|cp|mkdir|mkpath|touch|chmod|chown|symlink|hardlink|download|ccall|` +
		`include|eval|pipeline|write|open|cd|kill|spawn|Libc|Downloads|Sockets|Distributed|addprocs|Pkg)\b|` + "`"}
)

// julia judges julia's inline code (-e, -E, --eval, --print) or the
// script it runs.
func (w *walker) julia(chain string, args []arg, io ioInfo) {
	for i := 1; i < len(args); i++ {
		flag, v, hasV := strings.Cut(args[i].s, "=")
		if flag != "-e" && flag != "-E" && flag != "--eval" && flag != "--print" {
			continue
		}
		if !hasV && i+1 < len(args) {
			i++
			v = args[i].s
		}
		switch {
		case juliaPkg.Get().MatchString(v):
			w.res.add(Dev, "`julia -e`: runs the package manager on the project (tests, build, environment)")
		default:
			w.inline("julia", v)
			if juliaActs.Get().MatchString(v) {
				w.res.add(Dangerous, "`julia -e`: code can write, delete, run programs or reach the network")
			}
		}
		return
	}
	w.script1(chain, args, io)
}
