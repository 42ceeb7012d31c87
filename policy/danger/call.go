package danger

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"maps"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/internal/lazy"
	"github.com/qsh-shell/qsh/policy/secret"
)

func (w *walker) call(c *syntax.CallExpr, io ioInfo) {
	if len(c.Args) == 0 {
		for _, a := range c.Assigns {
			w.assign(a, "")
		}
		return
	}
	for _, a := range c.Assigns {
		w.substs(a.Value)
		if a.Array != nil {
			w.substs(a.Array)
		}
		if a.Name != nil && w.projectLibs(a.Name.Value, w.literal(a.Value), c.Args[0].Lit()) {
			// LD_PRELOAD=./build/libfake.so ./build/app: the project's own
			// library, loaded into the project's own program.
			w.res.add(Dev, "`"+a.Name.Value+"=…`: loads the project's own library into its program")
		} else if a.Name != nil {
			w.hijack(a.Name.Value, w.literal(a.Value), a.Name.Value+"=…")
		}
	}
	if val, ok := w.aliases[c.Args[0].Lit()]; ok && len(w.aliases) > 0 {
		// An alias defined earlier: the shell runs its text with the rest
		// of the line appended.
		rest := make([]string, 0, len(c.Args))
		for _, word := range c.Args[1:] {
			rest = append(rest, w.text(word))
		}
		// An alias does not expand inside itself; others still do.
		alias := w.aliases
		w.aliases = maps.Clone(alias)
		delete(w.aliases, c.Args[0].Lit())
		w.inPlace(strings.TrimSpace(val+" "+strings.Join(rest, " ")), io.in)
		w.aliases = alias
		return
	}
	var args []arg
	if name := c.Args[0].Lit(); name == "test" || name == "[" {
		w.testOnly = true
	}
	connects := dbClients.Get()[c.Args[0].Lit()] || connectors[c.Args[0].Lit()]
	for _, word := range c.Args {
		// psql "$DATABASE_URL": a client given a variable as a whole
		// operand connects with it and prints it nowhere.
		saved := w.testOnly
		if connects && wholeParam(word) {
			w.testOnly = true
		}
		args = append(args, w.fields(word)...)
		w.testOnly = saved
	}
	w.testOnly = false
	if len(args) > 0 {
		w.ifsPrefix = slices.ContainsFunc(c.Assigns, func(a *syntax.Assign) bool {
			return a.Name != nil && a.Name.Value == "IFS"
		})
		w.assigns = c.Assigns
		w.exec(args, io)
		w.ifsPrefix, w.assigns = false, nil
	}
	if alt := w.defaultArgs(c.Args); len(alt) > 0 {
		w.clone().exec(alt, io)
	}
}

// exec judges running one expanded command line: a function of this
// string, or a program or builtin.
func (w *walker) exec(args []arg, io ioInfo) {
	name := args[0].s
	switch {
	case strings.ContainsRune(name, holeDL):
		w.res.add(Blocked, "runs a command downloaded from the network")
		return
	case hasHole(name):
		w.res.add(Dangerous, "the command `"+args[0].text+"` is not known before running")
		return
	}
	if body, ok := w.funcs[name]; ok {
		w.callFunc(name, body, args[1:], io)
		return
	}
	w.last = args
	w.run(args, io)
}

func (w *walker) callFunc(name string, body *syntax.Stmt, args []arg, io ioInfo) {
	// Recursion is by body, not name: a function may redefine itself.
	if w.shared.calls[body] > 0 {
		if w.forking {
			w.res.add(Blocked, "fork bomb: `"+name+"` starts copies of itself")
		}
		return
	}
	w.shared.call(body)
	saved := w.params
	w.params = make([]string, len(args))
	for i, a := range args {
		w.params[i] = a.s
	}
	w.stmt(body, io.in)
	w.params = saved
	w.shared.calls[body]--
}

// pathAppends reports whether a PATH value is $PATH followed by absolute
// directories no other user can write into (not /tmp and its kin).
func pathAppends(word *syntax.Word, val string) bool {
	if word == nil || len(word.Parts) == 0 {
		return false
	}
	parts := word.Parts
	if q, ok := parts[0].(*syntax.DblQuoted); ok && len(word.Parts) == 1 {
		parts = q.Parts
	}
	if len(parts) < 2 {
		return false
	}
	p, ok := parts[0].(*syntax.ParamExp)
	if !ok || p.Param == nil || p.Param.Value != "PATH" || p.Exp != nil || p.Repl != nil || p.Slice != nil ||
		p.Index != nil || p.Length || p.Excl || p.Width {
		return false
	}
	_, rest, ok := strings.Cut(val, ":")
	if !ok || rest == "" {
		return false
	}
	for _, d := range strings.Split(rest, ":") {
		d = path.Clean(d)
		if !strings.HasPrefix(d, "/") || hasHole(d) || under(d, "/tmp") || under(d, "/var/tmp") ||
			under(d, "/dev/shm") {
			return false
		}
	}
	return true
}

// connectors are database clients and tools whose operands name a
// connection (with dbClients).
var connectors = map[string]bool{"pg_dump": true, "pg_dumpall": true, "pg_restore": true, "pgcli": true,
	"mysqldump": true, "mycli": true, "mongodump": true, "usql": true, "dbmate": true}

// wholeParam reports whether word is one plain parameter, quoted or not:
// $X, "$X", ${X}.
func wholeParam(word *syntax.Word) bool {
	parts := word.Parts
	if len(parts) == 1 {
		if q, ok := parts[0].(*syntax.DblQuoted); ok {
			parts = q.Parts
		}
	}
	if len(parts) != 1 {
		return false
	}
	p, ok := parts[0].(*syntax.ParamExp)
	return ok && p.Exp == nil && p.Repl == nil && p.Slice == nil && p.Index == nil && !p.Length && !p.Excl
}

// assign judges a variable assignment of the shell itself; variant is
// "export", "local" … or "" for a plain assignment.
func (w *walker) assign(a *syntax.Assign, variant string) {
	if a.Name == nil {
		return
	}
	name := a.Name.Value
	if a.Array != nil {
		w.substs(a.Array)
		var list []string
		for _, el := range a.Array.Elems {
			if el.Value == nil {
				continue
			}
			for _, f := range w.fields(el.Value) {
				list = append(list, f.s)
			}
		}
		if w.lists == nil {
			w.lists = map[string][]string{}
		}
		w.lists[name] = list
		delete(w.vars, name)
		w.res.add(Safe, "sets a shell variable")
		return
	}
	val := ""
	if a.Value != nil {
		val = w.literal(a.Value)
	}
	if a.Naked {
		val = w.vars[name]
	} else if a.Append {
		val = w.vars[name] + val
	}
	if a.Index != nil {
		w.substs(a.Index)
		val = hole
	}
	if w.ints[name] && a.Value != nil {
		// declare -i n; n='a[$(cmd)]': the value is evaluated.
		w.arithCode(w.literal(a.Value), name+"=…")
	}
	if !a.Naked || a.Value != nil {
		w.vars[name] = val
		delete(w.alts, name)
		// X=${X:-rm}: when X is unset it holds the default, known here.
		if a.Value != nil && !a.Append && a.Index == nil {
			d, ok := w.withDefaults(a.Value.Parts)
			if alt := w.literal(&syntax.Word{Parts: d}); ok && !hasHole(alt) {
				if w.alts == nil {
					w.alts = map[string]string{}
				}
				w.alts[name] = alt
			}
		}
	}
	if name == "PATH" && pathAppends(a.Value, val) {
		// PATH=$PATH:~/go/bin: directories searched last shadow no
		// program that later commands name.
		w.res.add(Dev, "`"+variantText(variant)+"PATH=$PATH:…`: appends directories, after the system's programs")
		return
	}
	if w.hijack(name, val, variantText(variant)+name+"=…") {
		return
	}
	if target, ok := w.refs[name]; ok && w.hijack(target, val, variantText(variant)+name+"=… (a nameref to "+target+")") {
		return
	}
	if variant == "export" {
		w.res.add(Dev, "`export "+name+"`: sets a variable for this session")
		return
	}
	w.res.add(Safe, "sets a shell variable")
}

func variantText(v string) string {
	if v == "" {
		return ""
	}
	return v + " "
}

// Variables that decide what later commands run, as space-separated
// names: viewerNames pick a pager or editor, commandNames hold a command
// line run later, programNames a program or library path.
const (
	viewerNames = "PAGER GIT_PAGER EDITOR VISUAL GIT_EDITOR MANPAGER GIT_SEQUENCE_EDITOR SUDO_EDITOR KUBE_EDITOR " +
		"GH_EDITOR GH_PAGER SYSTEMD_PAGER SYSTEMD_EDITOR BAT_PAGER DELTA_PAGER FCEDIT"
	commandNames = "PROMPT_COMMAND GIT_SSH_COMMAND GIT_EXTERNAL_DIFF GIT_PROXY_COMMAND GIT_ASKPASS SSH_ASKPASS " +
		"LESSOPEN LESSCLOSE SUDO_ASKPASS GH_BROWSER RSYNC_RSH RSYNC_CONNECT_PROG"
	programNames = "PATH LD_PRELOAD LD_LIBRARY_PATH LD_AUDIT DYLD_INSERT_LIBRARIES DYLD_LIBRARY_PATH BASH_ENV ENV " +
		"GIT_SSH GIT_EXEC_PATH SHELL BROWSER PS4"
)

func nameSet(names string) map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(names) {
		m[n] = true
	}
	return m
}

var (
	// hijackVars change which code later commands run.
	hijackVars = lazy.Value[map[string]bool]{Build: func() map[string]bool {
		return nameSet(viewerNames + " " + commandNames + " " + programNames)
	}}
	// programVars hold a command line that something runs later.
	programVars = lazy.Value[map[string]bool]{Build: func() map[string]bool {
		return nameSet(viewerNames + " " + commandNames)
	}}
	// harmlessVars may be set to a harmlessPrograms value without
	// running anything new: the viewers, and SHELL, BROWSER, PS4.
	harmlessVars = lazy.Value[map[string]bool]{Build: func() map[string]bool {
		return nameSet(viewerNames + " SHELL BROWSER PS4")
	}}
)

// promptVars are the prompts bash expands, running their substitutions.
var promptVars = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return nameSet("PS0 PS1 PS2 PS3 PS4")
}}

// systemPath reports a PATH made only of the system's program
// directories.
func systemPath(val string) bool {
	if val == "" || hasHole(val) {
		return false
	}
	for _, d := range strings.Split(val, ":") {
		if !binDirs.Get()[path.Clean(d)] {
			return false
		}
	}
	return true
}

// programWords are words of a variable's name that say its value is a
// program some tool runs: npm_config_script_shell, CONFIG_SHELL, MAKESHELL,
// npm_config_editor, YARN_SCRIPT_SHELL, npm_config_node_gyp.
var programWords = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return nameSet("SHELL SCRIPTSHELL MAKESHELL EDITOR VISUAL PAGER BROWSER ASKPASS GYP NODEGYP RSH DIFFTOOL " +
		"MERGETOOL INTERPRETER LAUNCHER WRAPPER EXECUTABLE")
}}

// interpreterNames are variables named for the interpreter a tool runs
// (node-gyp's PYTHON, npm's NODE).
var interpreterNames = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return nameSet("PYTHON NODE PERL RUBY PHP JAVACMD")
}}

// programVar judges a variable whose name says it holds a program another
// tool runs, set to a path: a program of the system's directories or of
// the project is what the tool would run anyway; one elsewhere (/tmp/sh)
// or one this line writes or downloads is judged as running it is. It
// reports whether it judged one.
func (w *walker) programVar(name, val, text string) bool {
	if !hasHole(val) && !strings.Contains(val, "/") {
		return false // a program by name, found on PATH
	}
	up := strings.ToUpper(name)
	found := interpreterNames.Get()[up]
	for f := range strings.SplitSeq(up, "_") {
		found = found || programWords.Get()[f]
	}
	if !found {
		return false
	}
	prog, _, _ := strings.Cut(strings.TrimSpace(val), " ")
	if p, ok := w.abs(prog); ok && binDirs.Get()[path.Dir(p)] {
		return false
	}
	w.res.add(Dev, "`"+text+"`: names the program a tool runs")
	w.runFile(prog, text+" ("+prog+")", "sh")
	return true
}

// envValue is the value the command being judged sees for name: its own
// assignment's, else the shell's, else (at run time) the environment's; ok
// is false when none sets it.
func (w *walker) envValue(name string) (string, bool) {
	for i := len(w.assigns) - 1; i >= 0; i-- {
		if a := w.assigns[i]; a.Name != nil && a.Name.Value == name && a.Array == nil && a.Index == nil {
			return w.literal(a.Value), true
		}
	}
	if v, ok := w.vars[name]; ok {
		return v, true
	}
	if w.shared.getenv != nil {
		// At run time: the environment the program really gets.
		if v := w.shared.getenv(name); v != "" {
			return v, true
		}
	}
	return "", false
}

// harmlessPrograms are values of PAGER, EDITOR … that run nothing new.
var harmlessPrograms = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"": true, "cat": true, "true": true, ":": true, "less": true, "more": true, "vi": true, "vim": true, "nano": true, "false": true}
}}

// hijack judges setting a variable that decides what later commands run.
func (w *walker) hijack(name, val, text string) bool {
	if strings.HasPrefix(name, "GIT_") && w.gitEnv(name, val, text) || w.codeVar(name, val, text) {
		return true
	}
	if promptVars.Get()[name] && (strings.Contains(val, "$(") || strings.Contains(val, "`")) {
		// PS4='$(…)': bash expands the prompt, and runs what is in it,
		// when it prints one (set -x for PS4, every prompt for PS1).
		w.res.add(Dangerous, "`"+text+"`: a prompt that runs commands when it is shown")
		w.literal1(": " + val)
		return true
	}
	if !hijackVars.Get()[name] && !strings.HasPrefix(name, "BASH_FUNC_") {
		return w.programVar(name, val, text)
	}
	if harmlessVars.Get()[name] && harmlessPrograms.Get()[val] {
		return false
	}
	if name == "PATH" && systemPath(val) {
		return false // PATH=/usr/bin:/bin: only the system's programs
	}
	if name == "BASH_ENV" || name == "ENV" {
		// The file a non-interactive bash (sh for ENV) runs first.
		w.res.add(Dangerous, "`"+text+"`: makes shells run a file before their commands")
		if val != "" {
			w.runFile(val, val, "sh")
		}
		return true
	}
	w.res.add(Dangerous, "`"+text+"`: changes which programs later commands run")
	if programVars.Get()[name] {
		w.literal1(strings.TrimLeft(val, "|"))
	}
	return true
}

// integer reports declare's -i among flags: assignments are evaluated.
func integer(flags []string) bool {
	for _, f := range flags {
		if strings.HasPrefix(f, "-") && strings.Contains(f, "i") {
			return true
		}
	}
	return false
}

// nameref reports declare's -n among flags: the variable names another.
func nameref(flags []string) bool {
	for _, f := range flags {
		if strings.HasPrefix(f, "-") && strings.Contains(f, "n") {
			return true
		}
	}
	return false
}

func (w *walker) decl(c *syntax.DeclClause) {
	variant := c.Variant.Value
	var flags []string
	names := 0
	for _, a := range c.Args {
		if a.Name == nil && a.Value != nil {
			for _, f := range w.fields(a.Value) {
				if strings.HasPrefix(f.s, "-") || strings.HasPrefix(f.s, "+") {
					flags = append(flags, f.s)
				} else {
					names++
					// declare 'a[$(cmd)]=1': the string is parsed as an
					// assignment, its subscript evaluated.
					name, val, hasVal := strings.Cut(f.s, "=")
					w.subscriptCode(name, variant+" "+f.text)
					if hasVal && strings.HasPrefix(val, "(") {
						// declare 'a=([$(cmd)]=1)': bash expands the
						// quoted compound assignment, subscripts and values.
						w.arithCode(val, variant+" "+f.text)
					}
					if integer(flags) {
						if w.ints == nil {
							w.ints = map[string]bool{}
						}
						w.ints[name] = true
						if hasVal {
							w.arithCode(val, variant+" -i "+f.text)
						}
					}
					if _, val, ok := strings.Cut(f.s, "="); ok && nameref(flags) && secret.Var(val) {
						w.res.add(Dangerous, "`"+variant+" -n "+f.text+"`: names a secret variable")
					}
				}
			}
			continue
		}
		names++
		if integer(flags) && a.Name != nil {
			if w.ints == nil {
				w.ints = map[string]bool{}
			}
			w.ints[a.Name.Value] = true
		}
		if nameref(flags) && a.Value != nil && a.Name != nil {
			target := w.literal(a.Value)
			if secret.Var(target) {
				w.res.add(Dangerous, "`"+variant+" -n "+a.Name.Value+"`: names the secret `"+target+"`")
			}
			if w.refs == nil {
				w.refs = map[string]string{}
			}
			w.refs[a.Name.Value] = target
			delete(w.vars, a.Name.Value)
			continue
		}
		if a.Naked && slices.Contains(flags, "-p") {
			continue // declare -p NAME prints it, judged below
		}
		w.assign(a, variant)
	}
	if names > 0 {
		if slices.Contains(flags, "-p") {
			for _, a := range c.Args {
				if a.Name != nil && secret.Var(a.Name.Value) {
					w.discloses("`" + variant + " -p " + a.Name.Value + "`: prints a secret")
				}
			}
		}
		return
	}
	listsFuncs := false
	for _, f := range flags {
		if strings.ContainsAny(f, "fF") {
			listsFuncs = true
		}
	}
	switch {
	case listsFuncs:
		w.res.add(Safe, "`"+variant+"`: lists functions")
	case variant == "local":
		w.res.add(Safe, "`local`: lists local variables")
	default:
		w.discloses("`" + variant + "`: prints variables, which may include secrets")
	}
}

// pipeline judges each element with what it reads from the one before.
func (w *walker) pipeline(c *syntax.BinaryCmd, io ioInfo) {
	var elems []*syntax.Stmt
	var flatten func(s *syntax.Stmt)
	flatten = func(s *syntax.Stmt) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(s.Redirs) == 0 && !s.Background && !s.Negated {
			flatten(b.X)
			flatten(b.Y)
			return
		}
		elems = append(elems, s)
	}
	flatten(c.X)
	flatten(c.Y)

	in := io.in
	netTool, shellIn := false, false
	masked := w.maskedFrom(elems)
	for i, s := range elems {
		e := w.clone()
		e.forking = true
		if i < masked {
			e.masked = true
		}
		if i+1 < len(elems) && filtersEnv(elems[i+1]) {
			e.envFiltered = true
		}
		e.last = nil
		e.stmt(s, in)
		name, args := lastCommand(e.last)
		switch name {
		case "nc", "ncat", "netcat", "socat", "telnet", "openssl", "cryptcat":
			netTool = true
		case "history", "fc":
			// Past command lines hold the tokens typed into them; a search
			// for such words shows them, as `env | grep -i token` does.
			if slices.ContainsFunc(elems[i+1:], searchesSecrets) {
				e.discloses("`" + name + " | grep`: searches the shell history for secrets")
			}
		}
		if r := lookup(name); r != nil && (r.kind == kindShell || r.kind == kindInterp) && readsStdin(r, args) {
			shellIn = true
		}
		in = w.output(s, name, args, in)
	}
	if netTool && shellIn {
		w.res.add(Blocked, "reverse shell: a shell reads commands from a network connection")
	}
}

// translate is tr SET1 SET2 on s, with a-z ranges; SET2 is padded with
// its last character, as tr does.
func translate(s, set1, set2 string) string {
	expand := func(set string) []rune {
		r := []rune(set)
		var out []rune
		for i := 0; i < len(r); i++ {
			if i+2 < len(r) && r[i+1] == '-' && r[i] <= r[i+2] {
				for c := r[i]; c <= r[i+2]; c++ {
					out = append(out, c)
				}
				i += 2
				continue
			}
			out = append(out, r[i])
		}
		return out
	}
	from, to := expand(set1), expand(set2)
	if len(to) == 0 {
		return s
	}
	m := map[rune]rune{}
	for i, c := range from {
		m[c] = to[min(i, len(to)-1)]
	}
	return strings.Map(func(c rune) rune {
		if t, ok := m[c]; ok {
			return t
		}
		return c
	}, s)
}

// echoText is what echo prints: its -n, -e and -E options taken off, and
// with -e the escapes decoded (echo -e 'o\nw' prints two lines).
func echoText(args []string) string {
	escapes := false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
		escapes = strings.Contains(args[0], "e") && !strings.Contains(args[0], "E") || escapes && !strings.Contains(args[0], "E")
		args = args[1:]
	}
	text := strings.Join(args, " ")
	if !escapes || !strings.Contains(text, `\`) {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); {
		if text[i] != '\\' {
			b.WriteByte(text[i])
			i++
			continue
		}
		n, stop := escape(&b, text[i:], escB)
		if stop {
			break
		}
		i += n
	}
	return b.String()
}

// echoTexts are the literal texts echo and printf print in a statement.
func echoTexts(s *syntax.Stmt) []string {
	var out []string
	syntax.Walk(s, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || len(c.Args) < 2 || c.Args[0].Lit() != "echo" && c.Args[0].Lit() != "printf" {
			return true
		}
		var words []string
		for _, a := range c.Args[1:] {
			if v := literalText(a); v != "" && !strings.HasPrefix(v, "-") {
				words = append(words, strings.ReplaceAll(v, `\n`, "\n"))
			}
		}
		if len(words) > 0 && len(out) < 16 {
			out = append(out, strings.Join(words, " "))
		}
		return true
	})
	return out
}

// lastCommand splits the last command line a walker ran into its name
// and arguments.
func lastCommand(args []arg) (string, []string) {
	if len(args) == 0 {
		return "", nil
	}
	rest := make([]string, len(args)-1)
	for i, a := range args[1:] {
		rest[i] = a.s
	}
	return commandBase(args[0].s), rest
}

// output is what a pipeline element writes for the next one to read.
func (w *walker) output(s *syntax.Stmt, name string, args []string, in input) input {
	if _, call := s.Cmd.(*syntax.CallExpr); !call {
		// A block or subshell: what it prints is not known whole.
		if w.shared.fetching(s, []*syntax.Stmt{s}) {
			return input{kind: inDownload}
		}
		return input{kind: inUnknown, parts: echoTexts(s)}
	}
	if remoteOutput(name, args) {
		return input{kind: inDownload}
	}
	if endlessOutput(name, args, in) {
		return input{kind: inUnknown, endless: true, finite: name == "seq" && !slices.ContainsFunc(args,
			func(a string) bool { return a == "inf" || a == "infinity" || strings.Contains(a, "e") })}
	}
	if len(s.Redirs) > 0 && name != "cat" {
		// rev <<< '…': the element's own input.
		q := w.clone()
		q.res = &result{}
		in = q.redirects(s.Redirs, in).in
	}
	switch name {
	case "echo", "printf":
		text := strings.Join(args, " ")
		if name == "echo" {
			text = echoText(args)
		}
		if name == "printf" && len(args) > 0 && !hasHole(text) {
			if s, ok := printfText(args[0], args[1:]); ok {
				text = s
			}
		}
		if hasHole(text) {
			if strings.ContainsRune(text, holeDL) {
				return input{kind: inDownload}
			}
			return input{kind: inUnknown}
		}
		return input{kind: inData, data: text}
	case "cat":
		if len(args) == 0 {
			q := w.clone()
			q.res = &result{}
			return q.redirects(s.Redirs, in).in
		}
		if len(args) == 1 {
			if p, ok := w.abs(args[0]); ok && w.shared.downloads[p] {
				return input{kind: inDownload}
			}
		}
	case "tee":
		return in
	case "rev":
		if in.kind == inData {
			lines := strings.Split(in.data, "\n")
			for i, l := range lines {
				r := []rune(l)
				slices.Reverse(r)
				lines[i] = string(r)
			}
			return input{kind: inData, data: strings.Join(lines, "\n"), hidden: true}
		}
	case "tr":
		if in.kind == inData && len(args) == 2 && !strings.HasPrefix(args[0], "-") {
			return input{kind: inData, data: translate(in.data, args[0], args[1]), hidden: true}
		}
	case "find", "fd", "git", "grep", "rg", "ls", "ag":
		if dir, ok := w.lsNames(name, args); ok {
			return input{kind: inPaths, data: dir, names: true}
		}
		if dir, ok := w.listsPaths(name, args); ok {
			if name == "find" {
				entry, filtered := findFilter(args)
				if entry != "" && !strings.HasPrefix(entry, "/") {
					var roots []string
					var expr []arg
					for _, a := range args {
						if len(expr) == 0 && !strings.HasPrefix(a, "-") && a != "(" && a != "!" {
							roots = append(roots, a)
						} else {
							expr = append(expr, arg{s: a})
						}
					}
					if len(roots) == 0 {
						roots = []string{"."}
					}
					entry = w.findEntryIn(roots, expr)
				}
				return input{kind: inTree, data: dir, entry: entry, filtered: filtered}
			}
			if (name == "grep" || name == "rg" || name == "ag") && !(w.inside(dir) || dir == w.ws.Dir) {
				if secret.Name(path.Base(dir)) || w.secretFile(dir) != "" {
					return input{kind: inPaths, data: path.Dir(dir), entry: dir}
				}
				return input{kind: inTree, data: dir}
			}
			return input{kind: inPaths, data: dir}
		}
	case "locate", "plocate", "mlocate", "slocate":
		// Paths anywhere that hold the pattern.
		return input{kind: inPaths, data: "/", entry: locateEntry(args)}
	case "base64", "base32", "basenc", "xxd":
		// Decoders of a known input: their output is known too (and
		// hidden from the user, who cannot read it at the prompt).
		if in.kind == inData {
			if b, ok := decodeData(name, args, in.data); ok {
				return input{kind: inData, data: string(b), hidden: true}
			}
		}
	}
	if in.kind == inDownload {
		return in
	}
	return input{kind: inUnknown}
}

// listsPaths reports whether a command prints names of files inside the
// workspace, one per line (find ., git ls-files, grep -rl …), and under
// which directory.
func (w *walker) listsPaths(name string, args []string) (string, bool) {
	if w.cwd == "" || !(w.inside(w.cwd) || w.cwd == w.ws.Dir) {
		return "", false
	}
	var dirs []string
	switch name {
	case "git":
		if len(args) == 0 || args[0] != "ls-files" && !(args[0] == "diff" && slices.Contains(args, "--name-only")) {
			return "", false
		}
		return w.ws.Dir, true
	case "grep", "rg", "ag":
		lists, pattern := false, false
		for _, a := range args {
			if a == "-l" || a == "--files-with-matches" || a == "--files" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "l") {
				lists = true
			}
			if a == "-e" || a == "-f" || a == "--regexp" || a == "--file" || a == "--files" {
				pattern = true
			}
		}
		if !lists {
			return "", false
		}
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "-e" || a == "-f" || a == "--regexp" || a == "--file" || a == "-g" || a == "--glob" ||
				a == "-t" || a == "--type" || a == "-m" || a == "--max-count":
				i++
			case strings.HasPrefix(a, "-"):
			case !pattern:
				pattern = true
			default:
				dirs = append(dirs, a)
			}
		}
		// A search of files outside the workspace by their content lists
		// any file there, secrets among them (grep -rl PRIVATE ~ | xargs
		// cat): the tree is what a reader of its output gets.
		for _, d := range dirs {
			p, ok := w.abs(d)
			if !ok {
				return "", false
			}
			if b := path.Base(p); b == holeEntry || b == holeTree {
				p = path.Dir(p) // what find -exec grep -l {} finds under its root
			}
			if !(w.inside(p) || p == w.ws.Dir) {
				return p, true
			}
		}
	case "find":
		// find prints paths under its roots, wherever they are: the worst
		// root is what a consumer such as xargs rm gets.
		var roots []string
		for _, a := range args {
			if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
				break
			}
			roots = append(roots, a)
		}
		if len(roots) == 0 {
			roots = []string{"."}
		}
		for _, r := range roots {
			p, ok := w.abs(r)
			if !ok {
				return "", false
			}
			if w.catastrophic(p) != "" || !(w.inside(p) || p == w.ws.Dir) {
				return p, true
			}
		}
		return w.cwd, true
	case "fd":
		// fd's first operand is a pattern; it searches the cwd.
	case "ls":
		for _, a := range args {
			if !strings.HasPrefix(a, "-") {
				dirs = append(dirs, a)
			}
		}
	}
	for _, d := range dirs {
		p, ok := w.abs(d)
		if !ok || !(w.inside(p) || p == w.ws.Dir) {
			return "", false
		}
	}
	return w.cwd, true
}

// lsNames is the directory whose entries `ls DIR` prints by their bare
// names (one directory, not -R or -d).
func (w *walker) lsNames(name string, args []string) (string, bool) {
	if name != "ls" {
		return "", false
	}
	dir := "."
	n := 0
	for _, a := range args {
		switch {
		case a == "--recursive" || a == "--directory":
			return "", false
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "Rd"):
			return "", false
		case !strings.HasPrefix(a, "-"):
			dir = a
			n++
		}
	}
	if n > 1 {
		return "", false
	}
	p, ok := w.abs(dir)
	return p, ok
}

// filtersEnv reports whether s is a grep that keeps only named,
// non-secret variables, as in `env | grep '^GO'`.
func filtersEnv(s *syntax.Stmt) bool {
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) < 2 || c.Args[0].Lit() != "grep" && c.Args[0].Lit() != "rg" {
		return false
	}
	patterns := 0
	for _, a := range c.Args[1:] {
		v := literalText(a)
		if v == "" {
			return false
		}
		if strings.HasPrefix(v, "-") {
			if strings.ContainsAny(v, "vfer") && !strings.HasPrefix(v, "--") {
				return false
			}
			continue
		}
		if secret.Var(strings.Trim(v, "^$=.*[]")) || strings.ContainsAny(v, "|.*") && !strings.HasPrefix(v, "^") ||
			namesKnownSecret(v) {
			return false
		}
		patterns++
	}
	return patterns == 1
}

// knownSecretVars are variables that tools read secrets from by
// convention, named after the tool: a filter of the environment by the
// tool's name (`^NODE_`, `aws`) shows them.
var knownSecretVars = []string{"NODE_AUTH_TOKEN", "NPM_TOKEN", "GITHUB_TOKEN", "GH_TOKEN", "GITLAB_TOKEN",
	"AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "DOCKER_PASSWORD", "TWINE_PASSWORD", "CARGO_REGISTRY_TOKEN",
	"VAULT_TOKEN", "PGPASSWORD", "MYSQL_PWD", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "HF_TOKEN", "CI_JOB_TOKEN",
	"SENTRY_AUTH_TOKEN", "HEROKU_API_KEY", "CLOUDFLARE_API_TOKEN", "ARM_CLIENT_SECRET", "AZURE_CLIENT_SECRET",
	"SLACK_BOT_TOKEN", "STRIPE_SECRET_KEY", "REDIS_PASSWORD", "POSTGRES_PASSWORD", "DATABASE_URL",
	"DIGITALOCEAN_TOKEN", "NETLIFY_AUTH_TOKEN", "VERCEL_TOKEN", "PULUMI_ACCESS_TOKEN", "CODECOV_TOKEN"}

// namesKnownSecret reports whether a grep pattern of the environment
// (`^NODE_`, `aws`) is whole words that a well-known secret variable
// holds: at its start when anchored, anywhere otherwise. `^GO` names no
// word of GOOGLE_API_KEY.
func namesKnownSecret(pattern string) bool {
	anchored := strings.HasPrefix(pattern, "^")
	p := strings.ToUpper(strings.TrimRight(strings.TrimPrefix(pattern, "^"), "_="))
	if p == "" || strings.Trim(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != "" {
		return false
	}
	for _, v := range knownSecretVars {
		i := strings.Index(v, p)
		for i >= 0 {
			end := i + len(p)
			if (i == 0 || v[i-1] == '_') && (end == len(v) || v[end] == '_') && (!anchored || i == 0) {
				return true
			}
			j := strings.Index(v[i+1:], p)
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	return false
}

// searchesSecrets reports whether s is a grep whose pattern looks for
// secrets by the words that name them (token, password, api_key …).
func searchesSecrets(s *syntax.Stmt) bool {
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) < 2 {
		return false
	}
	switch c.Args[0].Lit() {
	case "grep", "egrep", "fgrep", "rg", "ag":
	default:
		return false
	}
	for _, a := range c.Args[1:] {
		v := strings.ToLower(literalText(a))
		if strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--regexp=") {
			continue
		}
		for _, word := range []string{"token", "secret", "pass", "key", "credential", "auth",
			"bearer", "private", "akia", "ghp_", "pwd"} {
			if strings.Contains(v, word) {
				return true
			}
		}
	}
	return false
}

// literalText is a word's value when it has no expansions, else "".
func literalText(word *syntax.Word) string {
	var sb strings.Builder
	for _, p := range word.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			sb.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return ""
			}
			sb.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return ""
				}
				sb.WriteString(l.Value)
			}
		default:
			return ""
		}
	}
	return sb.String()
}

// decodeData decodes what base64 -d, base32 -d, basenc -d or xxd -r -p
// make of data.
func decodeData(name string, args []string, data string) ([]byte, bool) {
	decode, plain := false, false
	enc := name
	for _, a := range args {
		switch {
		case a == "-d" || a == "--decode" || a == "-D" || name == "xxd" && a == "-r" || name == "xxd" && a == "-revert":
			decode = true
		case name == "xxd" && (a == "-p" || a == "-ps" || a == "-plain" || a == "-postscript"):
			plain = true
		case name == "xxd" && strings.HasPrefix(a, "-r") && strings.Trim(a[2:], "p") == "":
			decode, plain = true, len(a) > 2
		case name == "basenc" && strings.HasPrefix(a, "--base"):
			enc = strings.TrimPrefix(a, "--")
		}
	}
	if !decode || name == "xxd" && !plain {
		return nil, false
	}
	text := strings.Join(strings.Fields(data), "")
	var b []byte
	var err error
	switch enc {
	case "base64":
		b, err = base64.StdEncoding.DecodeString(text)
	case "base64url":
		b, err = base64.URLEncoding.DecodeString(text)
	case "base32":
		b, err = base32.StdEncoding.DecodeString(text)
	case "xxd", "base16":
		b, err = hex.DecodeString(text)
	default:
		return nil, false
	}
	return b, err == nil
}
