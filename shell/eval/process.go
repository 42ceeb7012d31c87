package eval

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
)

// Call is what an [ExecHandler] sees of the program a simple command runs.
type Call struct {
	Args   []string
	Dir    string
	Env    []string // NAME=value, what the program gets
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	r      *Runner
}

// Getenv is the value of an environment variable the program gets.
func (c *Call) Getenv(name string) string {
	for i := len(c.Env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(c.Env[i], "="); ok && k == name {
			return v
		}
	}
	return ""
}

// LookPath finds a program as the shell would run it: a name with a slash
// as it is, else along PATH (and the shell's hash table).
func (c *Call) LookPath(name string) (string, error) { return c.r.lookPath(name) }

// ExecHandler runs a program and returns its exit status; it prints its own
// messages. Middlewares given with [WrapExec] wrap the default, which
// finds the program and runs it with [Call.Spawn].
type ExecHandler func(ctx context.Context, c *Call) int

// Spawn describes a program to start: Path is the file to execute, Argv
// its arguments (Argv[0] its name). Setsid starts it in a session of its
// own, without a terminal; ExtraFiles come after the shell's own
// descriptors 3 and up.
type Spawn struct {
	Path       string
	Argv       []string
	Env        []string
	ExtraFiles []*os.File
	Setsid     bool
}

// Spawn starts a program with the shell's descriptors, directory, umask
// and limits, in the job the command belongs to, and waits for it: its
// exit status, 128+N for a signal; a program that stops (Ctrl-Z) is left
// stopped as a job. A context that ends kills it.
func (c *Call) Spawn(ctx context.Context, sp Spawn) (int, error) {
	return c.r.spawn(ctx, sp)
}

// exec runs a program by name.
func (r *Runner) execProgram(args []string, env []string) {
	c := &Call{
		Args:   args,
		Dir:    r.dir,
		Env:    r.environ(env),
		Stdin:  r.stdin(),
		Stdout: r.stdout(),
		Stderr: r.stderr(),
		r:      r,
	}
	r.status = r.exec(r.ctx, c)
}

func (s *session) defaultExec(ctx context.Context, c *Call) int {
	r := c.r
	name := c.Args[0]
	path, err := r.lookPath(name)
	if err != nil {
		return r.notFound(c, err)
	}
	st, err := c.Spawn(ctx, Spawn{Path: path, Argv: c.Args, Env: c.Env})
	if err == nil {
		return st
	}
	if errors.Is(err, syscall.ENOEXEC) {
		// A file the kernel will not run is a script for the shell.
		return r.runScriptFile(path, c.Args)
	}
	if errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EISDIR) || errors.Is(err, syscall.ETXTBSY) {
		msg := errText(err)
		if fi, e := os.Stat(path); e == nil && fi.IsDir() {
			msg = "Is a directory"
		}
		r.errorf("%s: %s", name, msg)
		return 126
	}
	if errors.Is(err, syscall.ENOENT) {
		// The interpreter of a #! line is missing.
		r.errorf("%s: %s", name, describeBadInterpreter(path))
		return 126
	}
	r.errorf("%s: %s", name, errText(err))
	return 126
}

func describeBadInterpreter(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return "No such file or directory"
	}
	defer f.Close()
	buf := make([]byte, 256)
	n, _ := f.Read(buf)
	line, _, _ := strings.Cut(string(buf[:n]), "\n")
	if interp, ok := strings.CutPrefix(line, "#!"); ok {
		return strings.TrimSpace(interp) + ": bad interpreter: No such file or directory"
	}
	return "No such file or directory"
}

// notFound reports a command that was not found: through
// command_not_found_handle when it is defined, as bash.
func (r *Runner) notFound(c *Call, err error) int {
	name := c.Args[0]
	if fn := r.funcs.get("command_not_found_handle"); fn != nil && !r.inNotFound {
		r.inNotFound = true
		sub := r.fork()
		sub.ctx = r.ctx
		sub.callFunc(fn, append([]string{"command_not_found_handle"}, c.Args...))
		sub.fds.release()
		r.inNotFound = false
		return sub.status
	}
	if errors.Is(err, errNotFoundPath) {
		r.errorf("%s: No such file or directory", name)
	} else {
		r.errorf("%s: command not found", name)
	}
	return 127
}

var (
	errNotFound     = errors.New("command not found")
	errNotFoundPath = errors.New("no such file")
)

// lookPath finds the program name runs.
func (r *Runner) lookPath(name string) (string, error) {
	if strings.Contains(name, "/") {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.dir, p)
		}
		if _, err := os.Stat(p); err != nil {
			return "", errNotFoundPath
		}
		return p, nil
	}
	if p, ok := r.hash.get(name); ok {
		// bash trusts the table unless checkhash is set.
		if !r.opts.shopt[optCheckhash] || isExecutable(p) {
			return p, nil
		}
		r.hash.remove(name)
	}
	pathVar, _ := r.Get("PATH")
	p := findInPath(pathVar, r.dir, name)
	if p == "" {
		return "", errNotFound
	}
	if r.opts.set[optHashall] {
		r.hash.putHits(name, p, 1)
	}
	return p, nil
}

// findInPath searches the directories of path for an executable file
// name; an empty element is the current directory.
func findInPath(path, dir, name string) string {
	firstFile := ""
	for _, d := range filepath.SplitList(path) {
		if d == "" {
			d = "."
		}
		p := filepath.Join(d, name)
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if isExecutable(p) {
			if !filepath.IsAbs(d) {
				return filepath.Join(d, name)
			}
			return p
		}
		if firstFile == "" {
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				firstFile = p
			}
		}
	}
	// bash runs a file found but not executable, and fails with 126.
	return firstFile
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	if err != nil || fi.IsDir() {
		return false
	}
	return syscall.Access(p, 1) == nil
}

// spawn starts a program and waits for it.
func (r *Runner) spawn(ctx context.Context, sp Spawn) (int, error) {
	files, cleanup, err := r.childFiles(sp.ExtraFiles)
	if err != nil {
		return 1, err
	}
	fds := make([]uintptr, len(files))
	for i, f := range files {
		if f == nil {
			fds[i] = ^uintptr(0)
			continue
		}
		fds[i] = f.Fd()
	}
	attr := &syscall.SysProcAttr{Setsid: sp.Setsid}
	job := r.jobFor()
	if job != nil && !sp.Setsid {
		attr.Setpgid = true
		attr.Pgid = job.pgid()
		if job.takesTerminal() {
			attr.Foreground = true
			attr.Ctty = r.sess.jobs.tty
		}
	}
	pa := &syscall.ProcAttr{
		Dir:   r.dir,
		Env:   sp.Env,
		Files: fds,
		Sys:   attr,
	}
	pid, err := r.forkExec(sp.Path, sp.Argv, pa)
	if err != nil && attr.Pgid != 0 && (errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.ESRCH)) {
		// The group's leader is gone: start a group of its own.
		attr.Pgid = 0
		pid, err = r.forkExec(sp.Path, sp.Argv, pa)
	}
	runtime.KeepAlive(files)
	if err != nil {
		cleanup()
		return 1, err
	}
	p := r.sess.jobs.track(pid, job, sp.Argv, job == nil || job.fg)
	if job != nil {
		job.started(pid, r.pipeLast)
	}
	st := r.sess.jobs.waitProc(ctx, p, job)
	cleanup()
	return st, nil
}

// forkExec starts a program with this shell's umask and limits, which
// belong to the whole process and are set around the start.
func (r *Runner) forkExec(path string, argv []string, pa *syscall.ProcAttr) (int, error) {
	if r.umask == r.sess.procUmask && len(r.limits) == 0 {
		return syscall.ForkExec(path, argv, pa)
	}
	r.sess.execMu.Lock()
	defer r.sess.execMu.Unlock()
	old := syscall.Umask(int(r.umask))
	defer syscall.Umask(old)
	restore := applyLimits(r.limits)
	defer restore()
	return syscall.ForkExec(path, argv, pa)
}

// childFiles are the descriptors a program gets: the shell's 0, 1, 2 and
// others, then extra. A reader or writer of the shell's own becomes a pipe
// (see [file.osFile]); cleanup closes those after the start.
func (r *Runner) childFiles(extra []*os.File) ([]*os.File, func(), error) {
	max := 2
	for n := range r.fds.fds {
		if n > max && n < 1024 {
			max = n
		}
	}
	files := make([]*os.File, max+1)
	var dones []func()
	cleanup := func() {
		for _, d := range dones {
			d()
		}
	}
	for n := 0; n <= max; n++ {
		f := r.fds.get(n)
		if f == nil {
			continue
		}
		of, done, err := f.osFile(n == 0 || f.w == nil)
		if err != nil {
			cleanup()
			return nil, nil, err
		}
		files[n] = of
		dones = append(dones, done)
	}
	files = append(files, extra...)
	return files, cleanup, nil
}

// runScriptFile runs a file without #! as bash does: a subshell reads it.
func (r *Runner) runScriptFile(path string, args []string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		r.errorf("%s: %s", args[0], errText(err))
		return 126
	}
	prog, err := Parse(string(data), args[0])
	if err != nil {
		r.errorf("%s", parseErrMsg(err))
		return 2
	}
	status := 0
	r.subshellRun(func(sub *Runner) {
		sub.funcs = newFuncs()
		sub.arg0, sub.params = args[0], args[1:]
		sub.frames = nil
		sub.Run(sub.ctx, prog)
		status = sub.status
	})
	return status
}
