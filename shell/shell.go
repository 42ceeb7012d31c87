package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/qsh-shell/qsh/shell/capture"
	"github.com/qsh-shell/qsh/shell/rewrite"
	"golang.org/x/term"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// Shell is one qsh session: an interpreter whose variables, functions,
// aliases, options and cwd persist from one command to the next.
type Shell struct {
	// The session: how the shell was started and where it reads and
	// writes.
	cfg         Config
	stdin       io.Reader
	stdout      io.Writer
	stderr      io.Writer
	terminal    bool // stdin and stdout are a terminal
	interactive bool
	login       bool
	version     string
	name        string   // $0
	params      []string // $1…
	environ     []string

	// The interpreter and what qsh keeps beside it.
	runner  *interp.Runner
	dir     string // the process's cwd as last set by the shell
	aliases map[string]string
	// sources are the files being sourced, for error messages.
	sources  sources
	exitTrap string // interp runs EXIT traps after every File; qsh runs it once
	debug    debugTrap
	sigtraps sigTraps        // trap.go
	hash     hashTable       // hash.go
	refused  map[string]bool // the options qsh said it cannot set (see [Shell.refuseOpt]); under mu
	// identified is set once the shell passes for an interactive bash
	// (see [Shell.Identify]).
	identified bool
	exitNow    bool // the last command line asked the shell to exit
	// exitCalled is set when the exit builtin runs: in background
	// statements too, on their goroutines, hence atomic.
	exitCalled atomic.Bool

	// Reading lines: the line editor, the prompt, keys and completion.
	lines  LineReader // nil: readline on the terminal
	handed string     // a command the assistant handed over, for the next prompt line
	// noPromptVars is `shopt -u promptvars`: PS1 and PS2 get their
	// backslash escapes but no expansions.
	noPromptVars bool
	// prompted and promptOut are the expanded prompt, see
	// [Shell.expandPrompt].
	prompted  bool
	promptOut string
	// userName is \u's: the name of the user the shell runs as, looked
	// up once, when a prompt first asks.
	userName func() string
	// winSize is the terminal's size as COLUMNS and LINES last said it.
	winSize [2]int
	// status is the last command line's, for what runs while the next
	// is read (a key's command).
	status int
	// inKeyCommand is set while a key's command (bind -x) runs.
	inKeyCommand bool
	// keys are the key bindings `bind` made (see keymap.go); viKeys
	// those of vi keymaps, listed and unused; rlVars readline's
	// variables `bind 'set …'` set.
	keys      keymap
	viKeys    map[string]*keymap
	rlVars    map[string]string
	compspecs compspecs // what `complete` registered (compspec.go)
	frames    frames    // function calls followed in completion functions (upvars.go)

	// History and the session record.
	hist      *history
	histFiles histFiles // histbuiltin.go
	record    []recorded
	// private is set while a private line runs (see [histRules]).
	private bool
	rules   rulesCache
	// capture records what each command printed; nil when off.
	capture *capture.Client

	// The assistant.
	ask AskFunc
	// withhold names the variables the assistant's commands never see
	// (see [Withhold]); nil: none.
	withhold func(name string) bool

	// Jobs, background statements and signals.
	bgs bgTable // the background statements $! knows (bgtable.go)
	// jobs is the job table; nil without job control (see job.go).
	jobs *jobs
	// fg counts foreground programs that a Ctrl-C the shell gets is for:
	// those in the shell's own process group (no job control: -c strings,
	// substitutions), which get it too, and jobs fg resumed. A job the
	// shell starts in a group of its own is not counted (see runJob).
	fg     atomic.Int32
	mu     sync.Mutex
	cancel context.CancelFunc // cancels the command line being run
	sigs   chan<- os.Signal   // where the terminal's signals are caught
	// sigMu guards catching and caught: a non-interactive shell begins
	// catching from a timer or from the program it starts, whichever is
	// first (see [Shell.catchSignalsSoon]).
	sigMu sync.Mutex
	// catching, set while the shell catches signals, stops that (see
	// [Shell.catchSignals]).
	catching func()
	// settle, set while catching, has the signals that came so far
	// handled (see [Shell.settleSignals]).
	settle func()
	// caught is set once catching has stopped for good: a late timer
	// must not begin it again.
	caught bool
}

// Option configures a [Shell] made by [New].
type Option func(*Shell)

// Stdio sets the shell's standard streams. Pass *os.File values so that
// programs get the real terminal.
func Stdio(in io.Reader, out, err io.Writer) Option {
	return func(s *Shell) { s.stdin, s.stdout, s.stderr = in, out, err }
}

// Params sets $0 and the positional parameters.
func Params(name string, args ...string) Option {
	return func(s *Shell) { s.name, s.params = name, args }
}

// Environ sets the environment the session starts with; the default is
// the process's environment.
func Environ(env []string) Option {
	return func(s *Shell) { s.environ = env }
}

// Interactive makes the shell expand aliases, keep history and treat
// Ctrl-C as an interruption of the command line, not of the shell.
func Interactive(on bool) Option {
	return func(s *Shell) { s.interactive = on }
}

// LoginShell marks a login shell, for `shopt -q login_shell`; see
// [Shell.Login] for the files it reads.
func LoginShell(on bool) Option {
	return func(s *Shell) { s.login = on }
}

// Version is qsh's version, for the prompt's \v and \V.
func Version(v string) Option {
	return func(s *Shell) { s.version = v }
}

// Configure sets the shell's configuration; see [Config].
func Configure(c Config) Option {
	return func(s *Shell) { s.cfg = c }
}

// Ask sets what answers `?` lines.
func Ask(f AskFunc) Option {
	return func(s *Shell) { s.ask = f }
}

// Withhold sets which variables the commands the assistant runs (see
// [Shell.Run]) never see, exported or not: cmd/qsh passes the secrets'
// table. The user's own commands see them all, as in bash.
func Withhold(secret func(name string) bool) Option {
	return func(s *Shell) { s.withhold = secret }
}

// Capture connects the session to the proxy that records what each
// command printed (see [capture.Dial]); nil, the default, leaves it off.
func Capture(c *capture.Client) Option {
	return func(s *Shell) { s.capture = c }
}

// Reader sets the interactive line reader; the default is readline on the
// shell's terminal.
func Reader(r LineReader) Option {
	return func(s *Shell) { s.lines = r }
}

// New makes a shell. It reads no files; see [Shell.Login] and [Shell.RC].
func New(opts ...Option) (*Shell, error) {
	s := &Shell{
		cfg:    DefaultConfig(),
		stdin:  os.Stdin,
		stdout: os.Stdout,
		stderr: os.Stderr,
		name:   "qsh",
	}
	s.userName = sync.OnceValue(s.lookupUserName)
	s.bgs.clock = realClock() // a test's option may replace it
	for _, o := range opts {
		o(s)
	}
	if s.environ == nil {
		s.environ = os.Environ()
	}
	s.hist = newHistory(s.cfg.HistSize)
	s.terminal = isTerminal(s.stdin) && isTerminal(s.stdout)
	s.sources.programs = s.programsAt
	var err error
	s.runner, err = interp.New(
		interp.Dir(s.startDir()),
		interp.Interactive(s.interactive),
		interp.Env(newUserHomes(expand.ListEnviron(s.environ...))),
		interp.StdIO(s.stdin, s.stdout, s.stderr),
		interp.Params(append([]string{"--"}, s.params...)...),
		interp.CallHandler(s.call),
		interp.OpenHandler(s.sources.open(s.noclobber(interp.DefaultOpenHandler()))),
		interp.ExecHandlers(s.builtins, guard, s.execProgram),
	)
	if err != nil {
		return nil, err
	}
	s.runner.Reset()
	s.dir = s.runner.Dir
	return s, nil
}

// startDir is the directory the session starts in: the process's, or,
// when that was removed, the first of $HOME and / that exists.
func (s *Shell) startDir() string {
	wd, err := os.Getwd()
	if err == nil {
		return wd
	}
	dir := "/"
	for _, kv := range s.environ {
		if home, ok := strings.CutPrefix(kv, "HOME="); ok && home != "" {
			if fi, err := os.Stat(home); err == nil && fi.IsDir() {
				dir = home
			}
		}
	}
	s.errorf("the current directory is gone (%v); starting in %s", err, dir)
	os.Chdir(dir)
	return dir
}

// Dir is the session's current directory.
func (s *Shell) Dir() string { return s.runner.Dir }

// Record is what the session's recent command lines did, oldest first;
// private lines left out.
func (s *Shell) Record() []Command { return public(s.record, nil) }

// Var is the value of a shell variable, "" when unset.
func (s *Shell) Var(name string) string {
	// Vars holds the session's variables as of the end of the last run;
	// Env only the environment it started with.
	if vr, ok := s.runner.Vars[name]; ok {
		return vr.String()
	}
	return s.runner.Env.Get(name).String()
}

// variables is a copy of the session's variables as they are now.
func (s *Shell) variables() expand.Environ {
	return snapshot{vars: maps.Clone(s.runner.Vars), env: s.runner.Env}
}

// snapshot is the session's variables at one moment: the changes the
// session made over the environment it started with.
type snapshot struct {
	vars map[string]expand.Variable
	env  expand.Environ
}

func (e snapshot) Get(name string) expand.Variable {
	if vr, ok := e.vars[name]; ok {
		return vr
	}
	return e.env.Get(name)
}

func (e snapshot) Each(f func(name string, vr expand.Variable) bool) {
	stop := false
	e.env.Each(func(name string, vr expand.Variable) bool {
		if _, ok := e.vars[name]; ok {
			return true
		}
		stop = !f(name, vr)
		return !stop
	})
	for name, vr := range e.vars {
		if stop || !f(name, vr) {
			return
		}
	}
}

// Environ is the session's exported variables as NAME=value, what the
// programs it runs get.
func (s *Shell) Environ() []string {
	vars := map[string]expand.Variable{}
	for name, vr := range s.runner.Env.Each {
		vars[name] = vr
	}
	maps.Copy(vars, s.runner.Vars) // the session's changes
	var list []string
	for name, vr := range vars {
		if vr.Exported && vr.IsSet() && vr.Kind == expand.String {
			list = append(list, name+"="+vr.Str)
		}
	}
	slices.Sort(list)
	return list
}

// status is the exit status an interp error stands for.
func status(err error) int {
	if err == nil {
		return 0
	}
	if st, ok := interp.IsExitStatus(err); ok {
		return int(st)
	}
	if errors.Is(err, context.Canceled) {
		return 130
	}
	return 1
}

// parse parses src as a program named name. A syntax error is reported as
// `name:line: message` on stderr, and status is what the shell exits with:
// 2, as bash, or 1 for an error inside an arithmetic expression, which bash
// only finds when it evaluates the expression.
func (s *Shell) parse(src, name string) (f *syntax.File, status int) {
	f, err := syntax.NewParser().Parse(strings.NewReader(src), name)
	if err == nil {
		return f, 0
	}
	fmt.Fprintln(s.stderr, syntaxError(err, name))
	var pos syntax.Pos
	var perr syntax.ParseError
	var lerr syntax.LangError
	switch {
	case errors.As(err, &perr) && !perr.Incomplete:
		pos = perr.Pos
	case errors.As(err, &lerr):
		pos = lerr.Pos
	}
	if pos.IsValid() && inArithmetic(src, int(pos.Offset())) || foundWhenRun(err) {
		return nil, 1
	}
	return nil, 2
}

// foundWhenRun reports whether err is one that bash only finds when it
// runs the command: a bad substitution or name.
func foundWhenRun(err error) bool {
	msg := err.Error()
	for _, m := range []string{"cannot combine multiple parameter expansion operators",
		"not a valid parameter expansion operator", "invalid nested parameter expansion",
		"invalid parameter name", "invalid @ expansion operator", "invalid func name",
		"invalid var name", "`:` must be followed by an expression", "are a zsh feature"} {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}

// inArithmetic reports whether offset in src is inside $(( )) or (( )),
// going by the brackets before it.
func inArithmetic(src string, offset int) bool {
	before := src[:min(offset, len(src))]
	return strings.Count(before, "((") > strings.Count(before, "))")
}

// fixed is the program src as interp must get it to run it as bash does
// (see package rewrite): the same text when it needs nothing.
func fixed(src string) string {
	out, _ := rewrite.Text(src, "")
	return out
}

// syntaxError formats a parse error as `name:line: message`.
func syntaxError(err error, name string) string {
	if name == "" {
		name = "qsh"
	}
	var perr syntax.ParseError
	if errors.As(err, &perr) {
		return fmt.Sprintf("%s:%d: %s", name, perr.Pos.Line(), syntaxText(perr.Text))
	}
	var lerr syntax.LangError
	if errors.As(err, &lerr) {
		lerr.Filename = ""
		msg := lerr.Error()
		return fmt.Sprintf("%s:%d: %s", name, lerr.Pos.Line(), msg[strings.Index(msg, ": ")+2:])
	}
	return err.Error()
}

// syntaxText is a parse error's message as bash words it when mvdan.cc/sh's
// parser names the token it did not expect (`syntax error near unexpected
// token `)'`), else the parser's own.
func syntaxText(msg string) string {
	tok := ""
	if t, ok := strings.CutPrefix(msg, "a command can only contain words and redirects; encountered `"); ok {
		tok = strings.TrimSuffix(t, "`")
	} else if t, rest, ok := strings.Cut(strings.TrimPrefix(msg, "`"), "` "); ok && msg[0] == '`' &&
		(strings.HasPrefix(rest, "is not a valid start for a statement") || strings.HasPrefix(rest, "can only ")) {
		tok = t
	}
	if tok == "" || strings.ContainsAny(tok, "` ") {
		return msg
	}
	return "syntax error near unexpected token `" + tok + "'"
}

func (s *Shell) errorf(format string, args ...any) {
	fmt.Fprintf(s.stderr, "qsh: "+format+"\n", args...)
}

// runFile runs a parsed program in the session. The file's name becomes $0
// for its duration, as interp takes it from there.
func (s *Shell) runFile(ctx context.Context, f *syntax.File) int {
	f.Name = s.name
	s.exitCalled.Store(false)
	var err error
	if contain(s.runner, s.stderr, func() { err = s.runner.Run(ctx, f) }) {
		s.exitNow = false
		s.syncDir()
		s.setStatus(context.WithoutCancel(ctx), internalStatus)
		return internalStatus
	}
	// interp also reports a cancelled run as exiting. `exit` ends the
	// shell; another fatal error (`set -u` on an unset variable, say) ends
	// a script but only the command line in an interactive shell.
	s.exitNow = s.runner.Exited() && ctx.Err() == nil && (s.exitCalled.Load() || !s.interactive)
	if err != nil && !s.runner.Exited() {
		if _, ok := interp.IsExitStatus(err); !ok && !errors.Is(err, context.Canceled) {
			s.errorf("%v", err)
		}
	}
	s.syncDir()
	return status(err)
}

// exited reports whether the last run asked the shell to exit.
func (s *Shell) exited() bool { return s.exitNow }

// finish runs the EXIT trap, if any, and returns the shell's exit status.
func (s *Shell) finish(ctx context.Context, st int) int {
	s.runPendingTraps(ctx)
	trap := s.exitTrap
	if trap == "" {
		return st
	}
	s.exitTrap = ""
	f, err := syntax.NewParser().Parse(strings.NewReader(trap), "")
	if err != nil {
		s.errorf("trap: %s", syntaxError(err, ""))
		return st
	}
	s.setStatus(ctx, st)
	if tst := s.runFile(ctx, f); s.exitCalled.Load() {
		return tst // exit in the trap sets the shell's status, as in bash
	}
	return st
}

// setStatus makes $? be st for the next command. It runs the subshell as a
// bare command, not a statement, so that neither an ERR trap nor `set -e`
// reacts to it.
func (s *Shell) setStatus(ctx context.Context, st int) {
	if st < 0 || st > 255 {
		st = 255
	}
	s.runner.Run(ctx, &syntax.CallExpr{Args: []*syntax.Word{
		{Parts: []syntax.WordPart{&syntax.Lit{Value: statusMark}}},
		{Parts: []syntax.WordPart{&syntax.Lit{Value: strconv.Itoa(st)}}},
	}})
}

func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && term.IsTerminal(int(file.Fd()))
}
