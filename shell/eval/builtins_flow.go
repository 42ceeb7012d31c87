package eval

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

func flowBuiltins() []*Builtin {
	return []*Builtin{
		{Name: ":", Usage: ":", Special: true, Guarded: true, Run: func(*B) int { return 0 }},
		{Name: "true", Usage: "true", Guarded: true, Run: func(*B) int { return 0 }},
		{Name: "false", Usage: "false", Guarded: true, Run: func(*B) int { return 1 }},
		{Name: "exit", Usage: "exit [n]", Special: true, Guarded: true, Run: builtinExit},
		{Name: "logout", Usage: "logout [n]", Run: func(b *B) int {
			if !b.R.sess.login {
				b.Errorf("not login shell: use `exit'")
				return 1
			}
			return builtinExit(b)
		}},
		{Name: "return", Usage: "return [n]", Special: true, Guarded: true, Run: builtinReturn},
		{Name: "break", Usage: "break [n]", Special: true, Guarded: true, Run: func(b *B) int { return loopControl(b, flowBreak) }},
		{Name: "continue", Usage: "continue [n]", Special: true, Guarded: true, Run: func(b *B) int { return loopControl(b, flowContinue) }},
		{Name: "eval", Usage: "eval [arg ...]", Special: true, Guarded: true, Run: builtinEval},
		{Name: "source", Usage: "source filename [arguments]", Guarded: true, Run: builtinSource},
		{Name: ".", Usage: ". filename [arguments]", Special: true, Guarded: true, Run: builtinSource},
		{Name: "exec", Usage: "exec [-cl] [-a name] [command [argument ...]] [redirection ...]", Special: true, Run: builtinExec},
		{Name: "shift", Usage: "shift [n]", Special: true, Guarded: true, Run: builtinShift},
	}
}

// numArg reads a builtin's numeric argument, as bash: an error says
// "numeric argument required".
func numArg(b *B, s string) (int64, bool) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		b.Errorf("%s: numeric argument required", s)
		return 0, false
	}
	return n, true
}

// tooManyArgs is bash's exit, return, break, continue and shift given
// more than their one number: the rest of the line is abandoned, status
// 1 — the line of an eval's or a sourced file's caller too; a subshell
// ends, and so does a -c string, read by bash as one piece; a script
// reads on at its next line.
func tooManyArgs(b *B) {
	b.Errorf("too many arguments")
	panic(abort{status: 1, exit: b.R.sess.dashExtra == "c" && b.R.sess.scriptName == "", discard: true})
}

func builtinExit(b *B) int {
	args := b.Args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	status := b.R.status
	if len(args) > 0 {
		n, ok := numArg(b, args[0])
		if !ok {
			b.R.exit(2)
			return 2
		}
		if len(args) > 1 {
			tooManyArgs(b)
		}
		status = int(n & 0xff)
	}
	if b.R.sess.exitHook != nil && b.R.subshell == 0 && !b.R.sess.exitHook(b.R) {
		return 1 // the shell holds the exit (stopped jobs)
	}
	b.R.exit(status)
	return status
}

func builtinReturn(b *B) int {
	r := b.R
	args := b.Args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(r.frames) == 0 {
		b.Errorf("can only `return' from a function or sourced script")
		return 2
	}
	status := r.status
	if len(args) > 0 {
		n, ok := numArg(b, args[0])
		if !ok {
			return 2
		}
		if len(args) > 1 {
			tooManyArgs(b)
		}
		status = int(n & 0xff)
	}
	r.status = status
	r.flow = flowReturn
	return status
}

func loopControl(b *B, kind flow) int {
	r := b.R
	n := int64(1)
	if len(b.Args) > 1 {
		v, ok := numArg(b, b.Args[1])
		if !ok {
			return 1
		}
		if v < 1 {
			b.Errorf("%s: loop count out of range", b.Args[1])
			return 1
		}
		if len(b.Args) > 2 {
			tooManyArgs(b)
		}
		n = v
	}
	if r.loops == 0 {
		b.Errorf("only meaningful in a `for', `while', or `until' loop")
		return 0
	}
	r.flow, r.flowN = kind, int(min(n, int64(r.loops)))
	return 0
}

func builtinEval(b *B) int {
	args := b.Args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	} else if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		return b.UsageError(args[0][:2])
	}
	src := strings.Join(args, " ")
	if strings.TrimSpace(src) == "" {
		return 0
	}
	return b.R.eval(src, "eval")
}

// EvalOutput runs src in the current scope, as the eval builtin would,
// with its standard output kept and returned rather than written: the
// completion builtins expand -W's words and run -C's command so, without
// a variable of their own in the user's shell.
func (b *B) EvalOutput(src string) (out string, status int) {
	r := b.R
	var buf bytes.Buffer
	f := newFile(nil, &buf, "stdout")
	old := r.fds.swap(1, f)
	defer func() {
		if cur := r.fds.swap(1, old); cur != nil {
			cur.drop()
		}
	}()
	savedCtx := r.ctx
	if b.Ctx != nil {
		r.ctx = b.Ctx
	}
	defer func() { r.ctx = savedCtx }()
	status = r.eval(src, "eval")
	return buf.String(), status
}

// eval parses and runs src in the current shell, as the eval builtin.
// Like bash's, it reads and runs a line at a time: the lines before a
// syntax error run.
func (r *Runner) eval(src, name string) int {
	savedLine, savedBase := r.line, r.lineBase
	r.status = 0
	r.lineBase = max(r.line-1, 0)
	defer func() { r.line, r.lineBase = savedLine, savedBase }()
	r.runIncremental(src, false, "eval")
	return r.status
}

func builtinSource(b *B) int {
	r := b.R
	args := b.Args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		b.Errorf("filename argument required")
		b.usage()
		return 2
	}
	name := args[0]
	path := r.findSource(name)
	if path == "" {
		if fi, err := os.Stat(r.abs(name)); err == nil && fi.IsDir() {
			b.Errorf("%s: is a directory", name)
			return 1
		}
		if r.opts.set[optPosix] && !strings.Contains(name, "/") {
			b.Errorf("%s: file not found", name)
			if !r.sess.interactive {
				r.exit(1) // POSIX: a special builtin's error ends the shell
			}
			return 1
		}
		// Outside posix mode bash tries the name itself last, and says
		// what opening it said.
		r.errorf("%s: No such file or directory", name)
		return 1
	}
	src, err := r.readSource(path)
	if err != nil {
		b.Errorf("%s: %s", name, errText(err))
		return 1
	}
	return r.source(name, src, args[1:], len(args) > 1)
}

// findSource finds the file source reads: a name with a slash as it is,
// else along PATH (sourcepath), else in the current directory.
func (r *Runner) findSource(name string) string {
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(r.dir, p)
	}
	if strings.Contains(name, "/") {
		if fi, err := os.Stat(abs(name)); err == nil && !fi.IsDir() {
			return abs(name)
		}
		return ""
	}
	if r.opts.shopt[optSourcepath] {
		pathVar, _ := r.Get("PATH")
		for _, d := range filepath.SplitList(pathVar) {
			if d == "" {
				d = "."
			}
			p := abs(filepath.Join(d, name))
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				return p
			}
		}
	}
	if fi, err := os.Stat(abs(name)); err == nil && !fi.IsDir() {
		return abs(name)
	}
	return ""
}

func (r *Runner) readSource(path string) (string, error) {
	f, err := r.open(r.ctx, path, os.O_RDONLY, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	// The text is built once, at the file's size: growing a buffer and
	// copying it out (twice: to bytes, then to the string parsed) cost
	// more than parsing a line of bash-completion's 77 KB, most of it in
	// faulting in fresh memory.
	var sb strings.Builder
	if st, ok := f.(interface{ Stat() (os.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
			sb.Grow(int(fi.Size()))
		}
	}
	buf := make([]byte, 8*1024)
	for {
		n, err := f.Read(buf)
		sb.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return sb.String(), nil
}

// Source runs a file's text in the current shell, as source does, a
// statement at a time: a syntax error stops the file there, once the
// lines before it ran. name is how it was named (BASH_SOURCE has it),
// args replace the positional parameters while it runs when setArgs.
func (r *Runner) Source(path, name string, data []byte, args []string, setArgs bool) int {
	return r.source(name, string(data), args, setArgs)
}

// source is [Runner.Source] on the text itself.
func (r *Runner) source(name, src string, args []string, setArgs bool) int {
	if len(r.frames) == 0 && r.subshell == 0 {
		r.sess.lineAborted.Store(false)
	}
	if r.opts.shopt[optExtdebug] {
		r.initArgStack()
	}
	pushed := []string{name}
	if setArgs {
		pushed = args
	}
	r.frames = append(r.frames, frame{name: "source", source: name, callLine: r.line, params: r.params,
		args: pushed, pushed: r.opts.shopt[optExtdebug]})
	savedLine, savedBase := r.line, r.lineBase
	if setArgs {
		r.params = args
	}
	r.lineBase = 0
	func() {
		// An abort that abandons the caller's line passes through.
		defer func() {
			r.line, r.lineBase = savedLine, savedBase
			top := r.frames[len(r.frames)-1]
			r.frames = r.frames[:len(r.frames)-1]
			if setArgs {
				r.params = top.params
			}
		}()
		r.runIncremental(src, false, "")
	}()
	if r.flow == flowReturn {
		r.flow = flowNone
	}
	r.returnTrap(nil)
	return r.status
}

func builtinExec(b *B) int {
	r := b.R
	f, args, ok := b.flags("cla:", false)
	if !ok {
		return 2
	}
	if len(args) == 0 {
		return 0 // redirections alone: the caller kept them
	}
	failed := func(status int) int {
		if r.subshell > 0 || !r.sess.interactive && !r.opts.shopt[optExecfail] {
			r.exit(status)
		}
		return status
	}
	path, err := r.lookPath(args[0])
	if errors.Is(err, errNotFound) {
		if fi, err := os.Stat(r.abs(args[0])); err == nil && fi.IsDir() {
			b.Errorf("%s: cannot execute: Is a directory", args[0])
			return failed(126)
		}
		b.Errorf("%s: not found", args[0])
		return failed(127)
	}
	if err != nil || strings.Contains(args[0], "/") {
		path = args[0]
	}
	// bash runs the program by a full path: the directory, then the
	// name less a leading "./".
	if !filepath.IsAbs(path) {
		path = r.dir + "/" + strings.TrimPrefix(path, "./")
	}
	argv := append([]string(nil), args...)
	if a := f.val('a'); a != "" {
		argv[0] = a
	}
	if f.has('l') {
		argv[0] = "-" + argv[0]
	}
	env := r.environ(nil)
	if f.has('c') {
		env = nil
	}
	var st int
	if r.subshell > 0 || r.job != nil && !r.ownJob {
		// A subshell is no process of its own: the program runs and the
		// subshell ends with it.
		c := &Call{Args: args, Dir: r.dir, Env: env, Stdin: r.stdin(), Stdout: r.stdout(), Stderr: r.stderr(), r: r}
		st, err = c.Spawn(r.ctx, Spawn{Path: path, Argv: argv, Env: env})
		if err == nil {
			r.exit(st)
			return st
		}
	} else {
		if r.sess.beforeExec != nil {
			r.sess.beforeExec()
		}
		err = r.execReplace(path, argv, env)
	}
	if errors.Is(err, syscall.ENOEXEC) {
		// A file the kernel will not run is a script: the shell runs it
		// and ends.
		st = r.runScriptFile(path, append([]string{path}, args[1:]...))
		r.exit(st)
		return st
	}
	// shell_execve's message, then exec's own unless the file was
	// missing.
	st = r.execFailed(path, path, err)
	if st != 127 {
		st = 126
		if !isExecutable(path) {
			b.Errorf("%s: cannot execute: %s", path, execErrText(path, err))
		} else {
			r.errorf("%s: %s", path, errText(err))
		}
	}
	return failed(st)
}

// execErrText is why a file could not run: a directory says so.
func execErrText(path string, err error) string {
	if fi, e := os.Stat(path); e == nil && fi.IsDir() {
		return "Is a directory"
	}
	return errText(err)
}

// execReplace replaces the process with a program: the shell's
// descriptors are put in place first.
func (r *Runner) execReplace(path string, argv, env []string) error {
	files, cleanup, err := r.childFiles(nil)
	if err != nil {
		return err
	}
	defer cleanup()
	// The shell's own descriptors come back if the program does not
	// start (execfail, an interactive shell).
	var restore []func()
	defer func() {
		for i := len(restore) - 1; i >= 0; i-- {
			restore[i]()
		}
	}()
	for n, f := range files {
		if f == nil {
			continue
		}
		restore = append(restore, saveFd(n))
		if int(f.Fd()) != n {
			if err := dup2(int(f.Fd()), n); err != nil {
				return err
			}
		} else {
			clearCloexec(n)
		}
	}
	um := syscall.Umask(int(r.umask))
	defer syscall.Umask(um)
	defer applyLimits(r.limits)()
	return syscall.Exec(path, argv, env)
}

func builtinShift(b *B) int {
	r := b.R
	n := int64(1)
	args := b.Args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) > 0 {
		v, ok := numArg(b, args[0])
		if !ok {
			return 1
		}
		if len(args) > 1 {
			tooManyArgs(b)
		}
		n = v
	}
	if n < 0 {
		b.Errorf("%s: shift count out of range", args[0])
		return 1
	}
	if n > int64(len(r.params)) {
		if r.opts.shopt[optShiftVerbose] || r.opts.set[optPosix] {
			b.Errorf("%d: shift count out of range", n)
		}
		return 1
	}
	r.params = r.params[n:]
	return 0
}
