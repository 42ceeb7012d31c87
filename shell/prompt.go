package shell

import (
	"context"
	"os"
	"os/user"
	"slices"
	"strconv"
	"time"

	"github.com/qsh-shell/qsh/shell/eval"

	"github.com/qsh-shell/qsh/shell/completions"
	"github.com/qsh-shell/qsh/shell/prompt"
)

// promptString is the primary prompt: $PS1 when the user set it, else
// qsh's own; and the terminal titles PS1 sets, to print before it.
func (s *Shell) promptString(ctx context.Context, status int, took time.Duration) (p, titles string) {
	d := s.promptData(status, took)
	if ps1 := s.Var("PS1"); ps1 != "" {
		out := s.expandPS(ctx, ps1, d)
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
func (s *Shell) lookupUserName() string { return userName(s.Var) }

// userName is the user the process runs as, by its ID, else as the
// environment names it.
func userName(getvar func(string) string) string {
	if u, err := user.LookupId(strconv.Itoa(os.Getuid())); err == nil {
		return u.Username
	}
	if name := getvar("USER"); name != "" {
		return name
	}
	return getvar("LOGNAME")
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
		Jobs:      s.r.JobCount(),
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
// (with promptvars, the default) the shell's expansions, in the session,
// when ps has any. Hidden text stays between \x01 and \x02.
func (s *Shell) expandPS(ctx context.Context, ps string, d prompt.Data) string {
	return expandPSIn(ctx, s.r, ps, d)
}

// expandPSIn is expandPS in r, the shell or the subshell that asks
// (${x@P}, PS4).
func expandPSIn(ctx context.Context, r *eval.Runner, ps string, d prompt.Data) string {
	text := prompt.Decode(ps, d)
	if on, _ := r.Opt("promptvars"); !on || !needsShell(ps) {
		return prompt.Unquote(text)
	}
	out, err := r.ExpandString(ctx, text)
	if err != nil {
		return prompt.Unquote(text)
	}
	return out
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
		return prompt.Visible(s.expandPS(ctx, ps2, s.promptData(status, 0)))
	}
	return "> "
}

// completer is Tab completion on the session's current state.
func (s *Shell) completer() *tabCompleter {
	cmds := new(completions.Commands)
	last, lastCursor := "", -1
	program := func(line string, cursor int) ([]completions.Match, int, bool) {
		again := line == last && cursor == lastCursor
		last, lastCursor = line, cursor
		return s.tabMatches(line, cursor, again)
	}
	t := &tabCompleter{rlVar: s.rlVar}
	t.rl = completions.Readline{Programmable: program, Env: func() completions.Env {
		env := completions.Env{
			Dir:               s.Dir(),
			Home:              s.Var("HOME"),
			Path:              s.Var("PATH"),
			Builtins:          s.r.BuiltinNames(),
			Commands:          cmds,
			IgnoreCase:        t.on("completion-ignore-case"),
			MapCase:           t.on("completion-map-case"),
			HideDotFiles:      !t.on("match-hidden-files"),
			NoMarkDirs:        !t.on("mark-directories"),
			MarkSymlinkedDirs: t.on("mark-symlinked-directories"),
		}
		env.Functions = s.r.FuncNames()
		env.Aliases = s.r.AliasNames()
		for _, name := range s.r.VarNames() {
			if v := s.r.Var(name); v != nil && v.IsSet() && v.Attr&eval.AttrNameref == 0 {
				env.Vars = append(env.Vars, name)
			}
		}
		slices.Sort(env.Functions)
		slices.Sort(env.Aliases)
		slices.Sort(env.Vars)
		return env
	}}
	return t
}
