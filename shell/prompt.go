package shell

import (
	"context"
	"os"
	"os/user"
	"slices"
	"strconv"
	"time"

	"github.com/ergochat/readline"
	"mvdan.cc/sh/v3/expand"

	"github.com/qsh-shell/qsh/completions"
	"github.com/qsh-shell/qsh/prompt"
)

// promptString is the primary prompt: $PS1 when the user set it, else
// qsh's own; and the terminal titles PS1 sets, to print before it.
func (s *Shell) promptString(ctx context.Context, status int, took time.Duration) (p, titles string) {
	d := s.promptData(status, took)
	if ps1 := s.Var("PS1"); ps1 != "" {
		out := s.expandPS(ctx, ps1, d, status)
		if s.terminal {
			titles = prompt.Titles(out)
		}
		return prompt.Visible(out), titles
	}
	return prompt.Render(d), ""
}

// lookupUserName is the name of the user the shell runs as, as bash's \u
// shows it: the password database's, whatever USER says (su without -
// keeps the old one); USER or LOGNAME only when the database has no entry.
func (s *Shell) lookupUserName() string {
	if u, err := user.LookupId(strconv.Itoa(os.Getuid())); err == nil {
		return u.Username
	}
	if name := s.Var("USER"); name != "" {
		return name
	}
	return s.Var("LOGNAME")
}

// promptData is what the prompt may show.
func (s *Shell) promptData(status int, took time.Duration) prompt.Data {
	host, _ := os.Hostname()
	dir := s.Dir()
	return prompt.Data{
		User:      s.userName(),
		Host:      host,
		Dir:       dir,
		DirTrim:   atoi(s.Var("PROMPT_DIRTRIM")),
		Home:      s.Var("HOME"),
		SSH:       s.Var("SSH_CONNECTION") != "" || s.Var("SSH_TTY") != "",
		Root:      os.Geteuid() == 0,
		GitBranch: prompt.GitBranch(dir),
		Status:    status,
		Jobs:      s.jobs.count(),
		Duration:  took,
		Color:     prompt.ColorEnabled(s.Var, s.terminal),
		Now:       time.Now(),
		Shell:     "qsh",
		Version:   s.version,
	}
}

// atoi is s as a number, 0 when it is none.
func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// expandPS expands a prompt string as bash does: backslash escapes, then
// (with promptvars, the default) the shell's expansions, run in the
// session when ps has any (see [Shell.expandPrompt]). Hidden text stays
// between \x01 and \x02.
func (s *Shell) expandPS(ctx context.Context, ps string, d prompt.Data, status int) string {
	text := prompt.Decode(ps, d)
	if s.noPromptVars {
		return prompt.Unquote(text)
	}
	if !needsShell(ps) {
		return prompt.Unquote(text)
	}
	if out, ok := s.expandPrompt(ctx, text, status); ok {
		return out
	}
	return prompt.Unquote(text)
}

// needsShell reports whether prompt string ps has a $ or ` of its own,
// not one of a backslash escape: most have none, and are drawn without
// running anything.
func needsShell(ps string) bool {
	for i := 0; i < len(ps); i++ {
		switch ps[i] {
		case '\\':
			i++
		case '$', '`':
			return true
		}
	}
	return false
}

// continuationPrompt is $PS2, by default "> ".
func (s *Shell) continuationPrompt(ctx context.Context, status int) string {
	if ps2 := s.Var("PS2"); ps2 != "" {
		return prompt.Visible(s.expandPS(ctx, ps2, s.promptData(status, 0), status))
	}
	return "> "
}

// completer is Tab completion on the session's current state.
func (s *Shell) completer() readline.AutoCompleter {
	cmds := new(completions.Commands)
	last, lastCursor := "", -1
	program := func(line string, cursor int) ([]string, int, bool) {
		again := line == last && cursor == lastCursor
		last, lastCursor = line, cursor
		return s.tabComplete(line, cursor, again)
	}
	return completions.Readline{Programmable: program, Env: func() completions.Env {
		env := completions.Env{
			Dir:      s.Dir(),
			Home:     s.Var("HOME"),
			Path:     s.Var("PATH"),
			Builtins: builtinNames,
			Commands: cmds,
		}
		for name := range s.runner.Funcs {
			env.Functions = append(env.Functions, name)
		}
		for name := range s.aliases {
			env.Aliases = append(env.Aliases, name)
		}
		for name, vr := range s.runner.Vars {
			if vr.IsSet() && vr.Kind != expand.NameRef {
				env.Vars = append(env.Vars, name)
			}
		}
		slices.Sort(env.Functions)
		slices.Sort(env.Aliases)
		slices.Sort(env.Vars)
		return env
	}}
}

// builtinNames are the builtins, bash's all: what Tab and compgen -b
// offer.
var builtinNames = []string{
	".", ":", "[", "alias", "bg", "bind", "break", "builtin", "caller", "cd", "command", "compgen",
	"complete", "compopt", "continue", "declare", "dirs", "disown", "echo", "enable", "eval", "exec",
	"exit", "export", "false", "fc", "fg", "getopts", "hash", "help", "history", "jobs", "kill", "let",
	"local", "logout", "mapfile", "popd", "printf", "pushd", "pwd", "read", "readarray", "readonly",
	"return", "set", "shift", "shopt", "source", "suspend", "test", "times", "trap", "true", "type",
	"typeset", "ulimit", "umask", "unalias", "unset", "wait",
}
