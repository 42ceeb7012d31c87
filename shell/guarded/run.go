package guarded

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/qsh-shell/qsh/policy/danger"
	"github.com/qsh-shell/qsh/policy/sandbox"
	"github.com/qsh-shell/qsh/shell/eval"
)

// Request is one command line to run.
type Request struct {
	Command string
	// Workspace and Approved are what the guard judges the real argv and
	// redirections against: nothing worse than Approved may run.
	Workspace danger.Workspace
	Approved  danger.Class
	// Unguarded runs the user's own configured command (the post-edit hook)
	// without the guard.
	Unguarded bool
	// Timeout stops the run and everything it started; 0 means none.
	Timeout time.Duration
	// Sandbox, when set, confines the run: each program starts under the
	// kernel's sandbox, and the files the shell itself opens for it
	// (redirections, source) must pass the same policy. nil runs it as
	// the user would.
	Sandbox *sandbox.Policy
	// Background starts the run and leaves it running (see Start).
	Background bool
}

// Result is how a run ended.
type Result struct {
	Status int
	// Stopped is set when the guard refused something the command really
	// ran: what it did is worse than what was approved.
	Stopped error
	// Err is set when the run itself failed or was stopped by its context,
	// not when a program merely exited non-zero.
	Err error
	// Denied says, one line each, what the sandbox kept from the files the
	// shell opened for the run ("sandbox: write to ~/.bashrc denied").
	Denied []string
	// HandedOff are the programs that stopped to use the terminal and
	// were given it (see WithTerminal): the user answered them.
	HandedOff []string
}

// ShellFunc has the shape of shell.RunFunc: run command in a subshell,
// with middlewares that see each program and each file it opens; nil
// leaves the shell's own.
type ShellFunc = func(ctx context.Context, command string, stdout, stderr io.Writer,
	exec func(next eval.ExecHandler) eval.ExecHandler,
	open func(next eval.OpenHandler) eval.OpenHandler) (int, error)

// RunFunc runs a request, all output to out.
type RunFunc = func(ctx context.Context, req Request, out io.Writer) Result

// nonInteractive is set for every program the assistant runs, so that
// nothing waits for a person who is not there.
var nonInteractive = []string{
	"PAGER=cat",
	"GIT_PAGER=cat",
	"MANPAGER=cat",
	"SYSTEMD_PAGER=",
	"GIT_TERMINAL_PROMPT=0",
	"GIT_EDITOR=true",
	"EDITOR=true",
	"VISUAL=true",
	"GIT_ASKPASS=",
	"SSH_ASKPASS=",
	"CI=1",
	"DEBIAN_FRONTEND=noninteractive",
	"NO_COLOR=1",
	"TERM=dumb",
	"HOMEBREW_NO_AUTO_UPDATE=1",
	"PIP_NO_INPUT=1",
	"NPM_CONFIG_YES=true",
}

// Option changes how Local runs requests.
type Option func(*local)

type local struct {
	host *sandbox.Host
}

// Jails has Local run confined requests in jails of host, which the
// runs of one question share while their policy is the same; the caller
// idles and closes it. Without it each confined run has a host of its
// own.
func Jails(host *sandbox.Host) Option { return func(l *local) { l.host = host } }

// Local returns a RunFunc that runs requests with run, the shell's
// subshell.
func Local(run ShellFunc, opts ...Option) RunFunc {
	var l local
	for _, o := range opts {
		o(&l)
	}
	return func(ctx context.Context, req Request, out io.Writer) Result {
		var handed handedOff
		if req.Timeout > 0 {
			// The time the user takes at the terminal (see WithTerminal)
			// is not the run's.
			var cancel context.CancelCauseFunc
			ctx, cancel = context.WithCancelCause(ctx)
			defer cancel(nil)
			d := newDeadline(req.Timeout, func() { cancel(context.DeadlineExceeded) })
			defer d.stop()
			handed.pause = d.pause
		}
		// A refusal ends the whole run, as the user approved it whole:
		// the shell stops at its next command, and programs still
		// running (the pipeline's others) are killed.
		runCtx, cancelRun := context.WithCancel(ctx)
		defer cancelRun()
		runCtx = WithTerminal(runCtx, handed.wrap(terminalOf(ctx)))
		host := l.host
		if host == nil && req.Sandbox != nil {
			host = sandbox.NewHost()
			defer host.Close()
		}
		g, res := newGuard(host, req, cancelRun, out)
		if g == nil {
			return res
		}
		st, err := run(runCtx, req.Command, out, out, g.execMW, g.openMW)
		if g.conf != nil {
			g.conf.end(0) // what the run left behind dies with it
		}
		r := g.result(ctx, st, err)
		r.HandedOff = handed.list()
		return r
	}
}

// guard is what a run goes through: the danger guard's middlewares and
// the jail, and what they refused.
type guard struct {
	conf    *jailed
	execMW  func(next eval.ExecHandler) eval.ExecHandler
	openMW  func(next eval.OpenHandler) eval.OpenHandler
	mu      sync.Mutex
	stopped error
	denied  []string
}

// newGuard makes req's guard, its programs jailed by host when req is
// confined; a refusal calls cancel, which ends the run. A nil guard is a
// run that cannot be made confined, with the result to give.
func newGuard(host *sandbox.Host, req Request, cancel func(), out io.Writer) (*guard, Result) {
	g := &guard{}
	if req.Sandbox != nil {
		// Confined or not run at all: the user was told it would be.
		g.conf = &jailed{host: host, policy: *req.Sandbox}
		j, err := g.conf.get()
		if err != nil {
			fmt.Fprintf(out, "qsh: not run: the sandbox cannot confine it: %v\n", err)
			return nil, Result{Status: 126, Err: fmt.Errorf("the sandbox cannot confine it: %v", err)}
		}
		g.denied = j.Notes()
	}
	// What the guard and the sandbox refuse is told apart from what
	// merely failed.
	stop := func(err error) {
		g.mu.Lock()
		if g.stopped == nil {
			g.stopped = err
		}
		g.mu.Unlock()
		cancel()
	}
	deny := func(line string) {
		g.mu.Lock()
		g.denied = append(g.denied, line)
		g.mu.Unlock()
	}
	conf := g.conf
	confine := func(next eval.OpenHandler) eval.OpenHandler {
		if conf == nil {
			return next
		}
		return sandboxOpen(conf, deny, next)
	}
	if req.Unguarded {
		// The user's own command: no guard, but the sandbox all the same.
		if conf != nil {
			g.execMW = func(next eval.ExecHandler) eval.ExecHandler { return spawn(next, nil, conf) }
			g.openMW = confine
		}
		return g, Result{}
	}
	check, checkOpen := danger.Guard(req.Workspace, req.Approved)
	g.execMW = func(next eval.ExecHandler) eval.ExecHandler {
		return guardExec(check, stop, spawn(next, nonInteractive, conf))
	}
	g.openMW = func(next eval.OpenHandler) eval.OpenHandler {
		return guardOpen(checkOpen, stop, confine(next))
	}
	return g, Result{}
}

// result is how the run ended with status st and err from the shell; ctx
// is the run's own, whose end (timeout, Ctrl-C) says why it stopped.
func (g *guard) result(ctx context.Context, st int, err error) Result {
	g.mu.Lock()
	defer g.mu.Unlock()
	err = ctxErr(ctx, err)
	if g.stopped != nil && errors.Is(err, context.Canceled) && ctx.Err() == nil {
		err = nil // the refusal's own end of the run
	}
	return Result{Status: st, Stopped: g.stopped, Err: err, Denied: slices.Clone(g.denied)}
}

// guardExec runs a program through check, the danger guard: a program
// it refuses does not start, the refusal is said on its stderr (the
// shell's own errors go there) and given to stop, which ends the run.
func guardExec(check danger.ExecCheck, stop func(error), next eval.ExecHandler) eval.ExecHandler {
	return func(ctx context.Context, c *eval.Call) int {
		if err := check(c.Args, c.Dir, c.Getenv, isPipe(c.Stdout)); err != nil {
			stop(err)
			fmt.Fprintf(c.Stderr, "qsh: %v\n", err)
			return 126
		}
		return next(ctx, c)
	}
}

// guardOpen opens a redirection's file through check: a write it
// refuses fails the redirection (the shell says so) and goes to stop.
func guardOpen(check danger.OpenCheck, stop func(error), next eval.OpenHandler) eval.OpenHandler {
	return func(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
		// The evaluator hands the path over joined to its directory.
		if err := check(path, "", flag); err != nil {
			stop(err)
			return nil, err
		}
		return next(ctx, path, flag, perm)
	}
}

// isPipe reports whether w is the write end of a pipe: the evaluator
// joins a pipeline's elements with OS pipes, and `env | grep NAME` was
// judged as a whole before it ran.
func isPipe(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeNamedPipe != 0
}

// writeFlags are the open flags that make an open a write.
const writeFlags = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREATE | os.O_TRUNC

// sandboxOpen holds the files the shell opens for a confined run (its
// redirections, source, $(<file)) to the policy the kernel holds its
// programs to: the shell's own process is not confined. A refusal fails
// the open as the kernel would, with EACCES, and is told to deny. A path
// under the temp dirs is the jail's own /tmp, as its programs see it.
// The evaluator hands paths over joined to its directory, ".." kept:
// "link/.." is where the link leads, up one, as the kernel walks it.
func sandboxOpen(conf *jailed, deny func(string), next eval.OpenHandler) eval.OpenHandler {
	return func(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
		if !strings.HasPrefix(path, "/") {
			// Where the default handler would open it: the process's cwd.
			wd, err := os.Getwd()
			if err != nil {
				return nil, err
			}
			path = strings.TrimSuffix(wd, "/") + "/" + path
		}
		abs := sandbox.Resolve("/", path)
		if why := conf.policy.Refusal(abs, flag&writeFlags != 0); why != "" {
			deny(why)
			return nil, &os.PathError{Op: "open", Path: path, Err: syscall.EACCES}
		}
		j, err := conf.get()
		if err != nil {
			return nil, err
		}
		if path == "/dev/stdout" || path == "/dev/stderr" || path == "/dev/stdin" || strings.HasPrefix(path, "/dev/fd/") {
			return next(ctx, path, flag, perm) // the shell's own descriptors (source /dev/stdin)
		}
		// As the run's programs see it: the jail's /tmp, its caches'
		// layer, the repository's read-only configuration.
		f, err := j.Open(path, flag, perm)
		if err != nil {
			return nil, err
		}
		return f, nil
	}
}

// ctxErr is err, or why ctx ended when it did: a run the timeout or
// Ctrl-C stopped must say so whatever status its programs died with.
func ctxErr(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		if cause := context.Cause(ctx); cause != nil {
			return cause // the timeout, when a deadline says so
		}
		return cerr
	}
	return err
}
