package guarded

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"mvdan.cc/sh/v3/interp"

	"github.com/qsh-shell/qsh/tools/danger"
	"github.com/qsh-shell/qsh/tools/sandbox"
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
}

// ShellFunc has the shape of shell.RunFunc: run command in a subshell,
// with middlewares that see each program and each file it opens.
type ShellFunc = func(ctx context.Context, command string, stdout, stderr io.Writer,
	exec func(next interp.ExecHandlerFunc) interp.ExecHandlerFunc,
	open func(next interp.OpenHandlerFunc) interp.OpenHandlerFunc) (int, error)

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
		if req.Timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, req.Timeout)
			defer cancel()
		}
		var conf *jailed
		var notes []string
		if req.Sandbox != nil {
			// Confined or not run at all: the user was told it would be.
			host := l.host
			if host == nil {
				host = sandbox.NewHost()
				defer host.Close()
			}
			conf = &jailed{host: host, policy: *req.Sandbox}
			j, err := conf.get()
			if err != nil {
				fmt.Fprintf(out, "qsh: not run: the sandbox cannot confine it: %v\n", err)
				return Result{Status: 126, Err: fmt.Errorf("the sandbox cannot confine it: %v", err)}
			}
			notes = j.Notes()
		}
		// What the guard and the sandbox refuse is told apart from what
		// merely failed: a guard that refuses returns an error without
		// calling on.
		var mu sync.Mutex
		var stopped error
		denied := notes
		stop := func(err error) {
			mu.Lock()
			if stopped == nil {
				stopped = err
			}
			mu.Unlock()
		}
		deny := func(line string) {
			mu.Lock()
			denied = append(denied, line)
			mu.Unlock()
		}
		confine := func(next interp.OpenHandlerFunc) interp.OpenHandlerFunc {
			if conf == nil {
				return next
			}
			return sandboxOpen(conf, deny, next)
		}
		var execMW func(next interp.ExecHandlerFunc) interp.ExecHandlerFunc
		var openMW func(next interp.OpenHandlerFunc) interp.OpenHandlerFunc
		if req.Unguarded {
			// The user's own command: no guard, but the sandbox all the same.
			if conf != nil {
				execMW = func(next interp.ExecHandlerFunc) interp.ExecHandlerFunc { return spawn(next, nil, conf) }
				openMW = confine
			}
		} else {
			guardExec, guardOpen := danger.Guard(req.Workspace, req.Approved)
			execMW = func(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
				run := spawn(next, nonInteractive, conf)
				return func(ctx context.Context, args []string) error {
					reached := false
					err := guardExec(func(ctx context.Context, args []string) error {
						reached = true
						return run(ctx, args)
					})(ctx, args)
					if err != nil && !reached {
						stop(err)
					}
					return err
				}
			}
			openMW = func(next interp.OpenHandlerFunc) interp.OpenHandlerFunc {
				next = confine(next)
				return func(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
					reached := false
					f, err := guardOpen(func(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
						reached = true
						return next(ctx, path, flag, perm)
					})(ctx, path, flag, perm)
					if err != nil && !reached {
						stop(err)
					}
					return f, err
				}
			}
		}
		st, err := run(ctx, req.Command, out, out, execMW, openMW)
		if conf != nil {
			conf.end(0) // what the run left behind dies with it
		}
		mu.Lock()
		defer mu.Unlock()
		return Result{Status: st, Stopped: stopped, Err: ctxErr(ctx, err), Denied: denied}
	}
}

// writeFlags are the open flags that make an open a write.
const writeFlags = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREATE | os.O_TRUNC

// sandboxOpen holds the files the shell opens for a confined run (its
// redirections, source, $(<file)) to the policy the kernel holds its
// programs to: the shell's own process is not confined. A refusal fails
// the open as the kernel would, with EACCES, and is told to deny. A path
// under the temp dirs is the jail's own /tmp, as its programs see it.
func sandboxOpen(conf *jailed, deny func(string), next interp.OpenHandlerFunc) interp.OpenHandlerFunc {
	return func(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
		abs := sandbox.Resolve(interp.HandlerCtx(ctx).Dir, path)
		if why := conf.policy.Refusal(abs, flag&writeFlags != 0); why != "" {
			deny(why)
			return nil, &os.PathError{Op: "open", Path: path, Err: syscall.EACCES}
		}
		j, err := conf.get()
		if err != nil {
			return nil, err
		}
		if path == "/dev/stdout" || path == "/dev/stderr" || path == "/dev/stdin" || strings.HasPrefix(path, "/dev/fd/") {
			return next(ctx, path, flag, perm) // the shell's own, which interp knows
		}
		// As the run's programs see it: the jail's /tmp, its caches'
		// layer, the repository's read-only configuration.
		in := path
		if !filepath.IsAbs(in) {
			in = interp.HandlerCtx(ctx).Dir + "/" + path // unclean: link/.. is where the link leads, up one
		}
		f, err := j.Open(in, flag, perm)
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
		return cerr
	}
	return err
}
