package completions

import (
	"slices"
	"strings"
)

// Env is what completion needs to know about the shell, as plain data.
type Env struct {
	Dir       string // current directory, absolute
	Home      string // $HOME, for ~
	Path      string // $PATH, for command names
	Builtins  []string
	Functions []string
	Aliases   []string
	Vars      []string // variable names, for $NAME
	// Commands caches the executables on Path; nil means none are offered.
	// Keep one for the session: it rescans only when Path or a directory on
	// it changes.
	Commands *Commands
	// IgnoreCase matches file and command names whatever their case
	// (readline's completion-ignore-case); a candidate then starts with
	// the typed word only when case is ignored.
	IgnoreCase bool
	// MapCase, with IgnoreCase, takes - and _ for the same
	// (completion-map-case).
	MapCase bool
	// HideDotFiles leaves out names starting with . unless the word
	// does (match-hidden-files off).
	HideDotFiles bool
	// NoMarkDirs leaves the / off a directory completed
	// (mark-directories off).
	NoMarkDirs bool
	// MarkSymlinkedDirs gives a link to a directory its / at once
	// (mark-symlinked-directories).
	MarkSymlinkedDirs bool
}

// hasPrefix reports whether s starts with prefix as env matches names:
// case ignored with IgnoreCase, - and _ alike with MapCase too.
func (env Env) hasPrefix(s, prefix string) bool {
	if !env.IgnoreCase {
		return strings.HasPrefix(s, prefix)
	}
	if len(s) < len(prefix) {
		return false
	}
	s = s[:len(prefix)]
	if env.MapCase {
		s, prefix = strings.ReplaceAll(s, "_", "-"), strings.ReplaceAll(prefix, "_", "-")
	}
	return strings.EqualFold(s, prefix)
}

// Complete returns the candidates for the word before cursor in line, each a
// full replacement for the last replace bytes before cursor (which every
// candidate starts with). See the package documentation for the contract.
func Complete(line string, cursor int, env Env) (cands []string, replace int) {
	matches, replace := Matches(line, cursor, env)
	return Texts(matches), replace
}

// Match is a candidate and what a listing of the candidates shows of it.
type Match struct {
	Text string // the full replacement, as [Complete] gives it
	Name string // what a listing shows: a file's name, or a word without its closing space
	Path string // the file the candidate names, for its type and colour; "" for other words
}

// Texts are the matches' replacements.
func Texts(ms []Match) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Text
	}
	return out
}

// words are candidates that name no file.
func words(cands []string) []Match {
	out := make([]Match, len(cands))
	for i, c := range cands {
		out[i] = Match{Text: c, Name: strings.TrimSuffix(c, " ")}
	}
	return out
}

// Matches is [Complete] with what a listing shows of each candidate.
func Matches(line string, cursor int, env Env) ([]Match, int) {
	cursor = max(0, min(cursor, len(line)))
	w := scan(line[:cursor])
	if w.comment {
		return nil, 0
	}
	if w.varStart >= 0 {
		return words(completeVar(line[w.varStart:cursor], env)), cursor - w.varStart
	}
	if w.expands {
		return nil, 0 // a word with $x or $(…) in it: its value is unknown here
	}
	cmd, args, cmdPos := command(w.words)
	// NAME=value before a command or after export and the like, and
	// --option=value: the value is what gets completed.
	assign := isAssignment(w.value) && (cmdPos || slices.Contains(declarations, cmd))
	w.afterEq = w.eqRaw >= 0 && (assign || strings.HasPrefix(w.value, "--"))
	switch {
	case w.redirect:
		return completePath(w, env, anyFile)
	case cmdPos && w.quote == 0 && !strings.Contains(w.value, "/") && !assign:
		if w.value == "~" {
			return completePath(w, env, anyFile)
		}
		return words(finish(commandNames(w.value, env), w.raw, env)), len(w.raw)
	case cmdPos && !assign:
		return completePath(w, env, executable)
	case cmd == "git" && !w.afterEq:
		if c, ok := completeGit(w, args, env); ok {
			return words(c), len(w.raw)
		}
	case cmd == "cd" || cmd == "pushd" || cmd == "rmdir":
		return completePath(w, env, dirsOnly)
	}
	return completePath(w, env, anyFile)
}

// finish appends a space to each name and makes each a full replacement for
// raw; names that do not start with raw (in any case, with fold) are
// dropped.
func finish(names []string, raw string, env Env) []string {
	var out []string
	for _, n := range names {
		if env.hasPrefix(n, raw) {
			out = append(out, n+" ")
		}
	}
	return out
}

// command finds the command word among the words before the current one,
// skipping assignments, reserved words and prefix commands such as sudo and
// env. cmdPos is true when the current word is itself the command.
func command(words []string) (cmd string, args []string, cmdPos bool) {
	i := 0
	for i < len(words) {
		w := words[i]
		switch {
		case isAssignment(w), slices.Contains(reserved, w):
			i++
			continue
		}
		opts, ok := prefixOptions(w)
		if !ok {
			return w, words[i+1:], false
		}
		i++
		for i < len(words) && (strings.HasPrefix(words[i], "-") || w == "env" && isAssignment(words[i])) {
			if strings.Contains(opts, " "+words[i]+" ") {
				i++ // the option's argument
			}
			i++
		}
	}
	return "", nil, true
}

// declarations take NAME=value arguments.
var declarations = []string{"export", "local", "declare", "readonly", "typeset"}

// reserved words after which a command name comes.
var reserved = []string{"!", "{", "if", "then", "else", "elif", "do", "while", "until", "time"}

// prefixOptions reports whether cmd runs the command that follows it,
// and lists its options that take an argument, space-separated with spaces
// around. (A switch, not a map: a map would be built at start-up.)
func prefixOptions(cmd string) (opts string, ok bool) {
	switch cmd {
	case "sudo":
		return " -u -g -C -h -p -U -r -t -D ", true
	case "doas":
		return " -u -C ", true
	case "env":
		return " -u -C -S ", true
	case "nohup", "command", "builtin":
		return " ", true
	case "nice":
		return " -n ", true
	case "exec":
		return " -a ", true
	case "xargs":
		return " -a -d -E -I -L -n -P -s ", true
	case "time":
		return " -f -o ", true
	}
	return "", false
}

func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	return ok && isName(strings.TrimSuffix(name, "+"))
}

func isName(s string) bool {
	if s == "" || !isNameStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}

func isNameStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isNameByte(c byte) bool { return isNameStart(c) || c >= '0' && c <= '9' }

// reservedWords are offered as command names too.
var reservedWords = []string{"case", "for", "function", "if", "select", "until", "while", "time"}

// commandNames lists builtins, functions, aliases, reserved words and
// executables starting with prefix, sorted and without repeats.
func commandNames(prefix string, env Env) []string {
	var names []string
	add := func(list []string) {
		for _, n := range list {
			if env.hasPrefix(n, prefix) {
				names = append(names, n)
			}
		}
	}
	add(env.Builtins)
	add(env.Functions)
	add(env.Aliases)
	add(reservedWords)
	if env.Commands != nil {
		add(env.Commands.Names(env.Path))
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// completeVar completes typed, which is "$NAME" or "${NAME" (NAME possibly
// empty), from env.Vars.
func completeVar(typed string, env Env) []string {
	braced := strings.HasPrefix(typed, "${")
	prefix := strings.TrimPrefix(strings.TrimPrefix(typed, "$"), "{")
	var out []string
	for _, v := range env.Vars {
		if !strings.HasPrefix(v, prefix) || !isName(v) {
			continue
		}
		if braced {
			out = append(out, "${"+v+"}")
		} else {
			out = append(out, "$"+v)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
