package eval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// Runner is one shell's state: variables, functions, options, traps, the
// directory and the open files. A subshell is a [Runner] of its own, forked
// from its parent's.
type Runner struct {
	sess *session

	// outCheck notes a failed write to stdout while a builtin that only
	// prints runs (see [Runner.runBuiltin]).
	outCheck *writeCheck

	vars    *vars
	funcs   *funcs
	opts    options
	traps   *traps
	dir     string
	fds     *fdTable
	aliases *aliases
	hash    *hashTable
	// umask is the file mode mask of this shell's programs and files.
	umask os.FileMode
	// limits are the resource limits ulimit set in this shell, applied to
	// each program it starts.
	limits []rlimit

	arg0   string
	params []string
	// frames are the function calls and sourced files running, innermost
	// last: FUNCNAME, BASH_SOURCE, BASH_LINENO, caller.
	frames []frame
	// argBase is the bottom of BASH_ARGV, the positional parameters when
	// bash first needed it (argInit): extdebug turned on, or the
	// variable read outside any function.
	argBase []string
	argInit bool
	// errexitFrames are the frames set -e ended the shell in: bash's
	// EXIT trap still sees them (not the locals, which are gone).
	errexitFrames []frame
	errexitExit   bool

	status     int   // $?
	pipestatus []int // PIPESTATUS
	lastArg    string
	lastBg     int // $!, 0 when none
	flow       flow
	flowN      int
	loops      int // loops running in the current function
	// noErrexit counts the contexts that ignore set -e running: a
	// condition, a list's left side, a negated pipeline.
	noErrexit int
	// subshell is BASH_SUBSHELL; pid is BASHPID.
	subshell int
	pid      int
	random   randomState
	dirstack []string
	getopts  getoptsState
	// line is the line of the command running, LINENO.
	line int
	// lineBase is added to the lines of the code running: eval's text
	// starts on the line of the eval command, as bash counts it, and so
	// does a function it defines.
	lineBase int
	// src is the text the running code was parsed from, for the pieces
	// whose text the tree does not keep (associative array keys).
	src string
	// cmdText is BASH_COMMAND: the command running or about to, made
	// when read (see [Runner.command]).
	cmdText cmdText
	// inTrap is set while a trap runs: traps do not nest, as in bash.
	inTrap map[string]bool
	// substDepth counts the command and process substitutions the
	// runner is in, for set -x's PS4.
	substDepth int
	// pipeLast marks the subshell of a pipeline's last command: its
	// program's process ID is the pipeline's $!.
	pipeLast bool
	// inPipe marks a pipeline's subshells; bgJob a background
	// statement's.
	inPipe, bgJob bool
	// pipeCmd is the simple command a pipeline's subshell was made for,
	// which bash runs as that subshell's own process: its DEBUG trap ran
	// in the shell before, and its failure runs no ERR trap in the
	// subshell (the shell runs it for the whole pipeline).
	pipeCmd *syntax.CallExpr
	// signaledMsg is the report of a program a signal killed, printed
	// once the command's redirections are undone.
	signaledMsg string
	// trapDepth counts the traps running: BASH_COMMAND stays the command
	// a trap interrupted while it runs.
	trapDepth int
	// funcDepth counts function calls, for FUNCNEST.
	funcDepth int
	// failing is set while a cmdError unwinds, for commandGuarded.
	failing bool
	// discarding is set by an [abort] that abandons the outermost
	// input's line: an eval's or a sourced file's lines pass it on.
	discarding bool

	ifsCache *ifsChars
	envCache []string
	envGen   int

	// ctx is the context of what the runner is running: a subshell gets
	// its own.
	ctx context.Context
	// job is the job the runner's programs belong to: its pipeline's or
	// background statement's; ownJob is set for a foreground job of a
	// simple command, made when its program starts.
	job    *job
	ownJob bool
	// execOutside is ExecOutside's; noTerminal is set for a Fork, whose
	// programs never take the terminal.
	execOutside, noTerminal bool
	// inSubst is set in command substitutions, which run no job.
	inSubst bool
	// procSubsts are the descriptors of <(…) and >(…) of the command
	// running, closed when it ends.
	procSubsts []int
	// ignoreInt marks a background statement without job control.
	ignoreInt bool
	// substStatus is the status of the last command substitution of the
	// command being expanded, -1 when there was none.
	substStatus int
	inNotFound  bool
	// inDebugFunc counts the functions running without functrace, where
	// the DEBUG trap does not run.
	inDebugFunc int
	// lineLock holds LINENO while a trap runs: its code sees the line of
	// the command that set it off, as in bash.
	lineLock int
	// exec runs programs, open opens redirections' files: the defaults
	// wrapped in the middlewares given. A subshell copies them, and may
	// wrap its own (the assistant's guarded runs).
	exec ExecHandler
	open OpenHandler
	// dry marks a copy that runs nothing (see [Runner.Dry]).
	dry bool
	// lenient is what the placeholders of the running code stand for
	// (see lenient.go), as src is its text.
	lenient *lenient
}

// withCode makes src (with its placeholders l) the running code's text,
// for the positions of its tree; restore puts the old back.
func (r *Runner) withCode(src string, l *lenient) (restore func()) {
	savedSrc, savedL := r.src, r.lenient
	r.src, r.lenient = src, l
	return func() { r.src, r.lenient = savedSrc, savedL }
}

// WrapExec puts a middleware around how this shell (and the subshells it
// makes from now on) run programs.
func (r *Runner) WrapExec(mw func(next ExecHandler) ExecHandler) { r.exec = mw(r.exec) }

// Aside runs f on r with ctx, which stops what f runs when it ends, and
// with the programs r starts kept off the terminal: a completion's, which
// run while the line editor has it.
func (r *Runner) Aside(ctx context.Context, f func()) {
	was, savedCtx := r.noTerminal, r.ctx
	r.noTerminal, r.ctx = true, ctx
	defer func() { r.noTerminal, r.ctx = was, savedCtx }()
	f()
}

// ExecOutside says that the exec handler starts programs itself, outside
// the shell's job table (the assistant's guard): $! of a background
// statement is then a stand-in the shell knows, not a process ID it will
// never be told.
func (r *Runner) ExecOutside() { r.execOutside = true }

// WrapOpen puts a middleware around the files this shell's redirections
// open.
func (r *Runner) WrapOpen(mw func(next OpenHandler) OpenHandler) { r.open = mw(r.open) }

// Fork makes a subshell of r, as ( … ) does: a copy that shares nothing
// it could change. Its programs belong to no job.
func (r *Runner) Fork() *Runner {
	sub := r.fork()
	sub.job, sub.ownJob = nil, false
	// Its programs run in the background of the terminal: the session's
	// prompt comes back when it ends, whatever they do.
	sub.noTerminal = true
	return sub
}

// Interrupt tells the shell a Ctrl-C came: the command line stops at its
// next command (or its INT trap runs), as bash's does.
func (r *Runner) Interrupt() {
	r.sess.interrupted.Store(true)
	// A wait builtin waiting for jobs wakes to it.
	t := r.sess.jobs
	t.mu.Lock()
	t.gen++
	t.cond.Broadcast()
	t.mu.Unlock()
}

// checkInterrupt acts on a Ctrl-C: a subshell ends; the shell runs its INT
// trap, or abandons the command line (a non-interactive shell exits).
func (r *Runner) checkInterrupt() {
	if !r.sess.interrupted.Load() {
		return
	}
	if r.subshell > 0 {
		panic(abort{status: 130, exit: true})
	}
	r.sess.interrupted.Store(false)
	if cmd, ok := r.traps.get("INT"); ok {
		if cmd != "" {
			r.runTrap("SIGINT", cmd)
		}
		return
	}
	if r.sess.interactive {
		r.sess.lineAborted.Store(true)
	}
	panic(abort{status: 130, exit: true})
}

// Close releases what a forked runner holds (its open files), once it is
// done.
func (r *Runner) Close() { r.fds.release() }

// session is what a shell and all its subshells share: how it was
// started, the handlers and builtins given, the jobs, the process.
type session struct {
	interactive bool
	// callSeq numbers function calls; returnTrapCalls are the calls
	// running when the RETURN trap was set, which run it as they return
	// even without functrace, as bash does.
	callSeq         int
	returnTrapCalls map[int]bool
	// lastProcSubst is closed when the last process substitution ends,
	// for wait.
	lastProcSubst chan struct{}
	procSubstMu   sync.Mutex
	// coproc is the last coprocess started, for bash's warning when
	// another starts while it runs.
	coproc *coprocInfo
	// dashExtra are $-'s letters for how the shell reads: c or s.
	dashExtra string
	pid       int // $$
	ppid      int
	start     time.Time // SECONDS counts from it
	builtins  map[string]*Builtin
	onAssign  func(r *Runner, name string)
	// procUmask is the process's own umask, the one programs get when
	// a shell leaves it alone.
	procUmask os.FileMode
	// procLimits is set once ulimit set a limit on the process itself.
	procLimits bool
	// keepProcLimits keeps ulimit off the process (see [ProcessLimits]).
	keepProcLimits bool
	// execMu is held while a program starts with a umask or limits of
	// its shell's: both belong to the whole process.
	execMu sync.Mutex
	jobs   *jobTable
	stderr io.Writer // where the shell's own messages go before fds exist
	// name is what error messages start with: bash's is "bash", with
	// the script's name when running one.
	name string
	// sourceName is BASH_SOURCE's outermost entry: the script, or "" for
	// a -c string or the prompt.
	version    string
	scriptName string
	login      bool
	// Hooks of the interactive shell.
	exitHook     func(r *Runner) bool
	beforeExec   func()
	signalHook   func(sig syscall.Signal, cmd string, reset bool) bool
	onOption     func(r *Runner, name string, on bool) error
	onChdir      func(r *Runner, dir string)
	promptExpand func(r *Runner, s string) string

	// interrupted is set by a Ctrl-C the shell got, or a foreground
	// program died of, until a runner acts on it (see
	// [Runner.checkInterrupt]).
	interrupted atomic.Bool
	// lineAborted is set when a Ctrl-C abandons an interactive shell's
	// command line: what is left of it — the rest of a sourced file, of
	// an eval string, of the line — does not run, as bash goes back to
	// its prompt. RunString at the top level clears it.
	lineAborted atomic.Bool

	cache   parseCache
	sigOnce sync.Once
	sigs    *sigState
	// bgWG counts the goroutines of background statements and process
	// substitutions.
	bgWG sync.WaitGroup
	// bgCode counts the background jobs that run the shell's own code.
	bgCode sync.WaitGroup
}

type flow uint8

const (
	flowNone flow = iota
	flowBreak
	flowContinue
	flowReturn
	flowExit
)

// frame is one function call or sourced file.
type frame struct {
	name     string // FUNCNAME: the function, "source", or "main"
	source   string // BASH_SOURCE: the file the code was read from
	callLine int    // BASH_LINENO: the line it was called from
	params   []string
	fn       *Func
	// call numbers the call, for a RETURN trap set during it.
	call int
	// savedSet are the set options local - kept, put back on return.
	savedSet *[numSetOpts]bool
	// args are what the call pushed on BASH_ARGV and BASH_ARGC: with
	// extdebug on when it began, a function's arguments, a sourced
	// file's (its name when it has none).
	args   []string
	pushed bool
}

// Option configures a [Runner] made by [New].
type Option func(*Runner)

// Stdio sets the shell's standard streams. *os.File values are handed to
// programs as they are.
func Stdio(in io.Reader, out, err io.Writer) Option {
	return func(r *Runner) {
		// A writer that is no file is written by goroutines at once
		// (a pipeline's, the copiers of programs' output, 2>&1): one
		// lock for it, the same when out and err are one writer.
		lock := func(w io.Writer) io.Writer {
			if _, ok := w.(*os.File); ok || w == nil {
				return w
			}
			if _, ok := w.(*lockedWriter); ok {
				return w
			}
			return &lockedWriter{w: w}
		}
		lo := lock(out)
		le := lo
		if err != out {
			le = lock(err)
		}
		// So is a reader that is no file: each program that inherits it
		// gets a pipe fed from it by a goroutine of its own.
		if _, ok := in.(*os.File); !ok && in != nil {
			in = &lockedReader{r: in}
		}
		r.fds.set(0, newFile(in, nil, "stdin"))
		r.fds.set(1, newFile(nil, lo, "stdout"))
		r.fds.set(2, newFile(nil, le, "stderr"))
		r.sess.stderr = le
	}
}

// Params sets $0 and the positional parameters.
func Params(arg0 string, args ...string) Option {
	return func(r *Runner) { r.arg0, r.params = arg0, args }
}

// Env sets the environment the shell starts with ("NAME=value" entries);
// the default is the process's.
func Env(env []string) Option {
	return func(r *Runner) { r.importEnv(env) }
}

// Dir sets the directory the shell starts in; the default is the
// process's.
func Dir(dir string) Option { return func(r *Runner) { r.dir = dir } }

// Interactive makes the shell interactive: aliases expand, errors end the
// command line rather than the shell, $- has i.
func Interactive(on bool) Option {
	return func(r *Runner) {
		r.sess.interactive = on
		r.opts = defaultOptions(on)
	}
}

// CommandString marks a shell that runs a -c string: $- has c.
func CommandString() Option { return func(r *Runner) { r.sess.dashExtra = "c" } }

// ProcessLimits says whether ulimit in the main shell limits the process
// too, as bash's limits its own (the default); off, its limits go only to
// the programs the shell starts, as a subshell's do. A fuzzer or a test
// that shares its process turns it off.
func ProcessLimits(on bool) Option { return func(r *Runner) { r.sess.keepProcLimits = !on } }

// ShellName sets the name error messages start with ("bash: line 1: …").
func ShellName(name string) Option { return func(r *Runner) { r.sess.name = name } }

// Builtins adds builtins, replacing those of the same name.
func Builtins(bs ...*Builtin) Option {
	return func(r *Runner) {
		for _, b := range bs {
			r.sess.builtins[b.Name] = b
		}
	}
}

// WrapExec puts a middleware around how programs run: it sees each
// program's arguments before it starts, and may refuse it or run it
// otherwise.
func WrapExec(mw func(next ExecHandler) ExecHandler) Option {
	return func(r *Runner) { r.WrapExec(mw) }
}

// WrapOpen puts a middleware around the files redirections open.
func WrapOpen(mw func(next OpenHandler) OpenHandler) Option {
	return func(r *Runner) { r.WrapOpen(mw) }
}

// OnAssign is called after each assignment to a variable, with its name:
// the interactive shell follows PS1, HISTSIZE and the like.
func OnAssign(f func(r *Runner, name string)) Option {
	return func(r *Runner) { r.sess.onAssign = f }
}

// Version sets BASH_VERSION's qsh part.
func Version(v string) Option { return func(r *Runner) { r.sess.version = v } }

// New makes a shell.
func New(opts ...Option) (*Runner, error) {
	pid := os.Getpid()
	um := currentUmask()
	r := &Runner{
		sess: &session{
			pid:       pid,
			ppid:      os.Getppid(),
			start:     time.Now(),
			builtins:  map[string]*Builtin{},
			procUmask: um,
			name:      "qsh",
			stderr:    os.Stderr,
		},
		vars:    newVars(),
		funcs:   newFuncs(),
		opts:    defaultOptions(false),
		traps:   newTraps(),
		fds:     newFdTable(),
		aliases: newAliases(),
		hash:    newHashTable(),
		umask:   um,
		arg0:    "qsh",
		pid:     pid,
		ctx:     context.Background(),
	}
	r.exec = r.sess.defaultExec
	r.open = defaultOpen
	r.sess.jobs = newJobTable()
	// (The job table holds its lock when it calls this, and wakes its
	// waiters itself.)
	r.sess.jobs.interrupt = func() { r.sess.interrupted.Store(true) }
	r.sess.jobs.intr = &r.sess.interrupted
	for _, b := range builtinTable() {
		r.sess.builtins[b.Name] = b
	}
	r.random.seed(uint32(time.Now().UnixNano()) ^ uint32(pid))
	r.fds.set(0, newFile(os.Stdin, nil, "stdin"))
	r.fds.set(1, newFile(nil, os.Stdout, "stdout"))
	r.fds.set(2, newFile(nil, os.Stderr, "stderr"))
	envSet := false
	for _, o := range opts {
		o(r)
		if r.vars.gen > 0 {
			envSet = true
		}
	}
	if !envSet {
		r.importEnv(os.Environ())
	}
	if r.dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		r.dir = wd
	}
	r.initVars()
	return r, nil
}

// Dir is the shell's current directory.
func (r *Runner) Dir() string { return r.dir }

// Status is $?: the status of the last command.
func (r *Runner) Status() int { return r.status }

// Exited reports whether the shell was asked to exit (exit, or an error
// that ends a non-interactive shell), and with which status.
func (r *Runner) Exited() (bool, int) { return r.flow == flowExit, r.status }

// Run runs the statements of a parsed program. It returns when they ran,
// or when the shell exits; see [Runner.Exited].
func (r *Runner) Run(ctx context.Context, p *Program) int {
	savedCtx := r.ctx
	r.ctx = ctx
	defer func() { r.ctx = savedCtx }()
	defer r.withCode(p.src, p.lenient)()
	r.guard(func() {
		for _, st := range p.File.Stmts {
			r.stmt(st)
			if r.flow != flowNone || ctx.Err() != nil {
				break
			}
		}
	})
	if r.flow == flowReturn && len(r.frames) == 0 {
		r.flow = flowNone // return outside a function: bash stops the file
	}
	return r.status
}

// RunString parses and runs src one command at a time, as bash reads a
// script or a -c string: a syntax error stops it there, once the commands
// before it ran. name is what messages call the code.
func (r *Runner) RunString(ctx context.Context, src, name string) int {
	savedCtx := r.ctx
	r.ctx = ctx
	defer func() { r.ctx = savedCtx }()
	where := ""
	if r.sess.dashExtra == "c" && r.sess.scriptName == "" {
		where = "-c"
	}
	if len(r.frames) == 0 && r.subshell == 0 {
		// A Ctrl-C of an earlier line, which ended before it acted on
		// it, is no concern of this one.
		r.sess.lineAborted.Store(false)
		r.sess.interrupted.Store(false)
	}
	r.runIncremental(src, true, where)
	if r.flow == flowReturn && len(r.frames) == 0 {
		r.flow = flowNone
	}
	return r.status
}

// runIncremental parses and runs src a statement at a time. A syntax error
// ends it with status 2 (and a non-interactive shell, when top is set: a
// sourced file's error ends only the file). Placeholders stand in for
// what bash judges only when it runs it (see lenient.go): the text is
// fixed and read again from where it stopped. where names the input in
// syntax errors, as bash does: "-c", "eval", or "" for a file.
func (r *Runner) runIncremental(src string, top bool, where string) {
	src = EscapeRawBytes(src)
	var l *lenient
	defer r.withCode(src, nil)()
	done := uint(0)     // the end of the last statement read
	skipLine := uint(0) // an error abandons the rest of its line
	// bash reads a whole line (and the lines a compound command takes)
	// before it runs any of it: the statements read wait in pending until
	// one starts on a later line. Aliases are those of when the line was
	// read: defined on a line, they apply from the next.
	var pending []*syntax.Stmt
	pendingHdoc := false // whether a statement in pending may have a here-document
	var refused error
	stop := false
	// set -v echoes the lines as they are read: those of a batch before
	// it runs, from where the last echo (or read) ended.
	echoed := 0
	echo := func(end int) {
		end = min(end, len(src))
		if end <= echoed {
			return
		}
		if r.opts.set[optVerbose] {
			text := src[echoed:end]
			if !strings.HasSuffix(text, "\n") {
				text += "\n"
			}
			io.WriteString(r.stderr(), UnescapeRawBytes(text))
		}
		echoed = end
	}
	flush := func(before uint) {
		if len(pending) > 0 && before == 0 {
			echo(batchEnd(src, pending, pendingHdoc))
		}
		view := aliasView{a: r.aliases.fork(), expand: r.opts.shopt[optExpandAliases]}
		for len(pending) > 0 && !stop {
			st := pending[0]
			if before > 0 && st.End().Line() >= before {
				break
			}
			pending = pending[1:]
			if st.Pos().Line() == skipLine {
				continue
			}
			if r.guard(func() { r.topStmt(st, view) }) {
				skipLine = st.End().Line()
				if r.discarding {
					if !top {
						panic(abort{status: r.status, discard: true})
					}
					r.discarding = false
				}
			}
			stop = r.flow != flowNone || r.ctx.Err() != nil || r.sess.lineAborted.Load()
		}
		if len(pending) == 0 {
			pendingHdoc = false
		}
	}
	for {
		r.src, r.lenient = src, l
		// The statements are read to the end, never breaking off: mvdan/sh's
		// iterator yields again after its consumer stopped (a parse error
		// then its final error) and panics. Once stopped or refused, the
		// statements that follow are read and dropped.
		var err error
		for st, e := range NewParser().StmtsSeq(strings.NewReader(src)) {
			if e != nil {
				if err == nil {
					err = e
				}
				continue
			}
			if err != nil || stop || refused != nil {
				continue
			}
			if st.End().Offset() <= done && done > 0 {
				continue // read before the text was fixed
			}
			done = st.End().Offset()
			hdoc, bad := readStmt(st)
			if n := len(pending); n > 0 && st.Pos().Line() > pending[n-1].End().Line() {
				flush(0)
			}
			if bad != nil {
				refused = bad
				continue
			}
			pending = append(pending, st)
			pendingHdoc = pendingHdoc || hdoc
		}
		if refused != nil {
			err, refused = refused, nil
		}
		if err != nil && !stop && r.flow == flowNone && r.ctx.Err() == nil {
			if fixed, ok := fixParseError(src, err, &l); ok && fixed != src {
				src = fixed
				r.heredocWarnings(l)
				continue
			}
			// The lines before the error run; the error's own does not.
			line := uint(1)
			var pe syntax.ParseError
			var be badSyntax
			if pos, ok := errPos(err); ok {
				line = pos.Line()
			} else if errors.As(err, &pe) {
				line = pe.Pos.Line()
			} else if errors.As(err, &be) {
				line = be.pos.Line()
			}
			flush(line)
			if stop {
				return
			}
			r.status = r.reportSyntax(src, err, where)
			if off, ok := errPos(err); ok && !r.opts.set[optPosix] {
				if end, ok := inCompoundAssign(src, int(done), int(off.Offset())); ok {
					// bash discards what it read of a compound
					// assignment's line with its error, status 1,
					// and reads on (a POSIX shell exits).
					r.status = 1
					pending, pendingHdoc = nil, false
					src = blankOut(src, int(done), end)
					continue
				}
			}
			if top && !r.sess.interactive {
				r.flow = flowExit
			}
			return
		}
		if !stop {
			flush(0)
			echo(len(src))
		}
		return
	}
}

// batchEnd is where the lines of a batch of statements end: the end of
// the line the last one ends on, past here-document bodies. Only with
// hdoc are they looked for: the walks cost more than running most lines.
func batchEnd(src string, stmts []*syntax.Stmt, hdoc bool) int {
	end := 0
	for _, st := range stmts {
		end = max(end, int(st.End().Offset()))
		if !hdoc {
			continue
		}
		walk(st, func(n syntax.Node) bool {
			if rd, ok := n.(*syntax.Redirect); ok && rd.Hdoc != nil {
				end = max(end, int(rd.Hdoc.End().Offset()))
			}
			return true
		})
	}
	if end >= len(src) {
		return len(src)
	}
	if i := strings.IndexByte(src[end:], '\n'); i >= 0 {
		end += i + 1
		if !hdoc {
			return min(end, len(src))
		}
		// A here-document's delimiter line follows its body.
		for _, st := range stmts {
			walk(st, func(n syntax.Node) bool {
				if rd, ok := n.(*syntax.Redirect); ok && rd.Hdoc != nil && int(rd.Hdoc.End().Offset()) >= end-1 {
					if j := strings.IndexByte(src[end:], '\n'); j >= 0 {
						end += j + 1
					} else {
						end = len(src)
					}
				}
				return true
			})
		}
		return min(end, len(src))
	}
	return len(src)
}

// aliasView is the aliases a line was read with.
type aliasView struct {
	a      *aliases
	expand bool
}

// topStmt runs a statement read at the top level, its aliases expanded
// first (they are read as the line is, which the parser cannot do).
func (r *Runner) topStmt(st *syntax.Stmt, view aliasView) {
	if view.expand && view.a.any() {
		saved := r.aliases
		r.aliases = view.a
		var text, expanded string
		if r.usesAlias(st) {
			text = r.srcOf(st)
			expanded = r.expandAliases(text)
		}
		r.aliases = saved
		if expanded != text {
			p, err := Parse(expanded, "")
			if err != nil {
				r.status = r.reportSyntax(expanded, err, "")
				return
			}
			restore := r.withCode(p.src, p.lenient)
			r.stmts(p.File.Stmts)
			restore()
			return
		}
	}
	r.stmt(st)
}

// usesAlias reports whether a command of st is named by an alias.
func (r *Runner) usesAlias(st *syntax.Stmt) bool {
	found := false
	walk(st, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			if _, ok := r.aliases.m[UnescapeRawBytes(c.Args[0].Lit())]; ok {
				found = true
			}
		}
		// A command is never inside a word without a substitution.
		return !found && !holdsNoStmt(n)
	})
	return found
}

// heredocWarnings prints bash's warning for each here-document the input
// ended inside, once.
func (r *Runner) heredocWarnings(l *lenient) {
	if l == nil {
		return
	}
	for _, h := range l.heredocs {
		saved := r.line
		r.line = h.eofLine
		r.errorf("warning: here-document at line %d delimited by end-of-file (wanted `%s')", h.line, h.delim)
		r.line = saved
	}
	l.heredocs = nil
}

// abort is the panic an error that ends the command line makes: expansion
// errors (the shell goes on with the next line), and with exit set, set -u
// and ${x?} (which end a non-interactive shell).
type abort struct {
	status int
	exit   bool
	// discard abandons the line of the outermost input too: bash's
	// jump to the top level, through an eval's or a sourced file's
	// lines.
	discard bool
}

// guard runs f, ending what an [abort] or an internal error stops: the
// shell goes on with its next line, or exits (a subshell, or a
// non-interactive shell for the errors that end one), as bash does.
// aborted reports that the rest of the line is to be skipped.
func (r *Runner) guard(f func()) (aborted bool) {
	defer func() {
		e := recover()
		if e == nil {
			return
		}
		aborted = true
		switch e := e.(type) {
		case abort:
			r.status = e.status
			r.discarding = e.discard
			if e.exit && e.status == 127 && (r.subshell > 0 || r.opts.set[optErrexit]) {
				// set -u and ${x?} end a subshell with status 1, the
				// shell itself with 127 — or 1 under set -e, as in bash.
				r.status = 1
			}
			if r.subshell > 0 || e.exit && !r.sess.interactive {
				r.flow = flowExit
			} else {
				r.flow = flowNone
			}
		case exitPanic:
			r.status = e.status
			r.flow = flowExit
		case cmdError:
			// Only the command failed; the shell goes on.
			r.failing = false
			r.status = 1
			r.flow = flowNone
		default:
			if os.Getenv("QSH_DEBUG_PANIC") != "" {
				panic(e)
			}
			r.errorf("internal error: %v", e)
			r.status = 2
			r.flow = flowNone
			if r.subshell > 0 {
				r.flow = flowExit
			}
		}
	}()
	f()
	return false
}

// failCommand ends the command being expanded with a [cmdError].
func (r *Runner) failCommand() {
	r.failing = true
	panic(cmdError{})
}

// cmdError is an expansion error that fails the command it is in, with
// status 1, and no more: bash's "invalid variable name" in an indirection.
type cmdError struct{}

// exitPanic ends a subshell at once (exit inside a deep expansion).
type exitPanic struct{ status int }

// fatal reports an expansion error and abandons the command line.
func (r *Runner) fatal(err error) {
	if err != nil && err.Error() != "" {
		r.errorf("%s", err.Error())
	}
	panic(abort{status: 1})
}

// errorf prints a message of the shell's own, as bash does: with the
// script's name and the line.
func (r *Runner) errorf(format string, args ...any) {
	r.errorfTo(r.stderr(), format, args...)
}

// errorfTo is errorf to w.
func (r *Runner) errorfTo(w io.Writer, format string, args ...any) {
	// An interactive bash names itself alone, in functions and sourced
	// files too; a non-interactive one the script (or the file being
	// sourced) and the line.
	prefix := r.sess.name + ": "
	if !r.sess.interactive {
		if src := r.errSource(); src != "" {
			prefix = src + ": "
		}
		if r.line > 0 {
			prefix += "line " + itoa(int64(r.line)) + ": "
		}
	}
	msg := fmt.Sprintf(format, args...)
	if msg == "" {
		return // an error reported where it happened (a nameref cycle)
	}
	io.WriteString(w, prefix+msg+"\n")
}

// errSource is the file the running code came from, for messages: a
// function's, a sourced file's, or the script's.
func (r *Runner) errSource() string {
	if n := len(r.frames); n > 0 {
		return r.frames[n-1].source
	}
	return r.sess.scriptName
}

func (r *Runner) stderr() io.Writer {
	if f := r.fds.get(2); f != nil && f.w != nil {
		return f.w
	}
	return badFdWriter{}
}

func (r *Runner) stdout() io.Writer {
	var w io.Writer = badFdWriter{}
	if f := r.fds.get(1); f != nil && f.w != nil {
		w = f.w
	}
	if r.outCheck != nil {
		r.outCheck.w = w
		return r.outCheck
	}
	return w
}

func (r *Runner) stdin() io.Reader {
	if f := r.fds.get(0); f != nil && f.r != nil {
		return f.r
	}
	return eofReader{}
}

// badFdWriter is a descriptor that is closed (>&-) or open only for
// reading: writes fail as write(2) does.
type badFdWriter struct{}

func (badFdWriter) Write([]byte) (int, error) { return 0, syscall.EBADF }

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// fork makes a subshell: a copy of r that shares nothing it could change.
func (r *Runner) fork() *Runner {
	c := *r
	c.vars = r.vars.fork()
	c.funcs = r.funcs.fork()
	c.traps = r.traps.fork(r.opts.set[optErrtrace], r.opts.set[optFunctrace])
	c.fds = r.fds.fork()
	c.aliases = r.aliases.fork()
	c.hash = r.hash.fork()
	c.frames = append([]frame(nil), r.frames...)
	c.dirstack = append([]string(nil), r.dirstack...)
	c.limits = append([]rlimit(nil), r.limits...)
	c.subshell++
	c.pid = r.sess.fakePid()
	c.inTrap = nil
	c.flow = flowNone
	c.loops = 0
	c.envCache = nil
	c.random.reseed(uint32(c.pid))
	return &c
}

// stmtPos notes where a statement is, for LINENO and messages.
func (r *Runner) at(pos syntax.Pos) {
	if l := int(pos.Line()); l > 0 && r.lineLock == 0 {
		r.line = l + r.lineBase
	}
}

// compoundAssignStart matches the start of a compound assignment's word:
// name=( name+=( name[key]=(.
var compoundAssignStart = regexp.MustCompile(`(?:^|[\s;&|({])[A-Za-z_][A-Za-z0-9_]*(?:\[[^]\n]*\])?\+?=\(`)

// inCompoundAssign reports whether the syntax error at off lies inside a
// compound assignment's parentheses opened after from (where the
// statements read so far end), and returns the end of the error's line:
// what bash discards before it reads on.
func inCompoundAssign(src string, from, off int) (int, bool) {
	if from < 0 || off > len(src) || from > off {
		return 0, false
	}
	seg := src[from:off]
	locs := compoundAssignStart.FindAllStringIndex(seg, -1)
	if len(locs) == 0 {
		return 0, false
	}
	depth := 0
	for _, c := range seg[locs[len(locs)-1][1]:] {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		}
	}
	if depth < 0 {
		return 0, false
	}
	end := len(src)
	if i := strings.IndexByte(src[off:], '\n'); i >= 0 {
		end = off + i
	}
	return end, true
}

// blankOut replaces src[from:to] with spaces, its newlines kept: the
// text is gone, the offsets and line numbers of what follows stay.
func blankOut(src string, from, to int) string {
	b := []byte(src)
	for i := from; i < to && i < len(b); i++ {
		if b[i] != '\n' {
			b[i] = ' '
		}
	}
	return string(b)
}
