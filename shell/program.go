package shell

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/shell/eval"
	"github.com/qsh-shell/qsh/shell/prompt"
)

// A non-interactive qsh — a -c string, a script, commands on stdin — runs
// on qsh's own evaluator (shell/eval), which runs bash's semantics itself.
// The interactive shell moves onto it next (issue 21); until then it keeps
// its interpreter, and so does a -c string with `?` lines, which need the
// assistant.

// Program is how a non-interactive qsh was started.
type Program struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Name           string   // $0
	Params         []string // $1…
	Environ        []string
	Version        string
	Login          bool     // read the profile files first
	Set, Shopt     []string // the command line's set and shopt flags (see [Shell.SetOptions])
	// Command is the -c string; nil for a script.
	Command *string
	// Script is the file to run; "" with Command nil: stdin.
	Script string
}

// RunsOnEvaluator reports whether a non-interactive qsh started with the
// -c string cmd (nil: a script or stdin) runs on the evaluator: all but
// -c strings with `?` lines.
func RunsOnEvaluator(cmd *string) bool { return cmd == nil || !hasQuestion(*cmd) }

// Run runs the program and returns qsh's exit status. A Ctrl-C ends it as
// bash's: at once when the shell itself is running, else when the
// foreground program dies of it (a program that handles it, a REPL run by
// `ssh -t host python3`, keeps the shell going); the shell then dies of
// the signal too, after its EXIT trap.
func (p Program) Run(ctx context.Context) int {
	var ints intState
	// The history list and its builtins are the interactive shell's, used
	// here with a list of its own.
	histShell := &Shell{hist: &history{}, stderr: p.Stderr}
	opts := []eval.Option{
		eval.Stdio(p.Stdin, p.Stdout, p.Stderr),
		eval.Params(p.Name, p.Params...),
		eval.Env(p.Environ),
		eval.Version(p.Version),
		eval.Login(p.Login),
		eval.OnSignalTrap(ints.trapped),
		eval.WrapExec(ints.foreground),
		eval.Builtins(new(evalCompletion).builtins()...),
		eval.Builtins(histShell.historyBuiltins()...),
		eval.PromptExpander(programPrompt(p.shellName())),
	}
	switch {
	case p.Command != nil:
		opts = append(opts, eval.CommandString(), eval.ShellName(p.Name))
	case p.Script != "":
		opts = append(opts, eval.Script(p.Script))
	default: // read from standard input: messages name the shell as $0
		opts = append(opts, eval.ShellName(p.Name))
	}
	wd, err := os.Getwd()
	if err != nil {
		// The directory was removed under the shell: bash says so and
		// runs all the same.
		fmt.Fprintf(p.Stderr, "%s: shell-init: error retrieving current directory: %v\n", p.Name, err)
		wd = startDir(p.Environ)
	}
	opts = append(opts, eval.Dir(wd)) // the evaluator need not look again
	r, err := eval.New(opts...)
	if err != nil {
		fmt.Fprintf(p.Stderr, "qsh: %v\n", err)
		return 1
	}
	ints.r = r
	stop := ints.catch()
	defer stop()
	st := p.run(ctx, r)
	r.RunExitTrap()
	if exited, xst := r.Exited(); exited {
		st = xst
	}
	if ints.died.Load() {
		stop()
		dieOf(syscall.SIGINT)
	}
	// bash's background jobs outlive it; qsh's that run its own code are
	// goroutines, which would die with the process.
	r.WaitBackground(ctx)
	return st
}

// shellName is a program's \s: $0 of a -c string, else the name qsh was
// started by, as bash's is the name it was run by ("bash", standing in
// for it).
func (p Program) shellName() string {
	if p.Command != nil {
		return filepath.Base(p.Name)
	}
	return filepath.Base(os.Args[0])
}

func (p Program) run(ctx context.Context, r *eval.Runner) int {
	// The command line's options hold while the startup files run, as
	// in bash (-x traces them).
	if opts := optionsText(p.Set, p.Shopt); opts != "" {
		r.RunString(ctx, opts, p.Name)
		if exited, st := r.Exited(); exited || r.Status() != 0 {
			return st
		}
	}
	if p.Login {
		for _, path := range profiles(r) {
			if p.source(r, path) {
				if exited, st := r.Exited(); exited {
					return st
				}
			}
		}
	}
	// As bash does, a non-interactive shell reads the file $BASH_ENV
	// names, after expanding it.
	if env, ok := r.Get("BASH_ENV"); ok && env != "" {
		if path, err := r.ExpandString(ctx, env); err == nil && path != "" {
			p.source(r, path)
			if exited, st := r.Exited(); exited {
				return st
			}
		}
	}
	var src string
	switch {
	case p.Command != nil:
		src = *p.Command
		if name, ok := oneshotName(src); ok && r.Func(name) == nil && r.Builtin(name) == nil {
			ctx = context.WithValue(ctx, lastKey{}, true)
			r.WrapExec(replaceShell)
		}
	case p.Script != "":
		data, err := os.ReadFile(p.Script)
		if err != nil {
			fmt.Fprintf(p.Stderr, "qsh: %s: %s\n", p.Script, errText(errno(err)))
			if os.IsNotExist(err) {
				return 127
			}
			return 126
		}
		// Like bash, refuse a file with a NUL byte in its first line:
		// it is a program, not a script.
		if line, _, _ := bytes.Cut(data, []byte("\n")); bytes.IndexByte(line, 0) >= 0 {
			fmt.Fprintf(p.Stderr, "qsh: %s: cannot execute binary file\n", p.Script)
			return 126
		}
		src = string(data)
	default:
		data, err := io.ReadAll(p.Stdin)
		if err != nil {
			fmt.Fprintf(p.Stderr, "qsh: %v\n", err)
			return 1
		}
		src = string(data)
	}
	return r.RunString(ctx, src, p.Name)
}

// startDir is where a shell whose directory is gone starts: $PWD if it
// still is a directory, else /.
func startDir(environ []string) string {
	for _, kv := range environ {
		if pwd, ok := strings.CutPrefix(kv, "PWD="); ok && filepath.IsAbs(pwd) {
			if fi, err := os.Stat(pwd); err == nil && fi.IsDir() {
				return pwd
			}
		}
	}
	return "/"
}

// profiles are the files a login shell reads: /etc/profile, then the first
// of ~/.qsh_profile and ~/.profile that exists.
func profiles(r *eval.Runner) []string {
	paths := []string{"/etc/profile"}
	home, _ := r.Get("HOME")
	if home == "" {
		return paths
	}
	for _, name := range []string{".qsh_profile", ".profile"} {
		path := filepath.Join(home, name)
		if _, err := os.Stat(path); err == nil {
			return append(paths, path)
		}
	}
	return paths
}

// source runs the file at path in r as the source builtin would, and
// reports whether it exists.
func (p Program) source(r *eval.Runner, path string) bool {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return false
	}
	if err != nil {
		fmt.Fprintf(p.Stderr, "qsh: %s: %s\n", path, errText(errno(err)))
		return true
	}
	r.Source(path, path, data, nil, false)
	return true
}

// A -c string that is one simple command runs its program in qsh's own
// process, as bash does: `ssh host cmd` and git over ssh run `qsh -c
// 'cmd …'`, and the program replacing the shell spares a fork, a process
// that only waits, and the shell's own exit.

// lastKey marks the context of a -c string whose one command is the last
// thing the shell does.
type lastKey struct{}

// oneshotName is the name of the command of a -c string that is one simple
// command which may replace the shell (see [oneshot]).
func oneshotName(src string) (string, bool) {
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil || !oneshotStmt(f) {
		return "", false
	}
	return f.Stmts[0].Cmd.(*syntax.CallExpr).Args[0].Lit(), true
}

// oneshotStmt reports whether f is one simple command with a literal name,
// not in the background, not negated and without redirections.
func oneshotStmt(f *syntax.File) bool {
	if len(f.Stmts) != 1 {
		return false
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Background || st.Coprocess || st.Negated || len(st.Redirs) > 0 ||
		len(call.Args) == 0 || call.Args[0].Lit() == "" {
		return false
	}
	// A process substitution is fed by the shell, which exec would end
	// (cat <(echo a)).
	procSubst := false
	syntax.Walk(call, func(n syntax.Node) bool {
		_, isPS := n.(*syntax.ProcSubst)
		procSubst = procSubst || isPS
		return !procSubst
	})
	return !procSubst
}

// replaceShell runs a program in place of the shell when it is the one
// command of a oneshot -c string and gets the shell's own standard files
// and directory; a command substitution's program, whose output is a pipe,
// never does. Only the first program asked for may: when exec fails (a
// script without #!, which the shell then runs itself), what that runs
// is not the last thing the shell does. next reports why exec failed.
func replaceShell(next eval.ExecHandler) eval.ExecHandler {
	var tried atomic.Bool
	return func(ctx context.Context, c *eval.Call) int {
		if ctx.Value(lastKey{}) != nil && !tried.Swap(true) &&
			c.Stdin == os.Stdin && c.Stdout == os.Stdout && c.Stderr == os.Stderr {
			if wd, err := os.Getwd(); err == nil && wd == c.Dir {
				if path, err := c.LookPath(c.Args[0]); err == nil {
					syscall.Exec(path, c.Args, c.Env)
				}
			}
		}
		return next(ctx, c)
	}
}

// intState follows Ctrl-C for a non-interactive shell.
type intState struct {
	r       *eval.Runner
	start   func()       // begins catching, once (see [intState.catch])
	fg      atomic.Int32 // programs running in the foreground
	pending atomic.Bool  // a Ctrl-C came while one ran
	trap    atomic.Bool  // the program traps or ignores SIGINT itself
	quit    atomic.Bool  // the program traps or ignores SIGQUIT itself
	died    atomic.Bool  // the shell is to die of SIGINT
}

// catch arranges for SIGINT to be caught (and SIGQUIT ignored, as bash
// does, rather than Go's runtime dumping its goroutines and exiting) from
// the first program the shell starts, or once it has run catchDelay:
// catching starts runtime threads, a cost every `ssh host cmd` would pay,
// and until then a Ctrl-C ends the shell as it would end bash. The
// returned function stops it.
func (s *intState) catch() func() {
	var mu sync.Mutex
	var ch chan os.Signal
	done := make(chan struct{})
	stopped := false
	s.start = func() {
		mu.Lock()
		defer mu.Unlock()
		if ch != nil || stopped {
			return
		}
		ch = make(chan os.Signal, 4)
		// A signal the program traps or ignores is the evaluator's:
		// catching it here would undo an ignore its programs inherit.
		var sigs []os.Signal
		if !s.trap.Load() {
			sigs = append(sigs, syscall.SIGINT)
		}
		if !s.quit.Load() {
			sigs = append(sigs, syscall.SIGQUIT)
		}
		if len(sigs) > 0 { // none would mean all
			signal.Notify(ch, sigs...)
		}
		go s.loop(ch, done)
	}
	timer := time.AfterFunc(catchDelay, s.start)
	return func() {
		timer.Stop()
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		stopped = true
		if ch != nil {
			signal.Stop(ch)
			close(done)
		}
	}
}

// catchDelay is how long a non-interactive shell runs its own code (a
// loop, builtins) before it catches Ctrl-C. Catching starts two of the
// runtime's threads, ≈0.4 ms of every `qsh -c` (an `ssh host cmd`, each
// git fetch over ssh) when done at once, and most -c strings are over
// sooner. A program it starts is covered from its start (see
// [intState.foreground]).
const catchDelay = 5 * time.Millisecond

// loop acts on the signals caught until done is closed.
func (s *intState) loop(ch chan os.Signal, done chan struct{}) {
	for {
		select {
		case <-done:
			return
		case sig := <-ch:
			if sig != syscall.SIGINT || s.trap.Load() {
				continue
			}
			if s.fg.Load() > 0 {
				s.pending.Store(true)
				continue
			}
			s.died.Store(true)
			s.r.Interrupt()
		}
	}
}

// trapped follows trap on SIGINT: a trap or an ignored signal is the
// program's to handle (the evaluator does), never the shell's death.
func (s *intState) trapped(sig syscall.Signal, cmd string, reset bool) bool {
	switch sig {
	case syscall.SIGINT:
		s.trap.Store(!reset)
	case syscall.SIGQUIT:
		s.quit.Store(!reset)
	}
	return false
}

// foreground counts the programs the shell waits for; one that died of a
// Ctrl-C the shell got too ends the shell.
func (s *intState) foreground(next eval.ExecHandler) eval.ExecHandler {
	return func(ctx context.Context, c *eval.Call) int {
		s.start()
		s.fg.Add(1)
		st := next(ctx, c)
		s.fg.Add(-1)
		if s.pending.Swap(false) && st == 128+int(syscall.SIGINT) && !s.trap.Load() {
			s.died.Store(true)
			s.r.Interrupt()
		}
		return st
	}
}

// dieOf ends the process by sig, so that its parent sees how it ended (a
// shell loop stops on it, as on bash's death).
func dieOf(sig syscall.Signal) {
	signal.Reset(sig)
	syscall.Kill(os.Getpid(), sig)
	// Not reached unless the signal is blocked.
	os.Exit(128 + int(sig))
}

// programPrompt expands ${x@P} and PS4 in a script as bash does in any
// shell: the prompt's escapes with what a script has of them (no colour,
// no git branch, no last command's time), \s the shell's name, \v and
// \V bash's version, and \[ \] nothing, as bash without line editing.
func programPrompt(name string) func(r *eval.Runner, ps string) string {
	version, _, _ := strings.Cut(eval.BashVersion, "(")
	var once sync.Once
	var user string
	return func(r *eval.Runner, ps string) string {
		get := func(name string) string { v, _ := r.Get(name); return v }
		once.Do(func() { user = userName(get) })
		host, _ := os.Hostname()
		home, _ := r.Get("HOME")
		d := prompt.Data{
			User: user, Host: host, Dir: r.Dir(), Home: home,
			DirTrim: atoi(get("PROMPT_DIRTRIM")), Root: os.Geteuid() == 0,
			Status: r.Status(), Jobs: r.JobCount(), Now: time.Now(),
			Shell: name, Version: version, NoLineEditing: true,
		}
		return expandPSIn(context.Background(), r, ps, d)
	}
}
