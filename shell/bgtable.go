package shell

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/shell/marks"
)

// $! at run time: package marks rewrites each background statement to
// call the builtins here (see [Shell.pidBuiltin]), and $! to ask for its
// process ID; the table below follows the statements. It stays in the
// shell, not in marks: it is the session's state, which kill, wait, jobs
// and the exec handler read and change.

// bgTable follows the background statements that were marked. Its zero
// value but for the clock (New gives it the real one) is ready, so that
// nothing of it runs at start-up.
type bgTable struct {
	active atomic.Bool // a statement was marked: commands look for tokens

	changes
	n     int
	stmts map[string]*bgStmt
	order []string // tokens, oldest first

	funcs     map[string]bool // the shell's functions, see [bgTable.fileFuncs]
	funcCount int             // how many the shell had then

	// clock is where the waits read the time: the shell's (see
	// [Shell.New]), or a test's.
	clock *clock
}

// bgStmt is a background statement run.
type bgStmt struct {
	want    int // the place of the call whose program $! is; 0 none, marks.PlaceFirst
	procs   []bgProc
	running map[int]bool // the pids of its programs that run now
	calling bool         // the call at want has begun
	noProc  bool         // the call at want runs no program (a builtin, a function) or failed
	ended   bool
	status  int
	began   time.Time // when it was reserved, see [bgTable.settle]
	before  int       // $? before it, which it starts with
	pid     int       // $!, once asked
	standin *standin
	killed  syscall.Signal  // its stand-in was killed: it stops at its next command
	funcs   map[string]bool // the functions defined when it began, shared
	// reported is set once a wait gave its status: wait -n does not
	// give it again.
	reported bool
}

type bgProc struct{ pid, place int }

// standin is a process that stands for a statement that runs no program
// of its own: cat reading a pipe that the shell closes when the statement
// ends, so that it also ends if the shell dies.
type standin struct {
	pid  int
	pipe *os.File // nil once closed
}

// maxBgStmts bounds the table, as bash too forgets old statuses;
// maxBgProcs bounds the programs kept for a statement.
const (
	maxBgStmts = 1024
	maxBgProcs = 64
)

// reserve files a new statement that wants the program at place and
// starts with $? as before.
func (t *bgTable) reserve(want, before int) string {
	t.active.Store(true)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stmts == nil {
		// Before it, nothing waits on changed nor finds a statement.
		t.changed, t.stmts = make(chan struct{}), map[string]*bgStmt{}
	}
	t.n++
	tok := "b" + strconv.Itoa(t.n)
	t.stmts[tok] = &bgStmt{want: want, began: t.clock.now(), before: before}
	t.order = append(t.order, tok)
	if len(t.order) > maxBgStmts {
		// Forget the oldest that ended; those running stay.
		kept := t.order[:0]
		for i, o := range t.order {
			if st := t.stmts[o]; st.ended && i < len(t.order)/2 {
				delete(t.stmts, o)
				continue
			}
			kept = append(kept, o)
		}
		t.order = kept
	}
	return tok
}

// wants reports whether statement tok has yet to reach the call at
// place whose program $! is.
func (t *bgTable) wants(tok string, place int) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.stmts[tok]
	return st != nil && st.want == place && !st.calling
}

// fileFuncs files for statement tok the names of the shell's functions
// (funcs, the main shell's table), for [Shell.isFuncAt]: the statement
// runs in a goroutine of its own while the shell may define functions, and
// Go's maps are not safe for a read that races a write. A statement that
// starts in another (outer) gets that one's names, as funcs may be being
// written meanwhile; this is called where the statement starts, before it
// runs. The names are kept while the shell has as many functions (a
// function replaced by another of another name is missed), and functions
// the statement defines itself are not among them.
func (t *bgTable) fileFuncs(tok, outer string, funcs map[string]*syntax.Stmt) {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.stmts[tok]
	if st == nil {
		return
	}
	if outer != "" {
		if o := t.stmts[outer]; o != nil {
			st.funcs = o.funcs
		}
		return
	}
	if t.funcs == nil || len(funcs) != t.funcCount {
		t.funcs = make(map[string]bool, len(funcs))
		for name := range funcs {
			t.funcs[name] = true
		}
		t.funcCount = len(funcs)
	}
	st.funcs = t.funcs
}

// isFunc reports whether name was a function when statement tok began.
func (t *bgTable) isFunc(tok, name string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.stmts[tok]
	return st != nil && st.funcs[name]
}

// funcNames are the names of the functions defined when statement tok
// began, in order.
func (t *bgTable) funcNames(tok string) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.stmts[tok]
	if st == nil {
		return nil
	}
	return sortedKeys(st.funcs)
}

// before is the $? that statement tok starts with.
func (t *bgTable) before(tok string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if st := t.stmts[tok]; st != nil {
		return st.before
	}
	return 0
}

// calling notes that statement tok calls a command at place; program
// says whether it may run a program.
func (t *bgTable) calling(tok string, place int, program bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.stmts[tok]
	if st == nil || st.want != place || st.calling {
		return
	}
	st.calling, st.noProc = true, !program
	t.broadcast()
}

// started files a program that statement tok started at place.
func (t *bgTable) started(tok string, place, pid int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.stmts[tok]
	if st == nil {
		return
	}
	if st.running == nil {
		st.running = map[int]bool{}
	}
	st.running[pid] = true
	// A loop's programs are not all kept: $! is among the first.
	if len(st.procs) < maxBgProcs || place == st.want && st.program() == 0 {
		st.procs = append(st.procs, bgProc{pid: pid, place: place})
		t.broadcast()
	}
}

// exited notes that program pid of statement tok has ended (or is no
// longer waited for).
func (t *bgTable) exited(tok string, pid int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if st := t.stmts[tok]; st != nil {
		delete(st.running, pid)
	}
}

// failed notes that statement tok could not start the program at place.
func (t *bgTable) failed(tok string, place int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if st := t.stmts[tok]; st != nil && st.want == place {
		st.noProc = true
		t.broadcast()
	}
}

// end notes that statement tok ended with status.
func (t *bgTable) end(tok string, status int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if st := t.stmts[tok]; st != nil {
		t.ended(st, status)
	}
}

// ended notes that st ended with status; its stand-in goes. t.mu is held.
func (t *bgTable) ended(st *bgStmt, status int) {
	if st.ended {
		return
	}
	st.ended, st.status = true, status
	if st.killed != 0 {
		st.status = 128 + int(st.killed)
	}
	if st.standin != nil && st.standin.pipe != nil {
		st.standin.pipe.Close()
		st.standin.pipe = nil
	}
	t.broadcast()
}

// killedBy is the signal that killed statement tok's stand-in, if any.
func (t *bgTable) killedBy(tok string) syscall.Signal {
	t.mu.Lock()
	defer t.mu.Unlock()
	if st := t.stmts[tok]; st != nil && !st.ended {
		return st.killed
	}
	return 0
}

// signalled notes that the kill builtin sent sig to pid: if that is a
// stand-in and sig ends it, its statement stops (also when the stand-in's
// death is not noticed yet).
func (t *bgTable) signalled(pid int, sig syscall.Signal) {
	if !t.active.Load() || !terminates(sig) {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, st := range t.stmts {
		if st.standin != nil && st.standin.pid == pid && !st.ended && st.killed == 0 {
			t.kill(st, sig, true)
		}
	}
}

// signalledJob notes that a job spec's kill sent sig to a job whose
// programs are pids: a background statement that started one of them and
// runs no program where $! is (a loop, a block, a function) stops at its
// next command, as its bash subshell dies; the job's programs had the
// signal already. (A kill on a later line also cancels the job's line,
// see [Shell.killJob]; on the statement's own line that would end the
// foreground commands too.) With cancelled, the job's line was
// cancelled: its statements stop where they are, before their end
// marks, so they are ended here, killed by sig.
func (t *bgTable) signalledJob(pids []int, sig syscall.Signal, cancelled bool) {
	if !t.active.Load() || !terminates(sig) {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, st := range t.stmts {
		if st.ended || st.killed != 0 && !cancelled ||
			!slices.ContainsFunc(st.procs, func(p bgProc) bool { return slices.Contains(pids, p.pid) }) {
			continue
		}
		switch {
		case cancelled:
			st.killed = sig
			t.ended(st, 128+int(sig))
		case st.program() == 0:
			t.kill(st, sig, false)
		}
	}
}

// kill notes that st's stand-in died of sig; t.mu is held. With forward,
// the programs it runs now get the signal too: a simple command or
// pipeline whose program started only after $! settled for a stand-in (it
// waited on a redirection, say), whose bash subshell would have been that
// program; and the program a block or loop waits for, so that it stops
// now, and wait with it, as bash's wait does not wait for the orphans of
// a dead subshell.
func (t *bgTable) kill(st *bgStmt, sig syscall.Signal, forward bool) {
	st.killed = sig
	if forward {
		for pid := range st.running {
			syscall.Kill(pid, sig)
		}
	}
	t.broadcast()
}

// terminates reports whether sig's default action ends a process.
func terminates(sig syscall.Signal) bool {
	switch sig {
	case 0, syscall.SIGCHLD, syscall.SIGCONT, syscall.SIGSTOP, syscall.SIGTSTP,
		syscall.SIGTTIN, syscall.SIGTTOU, syscall.SIGURG, syscall.SIGWINCH:
		return false
	}
	return true
}

// lookupWait is how long $! waits for a statement to reach its program's
// command (expansions and redirections before it, a busy machine) before
// it settles for a stand-in, which passes its signals on to the program
// (see [bgTable.kill]); one that has reached it, but neither started nor
// failed to start a program (`exec` with none, a function named as a
// program), gets lookupTries times as long.
const (
	lookupWait  = 300 * time.Millisecond
	lookupTries = 2
)

// pid is $! for statement tok: see the top of this file. 0 when there is
// none (no statement yet, or no stand-in could start).
func (t *bgTable) pid(ctx context.Context, tok string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.stmts[tok]
	if st == nil {
		return 0
	}
	var timeout <-chan time.Time
	waits := 0
	for st.pid == 0 {
		if pid := st.program(); pid != 0 {
			st.pid = pid
			break
		}
		if st.want == 0 || st.noProc || st.ended || waits > 0 && !st.calling || waits >= lookupTries || ctx.Err() != nil {
			st.pid = t.standIn(st)
			if st.pid == 0 && len(st.procs) > 0 {
				st.pid = st.procs[0].pid
			}
			if st.pid == 0 {
				return 0
			}
			break
		}
		if timeout == nil {
			var stop func()
			timeout, stop = t.clock.after(lookupWait)
			defer stop()
		}
		ch := t.changed
		t.mu.Unlock()
		select {
		case <-ch:
		case <-timeout:
			waits++
			timeout = nil
		case <-ctx.Done():
		}
		t.mu.Lock()
	}
	return st.pid
}

// settle waits until each background statement that began less than
// lookupWait ago has started a program, ended, or is known to run none
// where $! is (a builtin, a command not found), or until that time is up
// or ctx is done. Job specs and `jobs` call it first: bash forks a
// background job before the next command, so that `sleep 9 & kill %1`
// finds it, while here the job is listed only once its first program
// runs (see [jobs.start], which lists it before [bgTable.started] files
// the program). A statement that runs builtins for longer (a loop) is
// waited for only while it is that young.
func (t *bgTable) settle(ctx context.Context) {
	t.settleWhile(ctx, func(now time.Time) (until time.Time) {
		for i := len(t.order) - 1; i >= 0; i-- {
			st := t.stmts[t.order[i]]
			if st == nil {
				continue
			}
			end := st.began.Add(lookupWait)
			if !now.Before(end) {
				break // the older ones are older still
			}
			if st.unsettled() && end.After(until) {
				until = end
			}
		}
		return until
	})
}

// settleProgram is settle for statement tok alone, if it is a simple
// command or a pipeline: one whose program $! is.
func (t *bgTable) settleProgram(ctx context.Context, tok string) {
	t.settleWhile(ctx, func(now time.Time) time.Time {
		st := t.stmts[tok]
		if st == nil || st.want == 0 || !st.unsettled() || !now.Before(st.began.Add(lookupWait)) {
			return time.Time{}
		}
		return st.began.Add(lookupWait)
	})
}

// settleWhile waits while wait, called with t.mu held, says until when,
// rechecking at every change.
func (t *bgTable) settleWhile(ctx context.Context, wait func(now time.Time) time.Time) {
	if !t.active.Load() {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for ctx.Err() == nil {
		now := t.clock.now()
		until := wait(now)
		if until.IsZero() {
			return
		}
		timeout, stop := t.clock.after(until.Sub(now))
		ch := t.changed
		t.mu.Unlock()
		select {
		case <-ch:
		case <-timeout:
		case <-ctx.Done():
		}
		stop()
		t.mu.Lock()
	}
}

// unsettled reports whether st may yet start its first program: it has
// started none, has not ended and was not killed, and has not reached $!'s
// command without a program there.
func (st *bgStmt) unsettled() bool {
	return len(st.procs) == 0 && !st.ended && st.killed == 0 && !st.noProc
}

// program is the pid of st's program that $! is, 0 if not started.
func (st *bgStmt) program() int {
	for _, p := range st.procs {
		if st.want == marks.PlaceFirst || p.place == st.want {
			return p.pid
		}
	}
	return 0
}

// standIn starts st's stand-in and returns its pid, 0 if it cannot; t.mu
// is held.
func (t *bgTable) standIn(st *bgStmt) int {
	path, err := exec.LookPath("cat")
	if err != nil {
		path = "/bin/cat"
	}
	// argv[0] says what it is in ps, as bash's subshell shows as bash.
	cmd := &exec.Cmd{Path: path, Args: []string{"qsh"},
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true}} // no Ctrl-C from the terminal
	var w *os.File
	if !st.ended {
		r, pw, err := os.Pipe()
		if err != nil {
			return 0
		}
		defer r.Close()
		cmd.Stdin, w = r, pw
	}
	if err := cmd.Start(); err != nil {
		if w != nil {
			w.Close()
		}
		return 0
	}
	si := &standin{pid: cmd.Process.Pid, pipe: w}
	st.standin = si
	go func() {
		cmd.Wait()
		ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
		t.mu.Lock()
		defer t.mu.Unlock()
		if si.pipe != nil {
			si.pipe.Close()
			si.pipe = nil
		}
		if ws.Signaled() && !st.ended && st.killed == 0 {
			t.kill(st, ws.Signal(), true)
		}
	}()
	return si.pid
}

// running is the $! of each statement still running, oldest first.
func (t *bgTable) running(ctx context.Context) []int {
	if !t.active.Load() {
		return nil
	}
	t.mu.Lock()
	var toks []string
	for _, tok := range t.order {
		if st := t.stmts[tok]; st != nil && !st.ended && st.killed == 0 {
			toks = append(toks, tok)
		}
	}
	t.mu.Unlock()
	var pids []int
	for _, tok := range toks {
		if pid := t.pid(ctx, tok); pid > 0 {
			pids = append(pids, pid)
		}
	}
	return pids
}

// find is the statement whose $! or program pid is.
func (t *bgTable) find(pid int) *bgStmt {
	if !t.active.Load() {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var found *bgStmt
	for _, st := range t.stmts {
		if st.pid == pid {
			return st
		}
		for _, p := range st.procs {
			if p.pid == pid {
				found = st
			}
		}
	}
	return found
}

// await waits until st has ended, or its stand-in was killed (as bash's
// wait returns when the subshell dies, whatever its programs do), and
// returns its status; ok is false when ctx was cancelled first.
func (t *bgTable) await(ctx context.Context, st *bgStmt) (status int, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.awaitLocked(ctx, nil, st.over) {
		return 130, false
	}
	st.reported = true
	return st.result(), true
}

// awaitNext is `wait -n`: it waits until one of the statements among
// picks that wait -n has not reported yet is over, and returns its status
// and its programs' pids; found is false when none is left, ok when ctx
// was cancelled first.
func (t *bgTable) awaitNext(ctx context.Context, among func(*bgStmt) bool) (status int, pids []int, found, ok bool) {
	if !t.active.Load() {
		return 127, nil, false, true
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var next *bgStmt
	ok = t.awaitLocked(ctx, nil, func() bool {
		next = nil
		running := false
		for _, tok := range t.order {
			st := t.stmts[tok]
			if st == nil || st.reported || !among(st) {
				continue
			}
			if st.over() {
				next = st
				return true
			}
			running = true
		}
		return !running
	})
	if !ok {
		return 130, nil, true, false
	}
	if next == nil {
		return 127, nil, false, true
	}
	next.reported = true
	for _, p := range next.procs {
		pids = append(pids, p.pid)
	}
	return next.result(), pids, true, true
}

// reportAll notes that a wait for every job has reported the statements
// over: wait -n does not report them again, as in bash.
func (t *bgTable) reportAll() {
	if !t.active.Load() {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, st := range t.stmts {
		if st.over() {
			st.reported = true
		}
	}
}

// over reports whether the statement has ended, or its stand-in was
// killed.
func (st *bgStmt) over() bool { return st.ended || st.killed != 0 }

// result is the status of a statement that is over.
func (st *bgStmt) result() int {
	if st.killed != 0 {
		return 128 + int(st.killed)
	}
	return st.status
}

// bgToken is the token of the background statement a command runs in, if
// any.
func (s *Shell) bgToken(hc interp.HandlerContext) string {
	if !s.bgs.active.Load() {
		return ""
	}
	return hc.Env.Get(marks.BgVar).String()
}

// noteCall is for [Shell.call]: in a background statement whose stand-in
// was killed, the command becomes `exit 128+N`; otherwise the table learns
// that the statement reached it. ok is false when args are unchanged.
func (s *Shell) noteCall(ctx context.Context, args []string) ([]string, bool) {
	if !s.bgs.active.Load() || strings.HasPrefix(args[0], marks.Prefix) {
		return nil, false
	}
	hc := interp.HandlerCtx(ctx)
	tok := s.bgToken(hc)
	if tok == "" {
		return nil, false
	}
	if sig := s.bgs.killedBy(tok); sig != 0 {
		return []string{"exit", strconv.Itoa(128 + int(sig))}, true
	}
	if p := marks.Place(hc.Pos); s.bgs.wants(tok, p) {
		s.bgs.calling(tok, p, mayRunProgram(hc, args[0]))
	}
	return nil, false
}

// mayRunProgram reports whether a command named name may run a program:
// not a builtin (bar exec and command), nor a name that PATH lacks (a
// function, or a command not found). It does not look at the functions:
// this runs in the background statement's goroutine, and the shell's
// table of functions is the main shell's, written there as it runs (and
// not the subshell's, which has its own). So a function named as a
// program is taken for one, and $! waits for it as for a program that is
// slow to start (see [lookupTries]).
func mayRunProgram(hc interp.HandlerContext, name string) bool {
	switch {
	case name == "exec" || name == "command":
		return true
	case interp.IsBuiltin(name) || ownBuiltins[name]:
		return false
	}
	_, err := interp.LookPathDir(hc.Dir, hc.Env, name)
	return err == nil
}

// bgStarted and bgFailed file a program of a background statement.
func (s *Shell) bgStarted(hc interp.HandlerContext, pid int) {
	if tok := s.bgToken(hc); tok != "" {
		s.bgs.started(tok, marks.Place(hc.Pos), pid)
	}
}

// bgExited notes that program pid, which [Shell.bgStarted] filed, ended.
func (s *Shell) bgExited(hc interp.HandlerContext, pid int) {
	if tok := s.bgToken(hc); tok != "" {
		s.bgs.exited(tok, pid)
	}
}

func (s *Shell) bgFailed(hc interp.HandlerContext) {
	if tok := s.bgToken(hc); tok != "" {
		s.bgs.failed(tok, marks.Place(hc.Pos))
	}
}

// pidBuiltin runs the marks' builtins.
func (s *Shell) pidBuiltin(ctx context.Context, hc interp.HandlerContext, args []string) error {
	switch args[0] {
	case marks.BgMark:
		want := 0
		if len(args) > 1 {
			want, _ = strconv.Atoi(args[1])
		}
		// In the substitution, $? is still the one before the statement.
		tok := s.bgs.reserve(want, hc.LastExitStatus)
		s.bgs.fileFuncs(tok, s.bgToken(hc), s.runner.Funcs)
		_, err := hc.Stdout.Write([]byte(tok))
		return err
	case marks.BgStartMark:
		// interp runs a subshell's EXIT trap when it exits (exit, set
		// -e), not when it ends otherwise: the block's end says that.
		if err := hc.Builtin(ctx, []string{"trap", marks.BgEndMark + " 2>/dev/null", "EXIT"}); err != nil {
			return err
		}
		return exitStatus(s.bgs.before(s.bgToken(hc)))
	case marks.BgEndMark:
		if tok := s.bgToken(hc); tok != "" {
			s.bgs.end(tok, hc.LastExitStatus)
		}
		return exitStatus(hc.LastExitStatus)
	case marks.PidMark:
		if len(args) > 1 && args[1] != "" {
			if pid := s.bgs.pid(ctx, args[1]); pid > 0 {
				_, err := hc.Stdout.Write([]byte(strconv.Itoa(pid)))
				return err
			}
		}
	}
	return nil
}
