package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/term"
)

// maxRecord is how many command lines the session record keeps.
const maxRecord = 50

// REPL reads and runs command lines until Ctrl-D or `exit`, and returns the
// shell's exit status. stdin must be a terminal unless a [Reader] was given.
func (s *Shell) REPL(ctx context.Context) int {
	s.sigs.start()
	defer s.sigs.stop()
	if v, _ := s.r.Get("PS1"); s.defaultPS1 && v == bashPS1 {
		s.r.Unset("PS1") // qsh's own prompt
	}
	s.startJobs()
	defer s.endJobs()
	if s.lines == nil {
		in, ok := s.stdin.(*os.File)
		if !ok {
			s.errorf("interactive mode needs a terminal")
			return 1
		}
		s.keys.addOwn()
		ed, err := newLineEditor(in, s.stdout, s.completer(), s.cfg.HistSize, s.editorHooks(ctx))
		if err != nil {
			s.errorf("%v", err)
			return 1
		}
		s.lines = ed
	}
	defer s.lines.Close()
	s.loadHistory()
	defer s.reportHistory()
	defer s.settleHistory()
	tty := s.saveTerminal()

	st := 0
	eofs := 0 // Ctrl-Ds in a row, for ignoreeof
	var took time.Duration
	var buf strings.Builder
	for {
		var p string
		if buf.Len() > 0 {
			p = "> "
			s.hook("PS2", func() { p = s.continuationPrompt(ctx, st) })
		} else {
			s.r.Report()
			var titles string
			var exit bool
			p, titles, exit = s.primaryPrompt(ctx, st, took)
			if exit && !s.holdExit() {
				break
			}
			// The prompt-start mark goes out before the line editor
			// draws the prompt: inside the prompt string readline would
			// count its bytes as width. (No prompt-end mark for the same
			// reason; capture needs only the command marks.) So do the
			// terminal titles PS1 sets.
			io.WriteString(s.stdout, titles+s.capture.PromptStart())
			if s.handed != "" {
				s.lines.Prefill(s.handed)
				s.handed = ""
			}
		}
		s.status = st
		line, err := s.readLine(p)
		if errors.Is(err, ErrTooLong) {
			s.errorf("%v", err)
			err = ErrInterrupt
		}
		if errors.Is(err, ErrInterrupt) {
			buf.Reset()
			st = 130
			s.r.SetStatus(st)
			continue
		}
		if err == io.EOF && buf.Len() == 0 {
			if s.ignoreEOF(&eofs) || s.holdExit() {
				continue
			}
			break
		}
		eofs = 0
		if err != nil && err != io.EOF {
			s.errorf("%v", err)
			break
		}
		if err == nil {
			// History expansion works on each line as it is read, as
			// bash's does: not on a `?` line, the assistant's.
			if _, q := question(line); !q || buf.Len() > 0 {
				var run bool
				if line, run = s.expandHistory(line); !run {
					buf.Reset()
					continue
				}
			}
		}
		buf.WriteString(line)
		buf.WriteByte('\n')
		src := buf.String()
		// A question is one line; shell input goes on while incomplete.
		if _, q := question(src); err == nil && !q && incomplete(src) {
			continue
		}
		buf.Reset()
		entry := strings.TrimSuffix(src, "\n")
		if strings.TrimSpace(entry) == "" {
			continue
		}
		s.private = s.remember(entry)
		s.setWinSize(ctx, st)
		s.hook("PS0", func() { s.ps0(ctx, st) })
		start := time.Now()
		st = s.runLine(ctx, entry)
		took = time.Since(start)
		tty.settle(st)
		if s.exited() && !s.holdExit() {
			break
		}
	}
	return s.finish(st)
}

// ignoreEOF reports whether a Ctrl-D on an empty line is to be ignored,
// as bash's ignoreeof and IGNOREEOF say: the shell ends at the Nth in a
// row (IGNOREEOF's value, 10 when it is not a number), saying how to leave
// before.
func (s *Shell) ignoreEOF(eofs *int) bool {
	v, set := s.r.Get("IGNOREEOF")
	if !set && !s.optNow("ignoreeof") {
		return false
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		n = 10
	}
	if *eofs++; *eofs > n {
		return false
	}
	fmt.Fprintf(s.stderr, "Use \"%s\" to leave the shell.\n", map[bool]string{false: "exit", true: "logout"}[s.login])
	return true
}

// readLine reads one line; a panic in the line editor (it has one for a
// terminal that never answers its cursor query) costs the line, not the
// shell.
func (s *Shell) readLine(prompt string) (line string, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.errorf("line editor: %v", r)
			line, err = "", ErrInterrupt
		}
	}()
	return s.lines.ReadLine(prompt)
}

// loadHistory arranges for the history file to be read on a goroutine of
// its own, so that the first prompt does not wait for it: a long history
// is the biggest part of the work before that prompt, and nothing needs it
// until the first key press (readline's recall), the first command line or
// `history`, which join it (see [Shell.joinHistory]). With the line
// editor, the read begins once the prompt is drawn, when the editor first
// waits for a key: begun before, it would compete with the drawing for the
// two cores of a small machine (its page faults alone, one per 4 KB of a
// 700 KB file, cost as much as the drawing). Only opening the file happens
// here, so that a missing HOME or an unusable directory still says so
// before the first prompt.
func (s *Shell) loadHistory() {
	if s.cfg.HistSize <= 0 {
		return
	}
	path, plain, err := s.historyPath()
	if err == nil && path != "" {
		s.hist.plain = plain
		err = s.hist.start(path)
	}
	if err != nil {
		s.errorf("%v", err)
	}
	if s.hist.loading == nil {
		return
	}
	if ed, ok := s.lines.(*lineEditor); ok {
		ed.pending = func() { s.joinHistory(false) }
		ed.in.idle = s.hist.begin
	} else {
		s.hist.begin()
	}
}

// historyPath is the file history is kept in, as the rc files left it:
// QSH_HISTFILE, else HISTFILE — qsh's own file unless the rc files or the
// environment named another, which is then in bash's format (plain), and
// none when they unset it, as in bash.
func (s *Shell) historyPath() (path string, plain bool, err error) {
	if s.cfg.HistFile != "" {
		path, err = historyFile(s.cfg, s.Var)
		return path, false, err
	}
	v, set := s.r.Get("HISTFILE")
	switch {
	case v != "" && v == s.ownHistFile:
		return v, false, nil
	case v != "":
		if !filepath.IsAbs(v) {
			v = filepath.Join(s.r.Dir(), v)
		}
		return v, true, nil
	case !set && s.ownHistFile == "":
		// No HOME to name a file with: historyFile says so.
		path, err = historyFile(s.cfg, s.Var)
		return path, false, err
	}
	return "", false, nil
}

// followHistFile moves the saving of entries to the file HISTFILE names
// now, when a command changed it: none when it was unset, as bash then
// writes nothing at exit.
func (s *Shell) followHistFile() {
	if s.cfg.HistFile != "" || s.hist.size == 0 {
		return
	}
	path, plain, err := s.historyPath()
	if err != nil || path == s.hist.path {
		return
	}
	s.hist.retarget(path, plain)
}

// remember adds a command line to the history unless HISTCONTROL or
// HISTIGNORE keep it out (see [histRules]), and reports whether the line
// is private: kept out of the session record too.
func (s *Shell) remember(entry string) (private bool) {
	if !s.optNow("history") { // set +o history: no history, still private
		return s.histRules().private(entry)
	}
	s.joinHistory(true)
	s.followHistFile()
	r := s.histRules()
	prev, hasPrev := "", len(s.hist.entries) > 0
	if hasPrev {
		prev = s.hist.entries[len(s.hist.entries)-1]
	}
	if !r.keep(entry, prev, hasPrev) {
		return r.private(entry)
	}
	if r.eraseDups && s.hist.erase(entry) {
		s.lines.ClearHistory()
		for _, e := range s.hist.entries {
			s.lines.AddHistory(e)
		}
	}
	s.lines.AddHistory(entry)
	if note := s.hist.add(entry); note != "" {
		s.errorf("%s", note)
	}
	return false
}

// runLine runs one complete command line (or asks one question) in the
// foreground and records what it did.
func (s *Shell) runLine(ctx context.Context, line string) int {
	start := time.Now()
	dir := s.Dir()
	s.lineNo++
	// Every line that goes into the record is marked, `?` lines too, so
	// that the outputs the proxy keeps line up with the record.
	io.WriteString(s.stdout, s.capture.CommandStart())
	stop := s.foreground()
	var st int
	if text, ok := question(line); ok {
		qctx, qstop := s.cancellable(ctx)
		st = s.askLine(qctx, text)
		if qctx.Err() != nil && ctx.Err() == nil {
			st = 130
			if s.terminal {
				fmt.Fprintln(s.stderr)
			}
		}
		qstop()
		s.r.SetStatus(st)
	} else {
		st = s.run(ctx, line, "")
		if st == 128+int(syscall.SIGINT) && s.terminal {
			// The line died of a Ctrl-C: the next prompt starts on a
			// line of its own, after the ^C the terminal echoed.
			fmt.Fprintln(s.stderr)
		}
	}
	stop()
	io.WriteString(s.stdout, s.capture.CommandEnd(st))
	s.record = append(s.record, recorded{Command{Line: line, Dir: dir, Start: start,
		Duration: time.Since(start), Status: st}, s.private})
	if len(s.record) > maxRecord {
		s.record = append(s.record[:0:0], s.record[len(s.record)-maxRecord:]...)
	}
	return st
}

// syncDir moves the process's own cwd to the session's after a `cd`, so
// that what reads the process cwd (completion, the assistant's tools, a
// terminal opening a new tab) agrees, and tells the terminal (OSC 7).
func (s *Shell) syncDir() {
	d := s.r.Dir()
	if d == s.dir {
		return
	}
	s.dir = d
	os.Chdir(d)
	if s.terminal {
		host, _ := os.Hostname()
		u := url.URL{Scheme: "file", Host: host, Path: d}
		fmt.Fprintf(s.stdout, "\x1b]7;%s\x1b\\", u.String())
	}
}

// askLine hands a `?` line to the assistant.
func (s *Shell) askLine(ctx context.Context, text string) int {
	if s.ask == nil {
		fmt.Fprintln(s.stderr, NoProvider)
		return 1
	}
	q := Question{
		Text:     text,
		Dir:      s.Dir(),
		Stdout:   s.stdout,
		Stderr:   s.stderr,
		Terminal: s.terminal,
		Run:      s.Run,
		Environ:  s.Environ(),
	}
	if s.terminal {
		q.ReadKey = s.readKey
	}
	withContext, ok := s.strictSwitch("QSH_AI_CONTEXT", s.cfg.AIContext)
	if !ok {
		return 1
	}
	if withContext {
		q.Record = s.recordWithOutput()
	} else {
		q.NoContext = true
	}
	// A private question's commands stay out of the history as it does,
	// and one the user takes over starts with a blank, to stay private too.
	q.Private = s.private
	if s.switchVar("QSH_AI_HISTORY", s.cfg.AIHistory) && !q.Private {
		q.Remember = func(command string) { s.remember(command) }
	}
	if s.lines != nil {
		lead := ""
		if q.Private && s.histRules().ignoreSpace {
			lead = " "
		}
		q.Edit = func(command string) { s.handed = lead + command }
	}
	if s.optNow("expand_aliases") {
		q.Aliases = map[string]string{}
		for _, name := range s.r.AliasNames() {
			q.Aliases[name], _ = s.r.Alias(name)
		}
	}
	q.Dry = s.r.Dry
	err := s.ask(ctx, q)
	// A turn may say what its line's status is (qsh --json).
	var st interface{ ExitStatus() int }
	switch {
	case err == nil:
		return 0
	case errors.Is(err, context.Canceled):
		return 130
	case errors.As(err, &st):
		fmt.Fprintf(s.stderr, "qsh: ?: %v\n", err)
		return st.ExitStatus()
	default:
		fmt.Fprintf(s.stderr, "qsh: ?: %v\n", err)
		return 1
	}
}

// recordWithOutput is the commands of the session record, with the tail
// of what each printed as far as the capture proxy has it. `?` lines are
// left out: they are not commands, and their answers, with what the
// assistant's tools printed, are in its conversation already.
func (s *Shell) recordWithOutput() []Command {
	rec := s.record
	outs, err := s.capture.Outputs(len(rec))
	if err != nil {
		s.errorf("%v", err)
		outs = nil
	}
	// Both lists end with the last finished line: match from the end,
	// and stop at the first disagreement rather than attach output to the
	// wrong command. Private lines are matched too, then left out.
	texts := make([]string, len(rec))
	for i, j := len(rec)-1, len(outs)-1; i >= 0 && j >= 0; i, j = i-1, j-1 {
		if outs[j].Status >= 0 && outs[j].Status != rec[i].Status {
			break
		}
		texts[i] = outs[j].Text
	}
	return slices.DeleteFunc(public(rec, texts), func(c Command) bool {
		_, ok := question(c.Line)
		return ok
	})
}

// NoProvider is what a `?` line prints when no assistant is set up.
const NoProvider = "qsh: no AI provider is set up: set OPENAI_API_KEY, ANTHROPIC_API_KEY or OLLAMA_HOST (see `qsh --help`)"

// readKey reads one key press from the terminal in raw mode. Ctrl-C
// cancels.
func (s *Shell) readKey(ctx context.Context) (rune, error) {
	in, ok := s.stdin.(*os.File)
	if !ok || !term.IsTerminal(int(in.Fd())) {
		return 0, errors.New("no terminal to read a key from")
	}
	return readKey(ctx, in)
}

// terminalState keeps the terminal's settings from the last command line
// that succeeded, to put them back after one that failed: a program
// killed while it had the terminal in raw mode (a crashed editor) would
// otherwise leave it without echo or Ctrl-C. `stty` that succeeds sticks.
type terminalState struct {
	fd    int
	state *term.State
}

func (s *Shell) saveTerminal() *terminalState {
	in, ok := s.stdin.(*os.File)
	if !ok || !s.terminal {
		return nil
	}
	st, err := term.GetState(int(in.Fd()))
	if err != nil {
		return nil
	}
	return &terminalState{fd: int(in.Fd()), state: st}
}

func (t *terminalState) settle(status int) {
	if t == nil {
		return
	}
	if status == 0 {
		if st, err := term.GetState(t.fd); err == nil {
			t.state = st
		}
		return
	}
	term.Restore(t.fd, t.state)
}
