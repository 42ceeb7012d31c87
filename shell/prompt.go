package shell

import (
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/ergochat/readline"
	"mvdan.cc/sh/v3/expand"

	"github.com/qsh-shell/qsh/completions"
	"github.com/qsh-shell/qsh/prompt"
)

// promptString is the primary prompt: $PS1 when the user set it, else
// qsh's own.
func (s *Shell) promptString(status int, took time.Duration) string {
	host, _ := os.Hostname()
	user := s.Var("USER")
	if user == "" {
		user = s.Var("LOGNAME")
	}
	dir := s.Dir()
	d := prompt.Data{
		User:      user,
		Host:      host,
		Dir:       dir,
		Home:      s.Var("HOME"),
		SSH:       s.Var("SSH_CONNECTION") != "" || s.Var("SSH_TTY") != "",
		Root:      os.Geteuid() == 0,
		GitBranch: prompt.GitBranch(dir),
		Status:    status,
		Duration:  took,
		Color:     prompt.ColorEnabled(s.Var, s.terminal),
		Now:       time.Now(),
		Shell:     "qsh",
		Version:   s.version,
	}
	if ps1 := s.Var("PS1"); ps1 != "" {
		return prompt.Expand(ps1, d, func(name string) string {
			switch name {
			case "?":
				return strconv.Itoa(status)
			case "$":
				return strconv.Itoa(os.Getpid())
			}
			return s.Var(name)
		})
	}
	return prompt.Render(d)
}

// continuationPrompt is $PS2, by default "> ".
func (s *Shell) continuationPrompt() string {
	if ps2 := s.Var("PS2"); ps2 != "" {
		return ps2
	}
	return "> "
}

// completer is Tab completion on the session's current state.
func (s *Shell) completer() readline.AutoCompleter {
	cmds := new(completions.Commands)
	return completions.Readline{Env: func() completions.Env {
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

// builtinNames are the builtins Tab offers.
var builtinNames = []string{
	".", ":", "[", "alias", "break", "builtin", "cd", "command", "continue",
	"declare", "dirs", "echo", "eval", "exec", "exit", "export", "false",
	"getopts", "hash", "help", "history", "kill", "let", "local", "mapfile",
	"popd", "printf", "pushd", "pwd", "read", "readarray", "readonly",
	"return", "set", "shift", "shopt", "source", "test", "times", "trap",
	"true", "type", "typeset", "umask", "unalias", "unset", "wait",
}
