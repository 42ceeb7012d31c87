package danger

import (
	"slices"
	"strings"

	"github.com/qsh-shell/qsh/internal/lazy"
	"github.com/qsh-shell/qsh/policy/secret"
)

// Checks for text tools whose scripts can run commands or write files.

// awk judges an awk command: its program (inline, from -f, or from a
// here-string), with the values -v and NAME=value operands give it.
func (w *walker) awk(chain string, args []arg, io ioInfo) {
	r := &rule{vals: "-F -v -f --field-separator --assign --file -E --exec -i --include -l --load"}
	ops := scan(r, args)
	var values []string
	prog, haveProg := "", false
	inplace := false
	for i := 1; i < len(args); i++ {
		a := args[i].s
		if i+1 >= len(args) {
			break
		}
		switch a {
		case "-v", "--assign":
			_, v, _ := strings.Cut(args[i+1].s, "=")
			values = append(values, v)
			i++
		case "-f", "--file", "-E", "--exec", "-i", "--include":
			f := args[i+1].s
			if (a == "-i" || a == "--include") && (f == "inplace" || f == "inplace.awk") {
				// gawk's inplace library: each file operand is rewritten.
				inplace = true
				i++
				continue
			}
			switch p, ok := w.abs(f); {
			case (f == "-" || f == "/dev/stdin") && io.in.kind == inData:
				prog, haveProg = prog+"\n"+io.in.data, true
			case ok && w.shared.scripts[p] != "" && !hasHole(w.shared.scripts[p]):
				prog, haveProg = prog+"\n"+w.shared.scripts[p], true
			case strings.ContainsRune(f, holeDL) || ok && w.downloaded(p) ||
				(f == "-" || f == "/dev/stdin") && io.in.kind == inDownload:
				w.res.add(Blocked, "`"+chain+" -f "+f+"`: runs an awk program downloaded from the network")
			case ok && w.inside(p):
				w.res.add(Dev, "`"+chain+" -f "+f+"`: runs the project's awk program")
			default:
				w.res.add(Dangerous, "`"+chain+" -f "+f+"`: runs an awk program not known before running")
			}
			i++
		case "-l", "--load":
			w.res.add(Dangerous, "`"+chain+" -l`: loads native code")
			i++
		}
	}
	if !haveProg && len(ops) > 0 && !slices.ContainsFunc(args, func(a arg) bool {
		return a.s == "-f" || a.s == "--file" || a.s == "-E" || a.s == "--exec"
	}) {
		prog, haveProg = args[ops[0]].s, true
		ops = ops[1:]
	}
	for _, i := range ops {
		if name, v, ok := strings.Cut(args[i].s, "="); ok && name != "" && !strings.Contains(name, "/") {
			values = append(values, v)
		} else if inplace {
			w.writeTo(args[i].s, chain+" -i inplace", args[i].text)
		}
	}
	if haveProg {
		w.awkCode(prog, values)
	}
}

var (
	// awkLiteral is an awk string; awkOut a print's redirection to a
	// string, awkCmdIn a command piped into getline, awkFileIn getline's file.
	awkOut    = lazy.Regexp{Expr: `(>>?|\|&?)\s*"((?:[^"\\]|\\.)*)"`}
	awkCmdIn  = lazy.Regexp{Expr: `"((?:[^"\\]|\\.)*)"\s*\|&?\s*getline`}
	awkFileIn = lazy.Regexp{Expr: `getline\b[^<;}]*<\s*"((?:[^"\\]|\\.)*)"`}
	awkString = lazy.Regexp{Expr: `"(?:[^"\\\n]|\\.)*"`}
	// awkPrintTo is a print of a literal piped to a command: print "…" | "sh".
	awkPrintTo = lazy.Regexp{Expr: `print[f]?\s*\(?\s*"((?:[^"\\]|\\.)*)"\s*\)?\s*\|\s*"((?:[^"\\]|\\.)*)"`}
	// awkOutDir is a print to a file named by an expression that starts
	// with a literal directory: print > ("out/" $1 ".txt").
	awkOutDir = lazy.Regexp{Expr: `>>?\s*\(\s*"((?:[^"\\]|\\.)*/)"[^)]*\)`}
	awkSystem = lazy.Regexp{Expr: `system\s*\(\s*"((?:[^"\\]|\\.)*)"\s*\)`}
	// awkRuns are uses that run commands or write files.
	awkRuns = lazy.Regexp{Expr: `system\s*\(|\|\s*getline|\|&|print[f]?\b[^;}]*[^>=!<(]>{1,2}\s*[^=\s]|` +
		`print[f]?\b[^;}]*\|\s*[^|\s]|/inet/|\bfflush\s*\(\s*"`}
	// awkEnv prints every variable.
	awkEnv = lazy.Regexp{Expr: `for\s*\(\s*\w+\s+in\s+ENVIRON|print[f]?\s+ENVIRON\s*[;}]`}
)

// awkNoStrings is code with its string literals emptied, so that text
// such as print "system(…)" is not taken for a call. A program with a `/`
// outside strings is kept whole: a regex literal (/"/) would throw the
// strings off.
func awkNoStrings(code string) string {
	blank := awkString.Get().ReplaceAllString(code, `""`)
	if strings.Contains(blank, "/") {
		return code
	}
	return blank
}

// awkCode judges an awk program. values are the strings -v and NAME=value
// give it, which reach system() and pipes through variables.
func (w *walker) awkCode(code string, values []string) {
	if strings.ContainsRune(code, holeDL) {
		w.res.add(Blocked, "`awk`: runs code downloaded from the network")
		return
	}
	if hasHole(code) {
		w.res.add(Dangerous, "`awk`: a program not known before running")
	}
	if strings.Contains(code, "/inet/") {
		w.res.add(Blocked, "`awk`: opens a network connection to run commands (reverse shell)")
		return
	}
	unq := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, `\"`, `"`), `\\`, `\`) }
	for _, m := range awkSystem.Get().FindAllStringSubmatch(code, -1) {
		w.nested(unq(m[1]), input{})
	}
	for _, m := range awkCmdIn.Get().FindAllStringSubmatch(code, -1) {
		w.nested(unq(m[1]), input{})
	}
	for _, m := range awkFileIn.Get().FindAllStringSubmatch(code, -1) {
		p, ok := w.abs(unq(m[1]))
		w.readFile(p, ok, "`awk getline < \""+m[1]+"\"`")
	}
	for _, m := range envName.Get().FindAllStringSubmatch(strings.ReplaceAll(code, "ENVIRON[", "ENV["), -1) {
		if secret.Var(m[1]) {
			w.discloses("`awk`: reads the secret `" + m[1] + "`")
		}
	}
	if awkEnv.Get().MatchString(code) {
		w.discloses("`awk`: prints every environment variable, which may include secrets")
	}
	if !awkRuns.Get().MatchString(code) || !awkRuns.Get().MatchString(awkNoStrings(code)) {
		w.res.add(Safe, "`awk`: the program only prints")
		return
	}
	// Redirections to named files are judged as writes; anything else
	// (a pipe, system(), a file named by an expression) runs commands or
	// writes where the classifier cannot see.
	rest := code
	printed := map[string]string{}
	for _, m := range awkPrintTo.Get().FindAllStringSubmatch(code, -1) {
		printed[unq(m[2])] += unq(m[1]) + "\n"
	}
	for _, m := range awkOut.Get().FindAllStringSubmatchIndex(code, -1) {
		op, target := code[m[2]:m[3]], unq(code[m[4]:m[5]])
		if op == ">" || op == ">>" {
			w.writeTo(target, "awk "+op, `"`+target+`"`)
		} else {
			w.res.add(Dangerous, "`awk`: pipes output to `"+target+"`")
			in := input{}
			if text, ok := printed[target]; ok {
				in = input{kind: inData, data: text} // print "rm -rf ~" | "sh"
			}
			w.nested(target, in)
		}
	}
	for _, m := range awkOutDir.Get().FindAllStringSubmatch(code, -1) {
		// Files under a directory the program names: the directory
		// decides where they land, as tar's -C does.
		dir := unq(m[1])
		if strings.Contains(dir, "..") {
			continue
		}
		w.writeTo(dir+holeEntry, "awk >", `("`+dir+`" …)`)
		rest = strings.Replace(rest, m[0], "", 1)
	}
	rest = awkOut.Get().ReplaceAllString(rest, "")
	if awkRuns.Get().MatchString(rest) {
		w.res.add(Dangerous, "`awk`: the program runs commands or writes files")
		for _, v := range values {
			w.literal1(v)
		}
		w.literals(code)
	}
}
