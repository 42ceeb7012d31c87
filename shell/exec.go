package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"

	"github.com/qsh-shell/qsh/shell/marks"
)

// guardKey is the context key of a caller's exec middleware; see [guard].
type guardKey struct{}

// fgKey marks a context whose programs run in the terminal's foreground.
type fgKey struct{}

type execMiddleware = func(next interp.ExecHandlerFunc) interp.ExecHandlerFunc

// guard routes each program through the exec middleware stored in the
// context, if any. interp composes exec middlewares once, in interp.New, and
// subshells copy the composed handler; so a per-run middleware (the
// assistant's confirmation guard) must be looked up at call time.
func guard(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
	return func(ctx context.Context, args []string) error {
		if mw, ok := ctx.Value(guardKey{}).(execMiddleware); ok && mw != nil {
			return mw(next)(ctx, args)
		}
		return next(ctx, args)
	}
}

// killDelay is how long a cancelled program has between SIGINT and SIGKILL.
const killDelay = 2 * time.Second

// execProgram runs an external program; it is the last exec handler. It
// differs from interp's default in ways that an interactive shell needs:
// with job control (see job.go) the program runs in a process group of its
// own; Ctrl-C is left to the terminal, which delivers it to the program,
// instead of being sent again; without job control a program stopped by
// Ctrl-Z is resumed, as the shell would otherwise wait for it forever; and
// a file the kernel will not execute (a script without #!) runs in a new
// qsh.
func (s *Shell) execProgram(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
	return func(ctx context.Context, args []string) error {
		hc := interp.HandlerCtx(ctx)
		path, hashed, err := s.lookPath(hc, args[0])
		if err == nil && hashed && hashedGone(path) {
			// bash runs what it remembered, and fails as exec does.
			fmt.Fprintf(hc.Stderr, "%s%s: No such file or directory\n", s.errPrefix(hc), path)
			return interp.ExitStatus(127)
		}
		if err != nil {
			s.bgFailed(hc)
			if strings.Contains(args[0], "/") {
				fmt.Fprintf(hc.Stderr, "%s%s: %v\n", s.errPrefix(hc), args[0], pathError(hc.Dir, args[0]))
			} else {
				fmt.Fprintf(hc.Stderr, "%s%s: command not found\n", s.errPrefix(hc), args[0])
			}
			return interp.ExitStatus(127)
		}
		var stdin io.Reader
		if f, ok := hc.Stdin.(*os.File); ok && f != nil {
			stdin = f
		} else if hc.Stdin != nil && !ok {
			stdin = hc.Stdin
		}
		env := environ(hc.Env)
		newCmd := func() *exec.Cmd {
			return &exec.Cmd{
				Path:   path,
				Args:   args,
				Env:    env,
				Dir:    hc.Dir,
				Stdin:  stdin,
				Stdout: hc.Stdout,
				Stderr: hc.Stderr,
			}
		}
		fg := ctx.Value(fgKey{}) != nil
		if fg {
			s.replace(ctx, path, args, env, hc.Dir, stdin, hc.Stdout, hc.Stderr)
		}
		if s.jobs != nil && fg && !hc.Env.Get(marks.NoJobVar).IsSet() && plainFiles(stdin, hc.Stdout, hc.Stderr) {
			return s.runJob(ctx, hc, args, newCmd, &stdin)
		}
		if fg {
			// Counted before the start: once the program runs, a
			// Ctrl-C is its to handle, and the shell must live on,
			// so it catches now if it has not yet (see catchDelay).
			s.catchSignals()
			s.fg.Add(1)
			defer s.fg.Add(-1)
		}
		cmd, err := startProgram(newCmd())
		if err != nil {
			s.bgFailed(hc)
			fmt.Fprintf(hc.Stderr, "qsh: %s: %v\n", args[0], unwrapExec(err))
			return interp.ExitStatus(126)
		}
		s.bgStarted(hc, cmd.Process.Pid)
		defer s.bgExited(hc, cmd.Process.Pid)
		done := make(chan struct{})
		defer close(done)
		go func() {
			// A cancelled context (a timeout, an assistant turn cancelled)
			// stops the program: SIGINT first, SIGKILL if it lingers.
			select {
			case <-done:
				return
			case <-ctx.Done():
			}
			cmd.Process.Signal(os.Interrupt)
			select {
			case <-done:
			case <-time.After(killDelay):
				cmd.Process.Kill()
			}
		}()
		ws, err := waitProgram(cmd, hc.Stderr)
		if fg {
			s.settleSignals() // while the program still counts
		}
		if err != nil {
			fmt.Fprintf(hc.Stderr, "qsh: %s: %v\n", args[0], err)
			return interp.ExitStatus(1)
		}
		if ws.Signaled() {
			if ws.Signal() == syscall.SIGINT && fg {
				// The user interrupted the program: like bash, stop
				// the rest of the command line too.
				s.interrupt()
			}
			return interp.ExitStatus(128 + int(ws.Signal()))
		}
		return exitStatus(ws.ExitStatus())
	}
}

// startProgram starts cmd; a file the kernel will not execute (a script
// without #!) runs in a new qsh.
func startProgram(cmd *exec.Cmd) (*exec.Cmd, error) {
	err := cmd.Start()
	if !errors.Is(err, syscall.ENOEXEC) {
		return cmd, err
	}
	self, serr := os.Executable()
	if serr != nil {
		return nil, err
	}
	cmd = &exec.Cmd{Path: self, Args: append([]string{"qsh", cmd.Path}, cmd.Args[1:]...),
		Env: cmd.Env, Dir: cmd.Dir, Stdin: cmd.Stdin, Stdout: cmd.Stdout, Stderr: cmd.Stderr,
		SysProcAttr: cmd.SysProcAttr}
	return cmd, cmd.Start()
}

// plainFiles reports whether a program's standard files are all files (or
// none): then os/exec copies nothing for it, and the process may outlive
// its handler as a stopped or background job.
func plainFiles(files ...any) bool {
	for _, f := range files {
		switch f.(type) {
		case nil, *os.File:
		default:
			return false
		}
	}
	return true
}

// runJob runs a program under job control: in the foreground job of the
// line, or in the job of its background statement.
// newCmd makes the command with *stdin.
func (s *Shell) runJob(ctx context.Context, hc interp.HandlerContext, args []string,
	newCmd func() *exec.Cmd, stdin *io.Reader) error {
	token := hc.Env.Get(marks.JobVar).String()
	line, _ := ctx.Value(lineKey{}).(*lineState)
	// A program that starts once its line is over is in the background,
	// marked or not.
	bg := token != "" || line == nil || line.over.Load()
	if f, ok := (*stdin).(*os.File); ok && bg {
		// The terminal the line opened for its stdin (see
		// [Shell.cancellableStdin]) is closed when the line ends,
		// maybe before a background program starts. Other files
		// (interp's pipes) stay open while the program runs, and go
		// to it as they are: a copy made with os.NewFile would keep
		// the pipe's O_NONBLOCK, and the program would read EAGAIN.
		held, err := holdFile(f)
		if err != errNotTerminal {
			if err != nil {
				held, err = holdFile(s.stdin)
			}
			*stdin = nil // /dev/null
			if err == nil {
				defer held.Close()
				*stdin = held
			}
		}
	}
	resume := hc.Env.Get(marks.MixedVar).IsSet()
	j, p, err := s.jobs.start(newCmd, startProgram, args, hc.Pos.Offset(), token, bg, resume, line)
	if err != nil {
		s.bgFailed(hc)
		fmt.Fprintf(hc.Stderr, "qsh: %s: %v\n", args[0], unwrapExec(err))
		return interp.ExitStatus(126)
	}
	s.bgStarted(hc, p.pid)
	defer s.bgExited(hc, p.pid)
	if bg {
		return exitStatus(s.jobs.waitBackground(ctx.Done(), p))
	}
	// Not counted in s.fg: the program is in a group of its own, so a
	// Ctrl-C the shell gets was typed while the terminal was still the
	// shell's, before the program took it, and is the line's to stop
	// (the program gets SIGINT below). Counted, it was lost when the
	// shell read the signal after the program had started (1 in 40 of
	// `echo x; sleep 5` with Ctrl-C at once).
	done := make(chan struct{})
	defer close(done)
	go func() {
		// As in execProgram: a cancelled context stops the program.
		select {
		case <-done:
			return
		case <-ctx.Done():
		}
		s.jobs.signal(p, syscall.SIGINT)
		select {
		case <-done:
		case <-time.After(killDelay):
			s.jobs.signal(p, syscall.SIGKILL)
		}
	}()
	st, interrupted := s.jobs.waitForeground(j, p)
	if interrupted {
		s.interrupt()
	}
	return exitStatus(st)
}

// errNotTerminal is holdFile's answer for a file that is no terminal.
var errNotTerminal = errors.New("not a terminal")

// holdFile opens anew the terminal that r is, so that the program does not
// share the open file (and its O_NONBLOCK flag) with the shell: the shell's
// own stdin may be non-blocking. It fails if r is not a file or is closed,
// and with errNotTerminal if r is another file.
func holdFile(r io.Reader) (*os.File, error) {
	f, ok := r.(*os.File)
	if !ok || f == nil {
		return nil, os.ErrInvalid
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var held *os.File
	herr := errNotTerminal
	// Control holds the file open while it runs.
	err = rc.Control(func(fd uintptr) {
		if !term.IsTerminal(int(fd)) {
			return
		}
		held, herr = os.OpenFile(fmt.Sprintf("/proc/self/fd/%d", fd), os.O_RDWR, 0)
		if herr == nil {
			return
		}
		// No /proc (darwin): a copy of the descriptor.
		nfd, derr := unix.FcntlInt(fd, unix.F_DUPFD_CLOEXEC, 0)
		if derr != nil {
			herr = derr
			return
		}
		held, herr = os.NewFile(uintptr(nfd), f.Name()), nil
	})
	if err != nil {
		return nil, err
	}
	return held, herr
}

func exitStatus(st int) error {
	if st == 0 {
		return nil
	}
	return interp.ExitStatus(uint8(st))
}

func unwrapExec(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// pathError says why a command given as a path cannot run.
func pathError(dir, name string) error {
	if !strings.HasPrefix(name, "/") {
		name = dir + "/" + name
	}
	fi, err := os.Stat(name)
	switch {
	case err != nil:
		return unwrapExec(err)
	case fi.IsDir():
		return errors.New("is a directory")
	default:
		return errors.New("permission denied")
	}
}

// environ lists the exported variables of env as KEY=value, without the
// marks' (`__qsh_…`: see package marks), which set -a would
// export.
func environ(env expand.Environ) []string {
	var list []string
	for name, vr := range env.Each {
		if vr.Exported && vr.IsSet() && vr.Kind == expand.String && !strings.HasPrefix(name, marks.Prefix) {
			list = append(list, name+"="+vr.Str)
		}
	}
	return list
}
