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
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// The hooks tools install in an interactive bash, run where bash runs
// them: PROMPT_COMMAND before each prompt, PS0 once a line is read, and
// PS1 and PS2 expanded anew for each prompt (see prompt.go). The DEBUG
// trap is in debug.go, key bindings in bind.go.

// promptMark is the builtin that hands an expanded prompt back to the
// shell (see [Shell.expandPrompt]).
const promptMark = "__qsh_prompt"

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
		s.setStatus(ctx, st)
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
	lit := func(v string) *syntax.Word { return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: v}}} }
	s.runner.Run(ctx, &syntax.CallExpr{Assigns: []*syntax.Assign{
		{Name: &syntax.Lit{Value: "COLUMNS"}, Value: lit(strconv.Itoa(cols))},
		{Name: &syntax.Lit{Value: "LINES"}, Value: lit(strconv.Itoa(lines))},
	}})
	s.setStatus(ctx, st)
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
	vr, ok := s.runner.Vars[name]
	if !ok {
		vr = s.runner.Env.Get(name)
	}
	if !vr.IsSet() {
		return nil
	}
	switch vr.Kind {
	case expand.String:
		return []string{vr.Str}
	case expand.Indexed:
		return vr.List
	case expand.Associative:
		var list []string
		for _, v := range vr.Map {
			list = append(list, v)
		}
		return list
	}
	return nil
}

// runHook runs src in the session, as a command line would run it but
// for the record and history: a syntax error says `name:LINE: …`, Ctrl-C
// stops it, and its status is left in $?.
func (s *Shell) runHook(ctx context.Context, src, name string) int {
	f, st := s.parse(src+"\n", name)
	if st != 0 {
		return st
	}
	s.markCode(f)
	if s.identified {
		markDash(f)
	}
	if in := s.cancellableStdin(); in != nil {
		interp.StdIO(in, s.stdout, s.stderr)(s.runner)
		defer in.Close()
	}
	fctx, stop := s.foreground(ctx)
	defer stop()
	return s.runFile(fctx, f)
}

// ps0 prints PS0, expanded, once a command line is read and before it
// runs, as bash does. \[ \] only mark text here: all of it is printed.
func (s *Shell) ps0(ctx context.Context, st int) {
	ps0 := s.Var("PS0")
	if ps0 == "" {
		return
	}
	out := s.expandPS(ctx, ps0, s.promptData(st, 0), st)
	io.WriteString(s.stdout, strings.NewReplacer("\x01", "", "\x02", "").Replace(out))
}

// expandPrompt expands text, a prompt string whose backslash escapes are
// decoded (see [prompt.Decode]), as bash expands PS1 with promptvars set:
// parameters, command substitutions and arithmetic, in the session, as
// in a double-quoted string. It reports false when text does not parse;
// the caller then shows the prompt without expansions. $? is st during
// and after.
func (s *Shell) expandPrompt(ctx context.Context, text string, st int) (string, bool) {
	word, err := syntax.NewParser().Document(strings.NewReader(text))
	if err != nil {
		s.errorf("prompt: %v", err)
		return "", false
	}
	arg := &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: word.Parts}}}
	call := &syntax.CallExpr{Args: []*syntax.Word{{Parts: []syntax.WordPart{&syntax.Lit{Value: promptMark}}}, arg}}
	f := &syntax.File{Stmts: []*syntax.Stmt{{Cmd: call}}}
	s.markCode(f)
	if s.identified {
		markDash(f)
	}
	s.prompted, s.promptOut = false, ""
	fctx, stop := s.foreground(ctx)
	s.runFile(fctx, f)
	stop()
	s.setStatus(ctx, st)
	return s.promptOut, s.prompted
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
			out, ok := s.expandPrompt(ctx, line, s.status)
			return out, ok
		},
		vi: func() bool { return s.optNow("vi") },
	}
}

// keyCommand runs a bind -x command as bash does: READLINE_LINE and
// READLINE_POINT (in characters, as ${#var} counts) hold the line being
// edited and the cursor, and what the command leaves in them is the line
// after; then they are unset, and $? is the last line's again.
func (s *Shell) keyCommand(ctx context.Context, cmd, line string, point int) (string, int) {
	set := "READLINE_LINE=" + quote(line) + " READLINE_POINT=" + strconv.Itoa(point) + " READLINE_MARK=0"
	s.runHook(ctx, set, "bind")
	s.inKeyCommand = true
	s.runHook(ctx, cmd, "bind -x")
	s.inKeyCommand = false
	line = s.Var("READLINE_LINE")
	if p, err := strconv.ParseInt(strings.TrimSpace(s.Var("READLINE_POINT")), 0, 64); err == nil {
		point = int(max(0, min(p, int64(utf8.RuneCountInString(line)))))
	}
	s.runHook(ctx, "unset READLINE_LINE READLINE_POINT READLINE_MARK", "bind")
	s.setStatus(ctx, s.status)
	return line, point
}

// promptBuiltin is [promptMark]: it keeps its argument, the expanded
// prompt.
func (s *Shell) promptBuiltin(args []string) {
	if len(args) == 1 {
		s.prompted, s.promptOut = true, args[0]
	}
}
