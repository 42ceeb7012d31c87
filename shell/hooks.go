package shell

import (
	"context"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/term"
)

// The hooks tools install in an interactive bash, run where bash runs
// them: PROMPT_COMMAND before each prompt, PS0 once a line is read, and
// PS1 and PS2 expanded anew for each prompt (see prompt.go). The DEBUG
// trap is the evaluator's, key bindings in bind.go.

// promptCommand runs PROMPT_COMMAND, a string or each element of an
// array, as bash does before it draws a primary prompt, with $? the last
// line's status, and gives $? back after. What it prints is shown;
// errors in it are reported and the shell goes on. It reports whether
// the shell must exit (`exit` in it).
func (s *Shell) promptCommand(ctx context.Context, st int) bool {
	cmds := s.varList("PROMPT_COMMAND")
	ran := false
	for _, c := range cmds {
		if strings.TrimSpace(c) == "" {
			continue
		}
		ran = true
		s.runHook(ctx, c, "PROMPT_COMMAND")
		if s.exited() {
			return true
		}
	}
	if ran {
		s.r.SetStatus(st)
	}
	return false
}

// setWinSize sets COLUMNS and LINES to the terminal's size when it
// changed, as an interactive bash does after each command (checkwinsize):
// prompts (starship's --terminal-width="$COLUMNS") read them. $? is st
// after.
func (s *Shell) setWinSize(ctx context.Context, st int) {
	out, ok := s.stdout.(*os.File)
	if !ok || !s.terminal {
		return
	}
	cols, lines, err := term.GetSize(int(out.Fd()))
	if err != nil || cols <= 0 || [2]int{cols, lines} == s.winSize {
		return
	}
	s.winSize = [2]int{cols, lines}
	s.r.Set("COLUMNS", strconv.Itoa(cols))
	s.r.Set("LINES", strconv.Itoa(lines))
	s.r.SetStatus(st)
}

// primaryPrompt runs PROMPT_COMMAND and expands PS1 (see [Shell.promptString]);
// exit is set when PROMPT_COMMAND ran `exit`.
func (s *Shell) primaryPrompt(ctx context.Context, st int, took time.Duration) (p, titles string, exit bool) {
	p = "$ "
	if s.Var("PROMPT_COMMAND") != "" || needsShell(s.Var("PS1")) {
		// Else not before the first prompt, which has nothing to read
		// them: before the first command line (see [Shell.REPL]).
		s.setWinSize(ctx, st)
	}
	s.hook("PROMPT_COMMAND", func() { exit = s.promptCommand(ctx, st) })
	if !exit {
		s.hook("PS1", func() { p, titles = s.promptString(ctx, st, took) })
	}
	return p, titles, exit
}

// hook runs f, code of qsh's that runs the user's hooks: a panic in it
// costs one line, not the shell.
func (s *Shell) hook(what string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			s.errorf("%s: %v", what, r)
		}
	}()
	f()
}

// varList is a variable's value as bash runs PROMPT_COMMAND: the string,
// or an array's elements in order.
func (s *Shell) varList(name string) []string {
	v := s.r.Var(name)
	if v == nil || !v.IsSet() && len(v.Values()) == 0 {
		return nil
	}
	return v.Values()
}

// runHook runs src in the session, as a command line would run it but
// for the record and history: a syntax error says `name: line N: …`,
// Ctrl-C stops it, and its status is left in $?.
func (s *Shell) runHook(ctx context.Context, src, name string) int {
	defer s.foreground()()
	return s.run(ctx, src, name)
}

// ps0 prints PS0, expanded, once a command line is read and before it
// runs, as bash does. \[ \] only mark text here: all of it is printed.
func (s *Shell) ps0(ctx context.Context, st int) {
	ps0 := s.Var("PS0")
	if ps0 == "" {
		return
	}
	out := s.expandPS(ctx, ps0, s.promptData(st, 0))
	io.WriteString(s.stdout, strings.NewReplacer("\x01", "", "\x02", "").Replace(out))
}

// editorHooks is what the line editor needs of the session for bound
// keys.
func (s *Shell) editorHooks(ctx context.Context) editorHooks {
	return editorHooks{
		keys: &s.keys,
		command: func(cmd, line string, point int) (string, int) {
			return s.keyCommand(ctx, cmd, line, point)
		},
		expand: func(line string) (string, bool) {
			out, err := s.r.ExpandString(ctx, line)
			return out, err == nil
		},
		vi: func() bool { return s.optNow("vi") },
	}
}

// keyCommand runs a bind -x command as bash does: READLINE_LINE and
// READLINE_POINT (in characters, as ${#var} counts) hold the line being
// edited and the cursor, and what the command leaves in them is the line
// after; then they are unset, and $? is the last line's again.
func (s *Shell) keyCommand(ctx context.Context, cmd, line string, point int) (string, int) {
	s.r.Set("READLINE_LINE", line)
	s.r.Set("READLINE_POINT", strconv.Itoa(point))
	s.r.Set("READLINE_MARK", "0")
	s.inKeyCommand = true
	s.runHook(ctx, cmd, "bind -x")
	s.inKeyCommand = false
	line = s.Var("READLINE_LINE")
	if p, err := strconv.ParseInt(strings.TrimSpace(s.Var("READLINE_POINT")), 0, 64); err == nil {
		point = int(max(0, min(p, int64(utf8.RuneCountInString(line)))))
	}
	for _, name := range []string{"READLINE_LINE", "READLINE_POINT", "READLINE_MARK"} {
		s.r.Unset(name)
	}
	s.r.SetStatus(s.status)
	return line, point
}
