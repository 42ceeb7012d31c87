package shell

import (
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/qsh-shell/qsh/shell/completions"
	"github.com/qsh-shell/qsh/shell/pattern"
)

// Programmable completion, as bash's: compspecs generate candidates from
// actions (file names, variables…), a word list, a function that fills
// COMPREPLY and a command's output, then filter them (-X) and wrap them
// (-P, -S). compgen prints what a compspec generates; Tab (progcomp.go)
// offers it. Whatever runs shell code — the word list's expansion, the
// function, the command — runs in the evaluator, so that it sees and sets
// the variables of the scope it was called from (progcomp_eval.go).

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

// actionOrder is the order in which bash gathers the actions' names.
var actionOrder = []completions.Actions{completions.Alias, completions.ArrayVar, completions.Binding,
	completions.Builtin, completions.Disabled, completions.Enabled, completions.Export,
	completions.Function, completions.HelpTopic, completions.Hostname, completions.Job,
	completions.Keyword, completions.Running, completions.SetOpt, completions.ShOpt,
	completions.Signal, completions.Stopped, completions.Variable, completions.Command,
	completions.File, completions.User, completions.Group, completions.Service, completions.Directory}

func prefixed(names []string, prefix string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
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
			pat.WriteString(pattern.QuoteMeta(word))
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
	p, err := pattern.Compile(pat, pattern.ExtGlob)
	if err != nil {
		return func(string) bool { return false }
	}
	return p.Match
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

// helpTopics are the topics bash's help knows: the builtins and the
// compound commands.
var helpTopics = []string{"%", "(( ... ))", ".", ":", "[", "[[ ... ]]", "alias", "bg", "bind", "break",
	"builtin", "caller", "case", "cd", "command", "compgen", "complete", "compopt", "continue", "coproc",
	"declare", "dirs", "disown", "echo", "enable", "eval", "exec", "exit", "export", "false", "fc", "fg",
	"for", "for ((", "function", "getopts", "hash", "help", "history", "if", "jobs", "kill", "let", "local",
	"logout", "mapfile", "popd", "printf", "pushd", "pwd", "read", "readarray", "readonly", "return",
	"select", "set", "shift", "shopt", "source", "suspend", "test", "time", "times", "trap", "true", "type",
	"typeset", "ulimit", "umask", "unalias", "unset", "until", "variables", "wait", "while", "{ ... }"}

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
