package shell

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/pattern"

	"github.com/qsh-shell/qsh/completions"
	"github.com/qsh-shell/qsh/shell/marks"
)

// Programmable completion, as bash's: compspecs generate candidates from
// actions (file names, variables…), a word list, a function that fills
// COMPREPLY and a command's output, then filter them (-X) and wrap them
// (-P, -S). compgen prints what a compspec generates; Tab (progcomp.go)
// offers it. Whatever runs shell code — the word list's expansion, the
// function, the command — runs in the interpreter through eval, from a
// builtin, so that it sees and sets the variables of the scope it was
// called from.

// compCall is one generation: compgen's for a word, or Tab's for a line.
type compCall struct {
	word string // the word matched against: compgen's operand, Tab's text unquoted
	// For -F and -C: the command, the text to complete as typed, and the
	// word before it ($1, $2, $3).
	cmd, text, prev string
	// line is Tab's command line; nil for compgen, whose function gets
	// empty COMP_ variables.
	line *completions.Words
	// ctype is COMP_TYPE: 9 for a Tab, 63 for the Tab that lists.
	ctype int
	// opts are the compspec's options, which compopt changes while the
	// function runs.
	opts completions.Options
	// retry is set when the function returned 124: it loaded another
	// compspec for the command, which Tab then uses.
	retry bool
}

// compCallKey is the context key of the compCall a function runs for,
// for compopt.
type compCallKey struct{}

// actionOrder is the order in which bash gathers the actions' names.
var actionOrder = []completions.Actions{completions.Alias, completions.ArrayVar, completions.Binding,
	completions.Builtin, completions.Disabled, completions.Enabled, completions.Export,
	completions.Function, completions.HelpTopic, completions.Hostname, completions.Job,
	completions.Keyword, completions.Running, completions.SetOpt, completions.ShOpt,
	completions.Signal, completions.Stopped, completions.Variable, completions.Command,
	completions.File, completions.User, completions.Group, completions.Service, completions.Directory}

// generate returns what spec generates for c, in bash's order: the
// actions, -G, -W, -F, -C, then -X removes and -P and -S wrap. ok is false
// when an expansion or the function could not run.
func (s *Shell) generate(ctx context.Context, hc interp.HandlerContext, spec completions.Spec, c *compCall) (matches []string, ok bool) {
	for _, a := range actionOrder {
		if spec.Actions&a != 0 {
			matches = append(matches, s.actionNames(ctx, hc, a, c.word)...)
		}
	}
	if spec.Glob != "" {
		matches = append(matches, globNames(hc.Dir, spec.Glob)...)
	}
	ok = true
	if spec.Words != "" {
		words, wok := s.wordList(ctx, hc, spec.Words)
		ok = ok && wok
		for _, w := range words {
			if strings.HasPrefix(w, c.word) {
				matches = append(matches, w)
			}
		}
	}
	if spec.Func != "" {
		if c.line == nil {
			fmt.Fprintf(hc.Stderr, "qsh: compgen: warning: -F option may not work as you expect\n")
		}
		reply, fok := s.runCompFunc(ctx, hc, spec.Func, c)
		ok = ok && fok
		matches = append(matches, reply...)
	}
	if spec.Command != "" {
		matches = append(matches, s.runCompCommand(ctx, hc, spec.Command, c)...)
	}
	if spec.Filter != "" {
		matches = filterMatches(matches, spec.Filter, c.word)
	}
	if spec.Prefix != "" || spec.Suffix != "" {
		for i, m := range matches {
			matches[i] = spec.Prefix + m + spec.Suffix
		}
	}
	opts := c.opts
	if len(matches) == 0 && opts&completions.DirNames != 0 {
		matches = completions.Files(c.word, hc.Dir, hc.Env.Get("HOME").String(), true)
	}
	if opts&completions.PlusDirs != 0 {
		matches = append(matches, completions.Files(c.word, hc.Dir, hc.Env.Get("HOME").String(), true)...)
	}
	if len(matches) == 0 && opts&(completions.Default|completions.BashDefault) != 0 && c.line == nil {
		matches = completions.Files(c.word, hc.Dir, hc.Env.Get("HOME").String(), false)
	}
	return matches, ok
}

// actionNames are the names action a gives for word.
func (s *Shell) actionNames(ctx context.Context, hc interp.HandlerContext, a completions.Actions, word string) []string {
	home := hc.Env.Get("HOME").String()
	switch a {
	case completions.Alias:
		return prefixed(sortedKeys(s.aliases), word)
	case completions.ArrayVar:
		return s.varNames(hc, word, func(vr expand.Variable) bool {
			return vr.Kind == expand.Indexed || vr.Kind == expand.Associative
		})
	case completions.Builtin, completions.Enabled:
		return prefixed(builtinNames, word)
	case completions.HelpTopic:
		return prefixed(helpTopics, word)
	case completions.Export:
		return s.varNames(hc, word, func(vr expand.Variable) bool { return vr.Exported && vr.IsSet() })
	case completions.Function:
		return prefixed(s.funcNames(hc), word)
	case completions.Hostname:
		return completions.Hosts(word, hc.Env.Get("HOSTFILE").String())
	case completions.Job, completions.Running, completions.Stopped:
		return prefixed(s.jobNames(a), word)
	case completions.Keyword:
		return prefixed(completions.Keywords, word)
	case completions.SetOpt:
		return prefixed(optionNames(true), word)
	case completions.ShOpt:
		return prefixed(optionNames(false), word)
	case completions.Signal:
		return prefixed(signalNames(), word)
	case completions.Variable:
		return s.varNames(hc, word, expand.Variable.IsSet)
	case completions.Command:
		return s.commandNames(hc, word)
	case completions.File:
		return completions.Files(word, hc.Dir, home, false)
	case completions.Directory:
		return completions.Files(word, hc.Dir, home, true)
	case completions.User:
		return completions.Users(word)
	case completions.Group:
		return completions.Groups(word)
	case completions.Service:
		return completions.Services(word)
	}
	return nil // bindings (bind) and disabled builtins: none
}

func prefixed(names []string, prefix string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// varNames are the sorted names of the variables visible at hc that keep
// says to, qsh's marks left out.
func (s *Shell) varNames(hc interp.HandlerContext, prefix string, keep func(expand.Variable) bool) []string {
	var names []string
	for name := range hc.Env.Each {
		if strings.HasPrefix(name, prefix) && !strings.HasPrefix(name, marks.Prefix) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	// Each lists a variable once per scope: the innermost one counts.
	return slices.DeleteFunc(names, func(n string) bool { return !keep(hc.Env.Get(n)) })
}

// funcNames are the shell's functions, sorted. A background statement
// does not read the main shell's table, which the shell may be changing,
// but the names filed when it began.
func (s *Shell) funcNames(hc interp.HandlerContext) []string {
	if tok := s.bgToken(hc); tok != "" {
		return s.bgs.funcNames(tok)
	}
	return sortedKeys(s.runner.Funcs)
}

// jobNames are the commands of the jobs in the state a asks for.
func (s *Shell) jobNames(a completions.Actions) []string {
	t := s.jobs
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var names []string
	for _, j := range t.list {
		st := j.state()
		if a == completions.Running && st != procRunning || a == completions.Stopped && st != procStopped {
			continue
		}
		names = append(names, j.text)
	}
	return names
}

// commandNames is compgen -c: aliases, reserved words, functions,
// builtins, then the programs on PATH in its order (a name in two
// directories comes twice, as in bash); for a word with a slash, the
// executables it names.
func (s *Shell) commandNames(hc interp.HandlerContext, word string) []string {
	if strings.Contains(word, "/") {
		var out []string
		for _, f := range completions.Files(word, hc.Dir, hc.Env.Get("HOME").String(), false) {
			if isExecutable(hc.Dir, f) || isDirPath(absPath(hc.Dir, f)) {
				out = append(out, f)
			}
		}
		return out
	}
	out := prefixed(sortedKeys(s.aliases), word)
	out = append(out, prefixed(completions.Keywords, word)...)
	out = append(out, prefixed(s.funcNames(hc), word)...)
	out = append(out, prefixed(builtinNames, word)...)
	for _, dir := range filepath.SplitList(hc.Env.Get("PATH").String()) {
		if dir == "" {
			dir = "."
		}
		for _, f := range completions.Files(word, absPath(hc.Dir, dir), "", false) {
			if isExecutable(absPath(hc.Dir, dir), f) {
				out = append(out, f)
			}
		}
	}
	return out
}

func absPath(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

func isDirPath(path string) bool {
	var st unix.Stat_t
	return unix.Stat(path, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR
}

// globNames is -G: the file names pattern matches, relative to dir.
func globNames(dir, pat string) []string {
	full := pat
	if !filepath.IsAbs(pat) {
		full = filepath.Join(dir, pat)
	}
	paths, _ := filepath.Glob(full)
	if filepath.IsAbs(pat) {
		return paths
	}
	for i, p := range paths {
		if rel, err := filepath.Rel(dir, p); err == nil {
			paths[i] = rel
		}
	}
	return paths
}

// filterMatches is -X: it removes the matches of filter, in which & stands
// for word (\& for a &); a leading ! keeps them instead.
func filterMatches(matches []string, filter, word string) []string {
	keep := false
	if strings.HasPrefix(filter, "!") {
		keep, filter = true, filter[1:]
	}
	var pat strings.Builder
	for i := 0; i < len(filter); i++ {
		switch {
		case filter[i] == '\\' && i+1 < len(filter) && filter[i+1] == '&':
			pat.WriteString(`\&`)
			i++
		case filter[i] == '&':
			pat.WriteString(pattern.QuoteMeta(word, 0))
		default:
			pat.WriteByte(filter[i])
		}
	}
	match := matcher(pat.String())
	return slices.DeleteFunc(matches, func(m string) bool { return match(m) != keep })
}

// matcher compiles a pattern with bash's extended operators; one it cannot
// compile matches nothing.
func matcher(pat string) func(string) bool {
	expr, err := pattern.Regexp(pat, pattern.EntireString|pattern.ExtendedOperators)
	if err != nil {
		return func(string) bool { return false }
	}
	rx, err := regexp.Compile(expr)
	if err != nil {
		return func(string) bool { return false }
	}
	return rx.MatchString
}

// evalVar runs code through eval where hc is, then reads and unsets the
// variable name it sets.
func evalVar(ctx context.Context, hc interp.HandlerContext, code, name string) (expand.Variable, error) {
	err := hc.Builtin(ctx, []string{"eval", code})
	vr := hc.Env.Get(name)
	hc.Builtin(ctx, []string{"unset", "-v", name})
	return vr, err
}

// values are the elements of an array, or a string's value. (interp
// leaves an array made by a[i]=x marked unset: its elements count.)
func values(vr expand.Variable) []string {
	switch {
	case vr.Kind == expand.Indexed:
		return vr.List
	case vr.Kind == expand.Associative:
		return slices.Collect(func(yield func(string) bool) {
			for _, k := range sortedKeys(vr.Map) {
				if !yield(vr.Map[k]) {
					return
				}
			}
		})
	case !vr.IsSet():
		return nil
	}
	return []string{vr.String()}
}

// wordList is -W's list: split at $IFS, each word expanded as bash's
// completion does (no file name expansion).
func (s *Shell) wordList(ctx context.Context, hc interp.HandlerContext, list string) ([]string, bool) {
	ifs := " \t\n"
	if vr := hc.Env.Get("IFS"); vr.IsSet() {
		ifs = vr.String()
	}
	var src strings.Builder
	src.WriteString(marks.Prefix + "f=$-; set -f; " + marks.Prefix + "w=(")
	for _, w := range completions.SplitWordList(list, ifs) {
		src.WriteString(" " + completions.WordSource(w))
	}
	src.WriteString(" ); [[ $" + marks.Prefix + "f == *f* ]] || set +f; unset -v " + marks.Prefix + "f")
	vr, err := evalVar(ctx, hc, src.String(), marks.Prefix+"w")
	if err != nil {
		return nil, false
	}
	return values(vr), true
}

// runCompFunc runs a -F function for c and returns its COMPREPLY. Tab's
// COMP_ variables describe the line; compgen's are empty, as in bash.
// They, and COMPREPLY, are unset afterwards.
func (s *Shell) runCompFunc(ctx context.Context, hc interp.HandlerContext, fn string, c *compCall) ([]string, bool) {
	if s.bgToken(hc) == "" && !s.isFunc(fn) {
		fmt.Fprintf(hc.Stderr, "qsh: completion: function `%s' not found\n", fn)
		return nil, false
	}
	hc.Builtin(ctx, []string{"eval", compVars(c)})
	args := singleQuote(c.cmd) + " " + singleQuote(c.text) + " " + singleQuote(c.prev)
	if s.callFrom(context.WithValue(ctx, compCallKey{}, c), hc, fn, args) == 124 {
		c.retry = true
	}
	vr := hc.Env.Get("COMPREPLY")
	hc.Builtin(ctx, []string{"unset", "-v", "COMP_WORDS", "COMP_CWORD", "COMP_LINE", "COMP_POINT",
		"COMP_TYPE", "COMP_KEY", "COMPREPLY"})
	return values(vr), true
}

// compVars are the assignments of the COMP_ variables for c.
func compVars(c *compCall) string {
	if c.line == nil {
		return "COMP_WORDS=(); COMP_CWORD=-1; COMP_LINE=''; COMP_POINT=0; COMP_TYPE=0; COMP_KEY=0"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "COMP_LINE=%s; COMP_POINT=%d; COMP_TYPE=%d; COMP_KEY=9; COMP_CWORD=%d; COMP_WORDS=(",
		singleQuote(c.line.Line), c.line.Point, c.ctype, c.line.CWord)
	for _, w := range c.line.Words {
		b.WriteString(" " + singleQuote(w))
	}
	b.WriteString(" )")
	return b.String()
}

// runCompCommand runs a -C command for c, in a subshell with COMP_LINE,
// COMP_POINT, COMP_TYPE and COMP_KEY exported, and returns its output's
// lines.
func (s *Shell) runCompCommand(ctx context.Context, hc interp.HandlerContext, cmd string, c *compCall) []string {
	env := "COMP_LINE='' COMP_POINT=0 COMP_TYPE=0 COMP_KEY=0"
	if c.line != nil {
		env = fmt.Sprintf("COMP_LINE=%s COMP_POINT=%d COMP_TYPE=%d COMP_KEY=9", singleQuote(c.line.Line), c.line.Point, c.ctype)
	}
	src := fmt.Sprintf("%so=$(export %s; %s %s %s %s)", marks.Prefix, env, cmd, singleQuote(c.cmd), singleQuote(c.text), singleQuote(c.prev))
	vr, _ := evalVar(ctx, hc, src, marks.Prefix+"o")
	out := vr.String()
	if out == "" {
		return nil
	}
	return strings.Split(out, "\n")
}

// compgen is `compgen [options] [word]`: it prints what the options
// generate for word, one a line, and fails when nothing is.
func (s *Shell) compgen(ctx context.Context, hc interp.HandlerContext, b builtinIO, args []string) int {
	a, err := completions.ParseArgs("compgen", args)
	if err != nil {
		return b.usage(err)
	}
	c := &compCall{opts: a.Spec.Options, cmd: "compgen"}
	if len(a.Names) > 0 {
		c.word, c.text = a.Names[0], a.Names[0]
	}
	matches, ok := s.generate(ctx, hc, a.Spec, c)
	for _, m := range matches {
		fmt.Fprintln(b.out, m)
	}
	if !ok || len(matches) == 0 {
		return 1
	}
	return 0
}

// usage reports a bad command line of a completion builtin: status 2.
func (b builtinIO) usage(err error) int {
	ue, ok := err.(*completions.UsageError)
	if !ok {
		return b.fail(2, "%v", err)
	}
	b.fail(2, "%s", ue.Msg)
	if ue.Usage {
		fmt.Fprintf(b.err, "%s: usage: %s\n", b.name, completions.Usage(b.name))
	}
	return 2
}

// helpTopics are the topics bash's help knows: the builtins and the
// compound commands.
var helpTopics = []string{"%", "(( ... ))", ".", ":", "[", "[[ ... ]]", "alias", "bg", "bind", "break",
	"builtin", "caller", "case", "cd", "command", "compgen", "complete", "compopt", "continue", "coproc",
	"declare", "dirs", "disown", "echo", "enable", "eval", "exec", "exit", "export", "false", "fc", "fg",
	"for", "for ((", "function", "getopts", "hash", "help", "history", "if", "jobs", "kill", "let", "local",
	"logout", "mapfile", "popd", "printf", "pushd", "pwd", "read", "readarray", "readonly", "return",
	"select", "set", "shift", "shopt", "source", "suspend", "test", "time", "times", "trap", "true", "type",
	"typeset", "ulimit", "umask", "unalias", "unset", "until", "variables", "wait", "while", "{ ... }"}

// optionNames are the names of the options of set -o (set) or shopt.
func optionNames(set bool) []string {
	var names []string
	for _, o := range shellOpts {
		if o.set == set {
			names = append(names, o.name)
		}
	}
	return names
}

// signalNames is compgen -A signal: EXIT, the signals by number, then the
// shell's own trap names, as bash lists them.
func signalNames() []string {
	names := []string{"EXIT"}
	for n := 1; n < 32; n++ {
		if name := unix.SignalName(syscall.Signal(n)); name != "" {
			names = append(names, name)
		}
	}
	if rtmin, rtmax := 34, 64; runtime.GOOS == "linux" {
		// glibc keeps 32 and 33 for itself; bash lists them so.
		names = append(names, "SIGJUNK(32)", "SIGJUNK(33)")
		for n := rtmin; n <= rtmax; n++ {
			switch {
			case n == rtmin:
				names = append(names, "SIGRTMIN")
			case n == rtmax:
				names = append(names, "SIGRTMAX")
			case n-rtmin <= 15:
				names = append(names, "SIGRTMIN+"+strconv.Itoa(n-rtmin))
			default:
				names = append(names, "SIGRTMAX-"+strconv.Itoa(rtmax-n))
			}
		}
	}
	return append(names, "DEBUG", "ERR", "RETURN")
}
