package danger

import (
	"strings"

	"github.com/qsh-shell/qsh/internal/lazy"
)

// make judges what make(1) is told on its command line besides the
// project's makefile: --eval text and VAR=value operands (their $(shell …)
// runs), a makefile from standard input or from outside the workspace (-f),
// and a directory outside it (-C).
func (w *walker) make(chain string, args []arg, io ioInfo) {
	file := false
	defer func() {
		if !file {
			w.defaultMakefile()
		}
	}()
	for i := 1; i < len(args); i++ {
		a := args[i].s
		value := func(long, short string) (string, bool) {
			if v, ok := strings.CutPrefix(a, long+"="); ok {
				return v, true
			}
			if a == long || a == short {
				if i+1 < len(args) {
					i++
					return args[i].s, true
				}
				return "", false
			}
			if short != "" && strings.HasPrefix(a, short) && !strings.HasPrefix(a, "--") {
				return a[len(short):], true
			}
			return "", false
		}
		if v, ok := value("--eval", "-E"); ok {
			w.res.add(Dev, "`"+chain+" --eval`: adds makefile text")
			w.makeText(v)
			continue
		}
		if v, ok := value("--file", "-f"); ok || a == "--makefile" {
			file = true
			if a == "--makefile" && i+1 < len(args) {
				i++
				v = args[i].s
			}
			switch {
			case (v == "-" || v == "/dev/stdin") && io.in.kind == inData:
				w.res.add(Dev, "`"+chain+" -f -`: runs a makefile given on its input")
				w.makeText(io.in.data)
			case (v == "-" || v == "/dev/stdin") && io.in.kind == inDownload:
				w.res.add(Blocked, "`"+chain+" -f -`: runs a makefile downloaded from the network")
			case (v == "-" || v == "/dev/stdin" || strings.HasPrefix(v, "/dev/fd/")) && !strings.ContainsRune(v, holeDL):
				w.res.add(Dangerous, "`"+chain+" -f "+v+"`: runs a makefile from its input, which cannot be seen")
			default:
				w.runFile(v, v, "make")
			}
			continue
		}
		if v, ok := value("--directory", "-C"); ok {
			if p, ok := w.abs(v); !ok || !w.inside(p) && p != w.ws.Dir {
				w.res.add(Dangerous, "`"+chain+" -C "+v+"`: runs a makefile outside the workspace")
			}
			continue
		}
		if name, val, ok := strings.Cut(a, "="); ok && !strings.HasPrefix(a, "-") && name != "" {
			if strings.Contains(val, "$(") || strings.Contains(val, "${") || strings.Contains(val, "`") {
				w.res.add(Dangerous, "`"+chain+" "+args[i].text+"`: a value with make functions, which can run "+
					"commands")
				w.makeText(name + " = " + val)
			}
			w.hijack(name, val, args[i].text)
			w.makeProgram(chain, name, val, args[i].text)
		}
	}
}

// makePrograms are the variables make's implicit rules and conventions
// run as programs (make(1), "Variables Used by Implicit Rules").
var makePrograms = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	m := map[string]bool{}
	for _, v := range strings.Fields("AR AS CC CXX CPP FC M2C PC CO GET LEX YACC LINT MAKEINFO TEX TEXI2DVI " +
		"WEAVE CWEAVE TANGLE CTANGLE RM LD MAKE INSTALL RANLIB STRIP OBJCOPY NM GO CARGO PYTHON PERL") {
		m[v] = true
	}
	return m
}}

// makeProgram judges make VAR=value where VAR names a program make runs
// in every recipe that uses it (make 'CC=sh -c "curl …" --'); the names the
// environment also sets are judged by hijack already.
func (w *walker) makeProgram(chain, name, val, text string) {
	if makePrograms.Get()[name] && !buildProgramVar(name) {
		w.buildProgram(val, "`"+chain+" "+text+"`")
	}
}

// defaultMakefile judges the makefile make reads when none is named, if
// this string wrote it (printf 'all:\n\trm -rf ~\n' > Makefile && make).
func (w *walker) defaultMakefile() {
	for _, name := range []string{"GNUmakefile", "makefile", "Makefile"} {
		p, ok := w.abs(name)
		if !ok {
			return
		}
		if content, wrote := w.shared.scripts[p]; wrote {
			w.runWritten(content, name, "make")
			return
		}
	}
}

// makeText judges makefile text: the recipes it defines and the commands
// its $(shell …) and include run, as if they all ran.
func (w *walker) makeText(text string) {
	text = strings.ReplaceAll(text, "\\\n", " ")
	for line := range strings.SplitSeq(text, "\n") {
		for _, cmd := range makeShells(line) {
			w.res.add(Dev, "`$(shell …)`: make runs a command")
			w.nested(makeVars(cmd), input{})
		}
		trimmed := strings.TrimSpace(line)
		for _, inc := range []string{"include ", "-include ", "sinclude "} {
			if f, ok := strings.CutPrefix(trimmed, inc); ok {
				for name := range strings.FieldsSeq(f) {
					w.runFile(makeVars(name), name, "make")
				}
			}
		}
		recipe, ok := "", false
		if strings.HasPrefix(line, "\t") {
			recipe, ok = line[1:], true
		} else if c := strings.Index(line, ":"); c > 0 && !strings.HasPrefix(line[c:], ":=") &&
			!strings.HasPrefix(line[c:], "::=") {
			// target: prerequisites ; recipe
			if s := strings.Index(line[c:], ";"); s >= 0 {
				recipe, ok = line[c+s+1:], true
			}
		}
		if ok {
			recipe = strings.TrimLeft(strings.TrimSpace(recipe), "@-+")
			if recipe != "" {
				w.nested(makeVars(recipe), input{})
			}
		}
	}
}

// makeShells returns the commands of the $(shell …) calls in a line.
func makeShells(line string) []string {
	var out []string
	for i := 0; i+1 < len(line); i++ {
		if line[i] != '$' || line[i+1] != '(' && line[i+1] != '{' {
			continue
		}
		end := makeRef(line, i)
		inner := line[i+2 : max(end-1, i+2)]
		if cmd, ok := strings.CutPrefix(inner, "shell "); ok {
			out = append(out, cmd)
		}
	}
	return out
}

// makeRef returns the index just past the make reference that starts at
// line[i] ($(…), ${…} or $X), matching nested brackets.
func makeRef(line string, i int) int {
	if i+1 >= len(line) {
		return len(line)
	}
	open := line[i+1]
	closer := byte(')')
	if open == '{' {
		closer = '}'
	} else if open != '(' {
		return i + 2
	}
	depth := 0
	for j := i + 1; j < len(line); j++ {
		switch line[j] {
		case open:
			depth++
		case closer:
			if depth--; depth == 0 {
				return j + 1
			}
		}
	}
	return len(line)
}

// makeVars turns make's references into what the shell sees: $$ is a $,
// and a variable's value is not known here.
func makeVars(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			sb.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '$' {
			sb.WriteByte('$')
			i++
			continue
		}
		end := makeRef(s, i)
		sb.WriteString(hole)
		i = end - 1
	}
	return sb.String()
}

// gradle judges gradle's init scripts (-I, --init-script): Groovy or Kotlin
// code run before the build, the project's own when inside the workspace.
func (w *walker) gradle(chain string, args []arg, io ioInfo) {
	for i, a := range args {
		f, ok := strings.CutPrefix(a.s, "--init-script=")
		if !ok && (a.s == "-I" || a.s == "--init-script") && i+1 < len(args) {
			f, ok = args[i+1].s, true
		} else if !ok && strings.HasPrefix(a.s, "-I") && len(a.s) > 2 {
			f, ok = a.s[2:], true
		}
		if !ok {
			continue
		}
		if p, known := w.abs(f); !known || !w.inside(p) {
			w.res.add(Dangerous, "`"+chain+" -I "+f+"`: runs an init script from outside the workspace")
		}
	}
}
