package shell

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"

	"golang.org/x/term"

	"github.com/qsh-shell/qsh/shell/capture"
	"github.com/qsh-shell/qsh/shell/eval"
	"github.com/qsh-shell/qsh/shell/histexpand"
)

// Shell is one interactive qsh session — or a -c string with `?` lines — on
// qsh's evaluator: one [eval.Runner] whose variables, functions, aliases,
// options and cwd persist from one command line to the next, and around it
// what bash's interactive shell adds: the line editor, history, key
// bindings, programmable completion, the prompt and its hooks, and the
// assistant.
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

	// r runs every command; dir is the process's cwd as last set by the
	// shell (see [Shell.syncDir]).
	r   *eval.Runner
	dir string

	// Reading lines: the line editor, the prompt, keys and completion.
	lines  LineReader // nil: readline on the terminal
	handed string     // a command the assistant handed over, for the next prompt line
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
	keys   keymap
	viKeys map[string]*keymap
	// viSection is set while an init file's bindings go to a vi keymap
	// (set keymap vi-insert).
	viSection bool
	// systemInit is set while a system-wide init file (/etc/inputrc,
	// which ~/.inputrc often includes) is read: the distribution's
	// bindings to functions qsh's editor lacks are skipped quietly, as
	// the user did not write them; the user's own are said.
	systemInit bool
	rlVars     map[string]string
	// saidRlVar are the readline variables bind said qsh ignores.
	saidRlVar map[string]bool
	comp      evalCompletion // what `complete` registered, and Tab's state

	// History and the session record.
	hist      *history
	histFiles histFiles // histbuiltin.go
	record    []recorded
	// histState is what history expansion carries from line to line
	// (the last !?search? and :s substitution).
	histState histexpand.State
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

	// Signals: the line being run, which a Ctrl-C stops (see signal.go).
	mu     sync.Mutex
	cancel context.CancelFunc
	sigs   *sigCatcher
	// defaultPS1 is set when PS1 is bash's default, set by the shell
	// for the rc files (see [New]).
	defaultPS1 bool
	// ownHistFile is the history file an interactive shell named in
	// HISTFILE before the rc files ran; "" when HISTFILE came from the
	// environment or history has no file.
	ownHistFile string
	// builtins are the caller's (see [Builtins]).
	builtins []*eval.Builtin
	// lineNo counts the command lines run; warnedAt is the one at which
	// the shell last held an exit for stopped jobs (see [Shell.holdExit]).
	lineNo, warnedAt int
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

// bashPS1 is bash's default primary prompt.
const bashPS1 = `\s-\v\$ `

// Builtins adds builtins of the caller's to the session's table.
func Builtins(bs ...*eval.Builtin) Option {
	return func(s *Shell) { s.builtins = append(s.builtins, bs...) }
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
	for _, o := range opts {
		o(s)
	}
	if s.environ == nil {
		s.environ = os.Environ()
	}
	s.hist = newHistory(s.cfg.HistSize)
	s.terminal = isTerminal(s.stdin) && isTerminal(s.stdout)
	s.sigs = newSigCatcher(s)
	evalOpts := []eval.Option{
		eval.Stdio(s.stdin, s.stdout, s.stderr),
		eval.Params(s.name, s.params...),
		eval.Env(s.environ),
		eval.Dir(s.startDir()),
		eval.Version(s.version),
		eval.Interactive(s.interactive),
		eval.Login(s.login),
		eval.OnSignalTrap(s.sigs.trapped),
		eval.OnChdir(func(*eval.Runner, string) { s.syncDir() }),
		eval.OnOption(s.onOption),
		eval.OnExit(s.onExit),
		eval.BeforeExec(s.beforeExec),
		eval.PromptExpander(func(r *eval.Runner, ps string) string {
			return expandPSIn(context.Background(), r, ps, s.promptData(s.status, 0))
		}),
		eval.Builtins(s.comp.builtins()...),
		eval.Builtins(s.historyBuiltins()...),
		eval.Builtins(s.builtins...),
	}
	if !s.interactive {
		evalOpts = append(evalOpts, eval.CommandString(), eval.ShellName(s.name))
	}
	r, err := eval.New(evalOpts...)
	if err != nil {
		return nil, err
	}
	s.r = r
	s.dir = r.Dir()
	if _, set := r.Get("PS1"); s.interactive && !set {
		// bash sets its prompt before the rc files run, which test it
		// (/etc/bash.bashrc: [ -z "$PS1" ] && return). Still bash's
		// when the REPL starts, it gives way to qsh's own prompt.
		r.Set("PS1", bashPS1)
		s.defaultPS1 = true
	}
	if _, set := r.Get("HISTFILE"); s.interactive && !set && s.cfg.HistSize > 0 {
		// As bash names its file before the rc files run, so that they
		// and the tools they start (hstr) find it, and can change it.
		if path, err := historyFile(s.cfg, s.Var); err == nil {
			r.Set("HISTFILE", path)
			s.ownHistFile = path
		}
	}
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
func (s *Shell) Dir() string { return s.r.Dir() }

// Record is what the session's recent command lines did, oldest first;
// private lines left out.
func (s *Shell) Record() []Command { return public(s.record, nil) }

// Var is the value of a shell variable, "" when unset.
func (s *Shell) Var(name string) string {
	v, _ := s.r.Get(name)
	return v
}

// Environ is the session's exported variables as NAME=value, what the
// programs it runs get.
func (s *Shell) Environ() []string {
	var list []string
	for _, name := range s.r.VarNames() {
		v := s.r.Var(name)
		if v == nil || v.Attr&eval.AttrExport == 0 || !v.IsSet() || v.Attr&(eval.AttrIndexed|eval.AttrAssoc) != 0 {
			continue
		}
		val, _ := s.r.Get(name)
		list = append(list, name+"="+val)
	}
	slices.Sort(list)
	return list
}

func (s *Shell) errorf(format string, args ...any) {
	fmt.Fprintf(s.stderr, "qsh: "+format+"\n", args...)
}

// run runs src, a command line or hook, in the session and returns its
// status. The evaluator reports its own errors, syntax errors included,
// and recovers from its own panics.
func (s *Shell) run(ctx context.Context, src, name string) int {
	st := s.r.RunString(ctx, src, name)
	s.syncDir()
	return st
}

// exited reports whether the last run asked the shell to exit.
func (s *Shell) exited() bool {
	exited, _ := s.r.Exited()
	return exited
}

// finish runs the EXIT trap, if any, and returns the shell's exit status.
func (s *Shell) finish(st int) int {
	s.r.SetStatus(st)
	s.r.RunExitTrap()
	if exited, xst := s.r.Exited(); exited {
		return xst
	}
	return st
}

// onExit holds an interactive shell's exit once when jobs are stopped, as
// bash does ("There are stopped jobs.").
func (s *Shell) onExit(r *eval.Runner) bool {
	return !s.interactive || !s.holdExit()
}

// beforeExec gives the terminal back as a program expects it before exec
// replaces the shell.
func (s *Shell) beforeExec() {
	if ed, ok := s.lines.(*lineEditor); ok {
		ed.Close()
	}
}

// onOption refuses the shopt options qsh does not do, rather than accept
// and ignore them.
func (s *Shell) onOption(r *eval.Runner, name string, on bool) error {
	if on && (name == "cdspell" || name == "dirspell") {
		return fmt.Errorf("%s: qsh does not correct spelling; Tab completes directory names", name)
	}
	return nil
}

// optNow reports whether a set -o or shopt option is on now.
func (s *Shell) optNow(name string) bool {
	if s.r == nil { // a non-interactive shell's bind
		return false
	}
	on, _ := s.r.Opt(name)
	return on
}

func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && term.IsTerminal(int(file.Fd()))
}
