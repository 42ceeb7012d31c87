package eval

import (
	"context"
	"errors"
	"fmt"
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
	if s.interactive && r.opts.shopt[optAutocd] && len(c.Args) == 1 {
		// shopt -s autocd: a directory's name is cd's argument, as the
		// shell says.
		if fi, err := os.Stat(r.abs(name)); err == nil && fi.IsDir() {
			if _, err := r.lookPath(name); err != nil || strings.Contains(name, "/") {
				fmt.Fprintf(r.stderr(), "cd -- %s\n", name)
				return r.Builtin("cd").Run(&B{Args: []string{"cd", "--", name}, Ctx: ctx, R: r})
			}
		}
	}
	path, err := r.lookPath(name)
	if err != nil {
		return r.notFound(c, err)
	}
	st, err := c.Spawn(ctx, Spawn{Path: path, Argv: c.Args, Env: c.Env})
	if err == nil {
		return st
	}
	// bash names the file it tried: the path found along PATH.
	shown := path
	if strings.Contains(name, "/") {
		shown = name
	}
	if errors.Is(err, syscall.ENOEXEC) {
		// A file the kernel will not run is a script for the shell.
		return r.runScriptFile(path, c.Args)
	}
	return r.execFailed(shown, r.abs(path), err)
}

// execFailed reports a program the system would not start, as bash's
// shell_execve does, and returns the status: 127 when a file is missing,
// else 126.
func (r *Runner) execFailed(shown, abs string, err error) int {
	status := 126
	if errors.Is(err, syscall.ENOENT) {
		status = 127
	}
	fi, statErr := os.Stat(abs)
	switch {
	case statErr == nil && fi.IsDir():
		r.errorf("%s: Is a directory", shown)
	case !isExecutable(abs) || errors.Is(err, syscall.E2BIG) || errors.Is(err, syscall.ENOMEM):
		r.errorf("%s: %s", shown, errText(err))
	case errors.Is(err, syscall.ENOENT):
		// The interpreter of a #! line, or the loader, is missing.
		r.errorf("%s: cannot execute: required file not found", shown)
	default:
		if interp, ok := hashBangInterp(abs); ok {
			r.errorf("%s: %s: bad interpreter: %s", shown, interp, errText(err))
		} else {
			r.errorf("%s: %s", shown, errText(err))
		}
	}
	return status
}

// hashBangInterp is the interpreter a #! line names.
func hashBangInterp(path string) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	buf := make([]byte, 80)
	n, _ := f.Read(buf)
	line := string(buf[:n])
	if !strings.HasPrefix(line, "#!") {
		return "", false
	}
	line = strings.TrimLeft(line[2:], " \t")
	if i := strings.IndexAny(line, " \t\n"); i >= 0 {
		line = line[:i]
	}
	if strings.HasSuffix(line, "\r") {
		line = strings.TrimSuffix(line, "\r") + "^M"
	}
	return line, true
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
	p := r.findInPath(name)
	if p == "" {
		return "", errNotFound
	}
	if r.opts.set[optHashall] {
		r.hash.putHits(name, p, 1)
	}
	return p, nil
}

// findInPath searches the directories of path for name as bash does: the
// first executable file, else the first file that exists (bash runs it
// and fails with 126). The path is as bash writes it, the PATH entry and
// the name joined ("./y" for an entry "." or an empty one, "bin/x" for
// "bin"); relative entries are relative to dir.
func findInPath(path, dir, home, name string) string {
	firstFile := ""
	for _, d := range filepath.SplitList(path) {
		p := pathEntry(d, home, name)
		full := p
		if !filepath.IsAbs(full) {
			full = filepath.Join(dir, full)
		}
		if isExecutable(full) {
			return p
		}
		if firstFile == "" {
			if fi, err := os.Stat(full); err == nil && !fi.IsDir() {
				firstFile = p
			}
		}
	}
	return firstFile
}

// findInPath searches PATH for name.
func (r *Runner) findInPath(name string) string {
	pathVar, _ := r.Get("PATH")
	home, _ := r.Get("HOME")
	return findInPath(pathVar, r.dir, home, name)
}

// allInPath is every executable file name along path, as type -a lists
// them.
func allInPath(path, dir, home, name string) []string {
	var out []string
	for _, d := range filepath.SplitList(path) {
		p := pathEntry(d, home, name)
		full := p
		if !filepath.IsAbs(full) {
			full = filepath.Join(dir, full)
		}
		if isExecutable(full) {
			out = append(out, p)
		}
	}
	return out
}

// pathEntry joins a PATH entry and a name as bash does, ~ at the start
// of the entry the home directory.
func pathEntry(d, home, name string) string {
	if home != "" && (d == "~" || strings.HasPrefix(d, "~/")) {
		d = home + d[1:]
	}
	switch {
	case d == "":
		return "./" + name
	case strings.HasSuffix(d, "/"):
		return d + name
	}
	return d + "/" + name
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
	own := r.job == nil
	job := r.jobFor()
	if own && job != nil {
		// A simple command's own job: when its program ends or stops,
		// the shell takes the terminal back and the next program has a
		// job of its own.
		defer func() {
			r.job, r.ownJob = nil, false
			r.foregroundDone(job)
		}()
	}
	if job != nil && !sp.Setsid {
		attr.Setpgid = true
		attr.Pgid = job.pgid()
		if attr.Pgid == 0 && job.fg {
			// The pipeline's first program to start leads its group:
			// the others, starting at once, wait until it has, to join.
			job.lead.Lock()
			if attr.Pgid = job.pgid(); attr.Pgid == 0 {
				job.leading.Store(true)
				defer job.leadDone()
			} else {
				job.lead.Unlock()
			}
		}
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
	// A C string ends at its first NUL: so do a program's arguments.
	argv := sp.Argv
	for i, a := range argv {
		if k := strings.IndexByte(a, 0); k >= 0 {
			if &argv[0] == &sp.Argv[0] {
				argv = append([]string(nil), sp.Argv...)
			}
			argv[i] = a[:k]
		}
	}
	pid, err := r.forkExec(sp.Path, argv, pa)
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
		job.started(pid)
		job.leadDone()
		if r.pipeLast {
			select {
			case job.last <- pid:
			default:
			}
		}
	}
	st := r.sess.jobs.waitProc(ctx, p, job)
	cleanup()
	r.sess.jobs.mu.Lock()
	sig, done := p.sig, p.state == procDone
	r.sess.jobs.mu.Unlock()
	if done && sig != 0 && ctx.Err() == nil {
		r.reportSignaled(pid, sig, job)
	}
	return st, nil
}

// reportSignaled says, as a non-interactive bash does, that a foreground
// program died of a signal: "Terminated" for SIGTERM, nothing for SIGINT
// and SIGPIPE or a pipeline's command before the last, else the line, the
// process ID, the signal and the command.
func (r *Runner) reportSignaled(pid int, sig syscall.Signal, job *job) {
	if r.sess.interactive || sig == syscall.SIGINT || sig == syscall.SIGPIPE ||
		r.inPipe && !r.pipeLast || job != nil && !job.fg || r.bgJob {
		return
	}
	var sb strings.Builder
	if sig == syscall.SIGTERM {
		sb.WriteString(signalDescription(sig) + "\n")
	} else {
		r.errorfTo(&sb, "%5d %-24s%s", pid, signalDescription(sig), r.bashCommand())
	}
	r.signaledMsg = sb.String()
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
	// Descriptors that are one file of the shell's (2>&1 into $(…)) get
	// one pipe, so that the program's writes to them stay in order.
	type end struct {
		f    *file
		read bool
	}
	made := map[end]*os.File{}
	for n := 0; n <= max; n++ {
		f := r.fds.get(n)
		if f == nil || f.noInherit && n > 2 {
			continue
		}
		read := n == 0 || f.w == nil
		if of, ok := made[end{f, read}]; ok {
			files[n] = of
			continue
		}
		of, done, err := f.osFile(read)
		if err != nil {
			cleanup()
			return nil, nil, err
		}
		made[end{f, read}] = of
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
