package eval

import (
	"os"
	"os/signal"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// traps are a shell's trap commands by condition: EXIT, ERR, DEBUG,
// RETURN, or a signal's name without SIG. An empty command ignores.
type traps struct {
	m map[string]string
	// shown are the traps trap -p lists in a subshell that set none of
	// its own: its parent's, as bash shows them.
	shown map[string]string
}

func newTraps() *traps { return &traps{m: map[string]string{}} }

// fork gives a subshell its traps: signals that are ignored stay ignored,
// caught ones go back to their defaults; ERR is kept with errtrace, DEBUG
// and RETURN with functrace, as bash's manual says of set -E and -T.
func (t *traps) fork(errtrace, functrace bool) *traps {
	c := &traps{m: map[string]string{}, shown: t.m}
	if t.shown != nil && len(t.m) == 0 {
		c.shown = t.shown
	}
	for k, v := range t.m {
		if v == "" || errtrace && k == "ERR" || functrace && (k == "DEBUG" || k == "RETURN") {
			c.m[k] = v
		}
	}
	return c
}

// forSubst leaves a command substitution's traps as bash does: none but
// the ignored ones (fork did that).
func (t *traps) forSubst() {}

func (t *traps) get(name string) (string, bool) {
	v, ok := t.m[name]
	return v, ok
}

func (t *traps) set(name, cmd string) {
	t.m[name] = cmd
	t.shown = nil
}

func (t *traps) reset(name string) {
	delete(t.m, name)
	t.shown = nil
}

// list is what trap -p shows: the traps in order of their numbers, the
// named conditions first.
func (t *traps) list() map[string]string {
	if len(t.m) == 0 && t.shown != nil {
		return t.shown
	}
	return t.m
}

func trapOrder(names []string) {
	rank := func(n string) int {
		switch n {
		case "EXIT":
			return -4
		case "DEBUG":
			return 1000
		case "ERR":
			return 1001
		case "RETURN":
			return 1002
		}
		if s, ok := signalNum(n); ok {
			return int(s)
		}
		return 2000
	}
	sort.Slice(names, func(i, j int) bool { return rank(names[i]) < rank(names[j]) })
}

// sigState is the signals the process catches for traps, and those that
// came and wait for their trap to run.
type sigState struct {
	mu      sync.Mutex
	ch      chan os.Signal
	caught  map[syscall.Signal]bool
	pending [65]atomic.Bool
	any     atomic.Bool
	// wake is closed and replaced when a signal comes, for wait.
	wake chan struct{}
}

func (s *session) sig() *sigState {
	s.sigOnce.Do(func() {
		s.sigs = &sigState{ch: make(chan os.Signal, 16), caught: map[syscall.Signal]bool{}, wake: make(chan struct{})}
		go s.sigs.loop()
	})
	return s.sigs
}

func (ss *sigState) loop() {
	for sig := range ss.ch {
		n, ok := sig.(syscall.Signal)
		if !ok || int(n) >= len(ss.pending) {
			continue
		}
		ss.pending[n].Store(true)
		ss.any.Store(true)
		ss.mu.Lock()
		close(ss.wake)
		ss.wake = make(chan struct{})
		ss.mu.Unlock()
	}
}

func (ss *sigState) woken() <-chan struct{} {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.wake
}

// setSignalTrap makes the process catch, ignore or default sig for a trap
// of the main shell. Subshells run in the shell's process: their signal
// traps are kept but do not change what the process does.
func (r *Runner) setSignalTrap(sig syscall.Signal, cmd string, reset bool) {
	if r.subshell > 0 || sig == 0 {
		return
	}
	if r.sess.signalHook != nil && r.sess.signalHook(sig, cmd, reset) {
		return
	}
	ss := r.sess.sig()
	ss.mu.Lock()
	defer ss.mu.Unlock()
	switch {
	case reset:
		// Notify first: Go's Reset does not undo an Ignore.
		signal.Notify(ss.ch, sig)
		signal.Reset(sig)
		delete(ss.caught, sig)
	case cmd == "":
		signal.Ignore(sig)
		delete(ss.caught, sig)
	default:
		signal.Notify(ss.ch, sig)
		ss.caught[sig] = true
	}
}

// runTraps runs the traps of signals that came since.
func (r *Runner) runTraps() {
	ss := r.sess.sigs
	if ss == nil || !ss.any.Load() || r.subshell > 0 {
		return
	}
	ss.any.Store(false)
	for n := range ss.pending {
		// A signal's trap does not run inside itself: it waits until it
		// is done; another signal's trap runs inside it, as in bash.
		name := signalName(syscall.Signal(n))
		if r.inTrap["SIG"+name] {
			if ss.pending[n].Load() {
				ss.any.Store(true)
			}
			continue
		}
		if !ss.pending[n].Swap(false) {
			continue
		}
		cmd, ok := r.traps.get(name)
		if !ok || cmd == "" {
			continue
		}
		r.runTrap("SIG"+name, cmd)
	}
}

// runTrap runs a trap's command; $? is kept across it.
func (r *Runner) runTrap(kind, cmd string) {
	if r.inTrap[kind] {
		return
	}
	if r.inTrap == nil {
		r.inTrap = map[string]bool{}
	}
	r.inTrap[kind] = true
	r.trapDepth++
	defer func() { r.trapDepth-- }()
	status := r.status
	savedLine := r.line
	savedFlow := r.flow
	r.flow = flowNone
	p, err := Parse(cmd, "trap")
	if err == nil {
		// An error that abandons the line (or a bug of the shell's)
		// leaves the trap: what it changed is put back all the same.
		restore := r.withCode(p.src, p.lenient)
		r.lineLock++
		defer func() {
			if restore != nil {
				r.lineLock--
				restore()
				delete(r.inTrap, kind)
				r.line = savedLine
			}
		}()
		r.stmts(p.File.Stmts)
		r.lineLock--
		restore()
		restore = nil
	} else {
		r.errorf("%s", parseErrMsg(err))
	}
	delete(r.inTrap, kind)
	r.line = savedLine
	if r.flow == flowNone {
		r.flow = savedFlow
	}
	if r.flow != flowExit && r.flow != flowReturn {
		r.status = status
	}
}

// errTrap runs the ERR trap, for a command that failed.
func (r *Runner) errTrap() {
	if cmd, ok := r.traps.get("ERR"); ok && cmd != "" {
		r.runTrap("ERR", cmd)
	}
}

// hideErrTrap takes the ERR trap away for a function's body, which
// without errtrace does not inherit it; the returned func puts it back
// unless the body set one of its own, which stays, as in bash.
func (r *Runner) hideErrTrap() func() {
	if r.opts.set[optErrtrace] {
		return func() {}
	}
	cmd, ok := r.traps.get("ERR")
	if !ok {
		return func() {}
	}
	r.traps.reset("ERR")
	return func() {
		if _, set := r.traps.get("ERR"); !set {
			r.traps.set("ERR", cmd)
		}
	}
}

// debugTrap runs the DEBUG trap before a command, whose text is in
// r.cmdText for BASH_COMMAND.
func (r *Runner) debugTrap() {
	cmd, ok := r.traps.get("DEBUG")
	if !ok || cmd == "" || r.inDebugFunc > 0 || r.inTrap["DEBUG"] {
		return
	}
	r.runTrap("DEBUG", cmd)
}

func (r *Runner) debugTrapText(text string) {
	if _, ok := r.traps.get("DEBUG"); !ok {
		return
	}
	r.setCmdText(text)
	r.debugTrap()
}

// returnTrap runs the RETURN trap after a function or sourced file.
func (r *Runner) returnTrap(fn *Func) {
	cmd, ok := r.traps.get("RETURN")
	if !ok || cmd == "" {
		return
	}
	if fn != nil && !fn.trace && !r.opts.set[optFunctrace] &&
		(len(r.frames) == 0 || !r.sess.returnTrapCalls[r.frames[len(r.frames)-1].call]) {
		return
	}
	r.runTrap("RETURN", cmd)
}

// runExitTrap runs the EXIT trap, once, as the shell or a subshell ends.
func (r *Runner) runExitTrap() {
	fr, errexit := r.errexitFrames, r.errexitExit
	r.errexitFrames, r.errexitExit = nil, false
	cmd, ok := r.traps.get("EXIT")
	if !ok || cmd == "" || r.opts.set[optNoexec] {
		return
	}
	r.traps.reset("EXIT")
	if errexit && fr != nil {
		saved := r.frames
		r.frames = fr
		defer func() { r.frames = saved }()
	}
	status := r.status
	r.flow = flowNone
	r.guard(func() { r.runTrap("EXIT", cmd) })
	if r.flow != flowExit {
		r.status = status
	}
}

// RunExitTrap runs the EXIT trap as the shell exits.
func (r *Runner) RunExitTrap() { r.runExitTrap() }

// signalledSelf follows a signal the shell sent its own process (kill $$):
// as in bash, a trapped one has come before the next command runs, and
// an untrapped one whose default ends a process ends a non-interactive
// shell, after its EXIT trap. wake is the signal state's wake channel
// taken before the signal was sent.
func (r *Runner) signalledSelf(sig syscall.Signal, wake <-chan struct{}) {
	name := signalName(sig)
	if cmd, ok := r.traps.get(name); ok && r.subshell == 0 {
		if cmd == "" {
			return // ignored
		}
		ss := r.sess.sigs
		if ss == nil || wake == nil {
			return
		}
		timeout := time.NewTimer(2 * time.Second)
		defer timeout.Stop()
		for !ss.pending[sig].Load() {
			select {
			case <-wake:
				wake = ss.woken()
			case <-timeout.C:
				return
			}
		}
		return
	}
	if !r.diesBy(sig) {
		return
	}
	r.runExitTrap()
	dieBySignal(sig)
}

// diesBy reports whether a signal the shell sends itself ends it as bash
// ends: a non-interactive shell, the signal neither trapped nor ignored,
// its default action fatal.
func (r *Runner) diesBy(sig syscall.Signal) bool {
	if _, ok := r.traps.get(signalName(sig)); ok || r.subshell > 0 {
		// A subshell shares the shell's process: what the process does
		// with the signal is the shell's.
		return false
	}
	// bash ignores SIGQUIT, interactive or not.
	return !r.sess.interactive && sig != syscall.SIGQUIT && fatalByDefault(sig)
}

// fatalByDefault reports whether sig's default action ends a process.
func fatalByDefault(sig syscall.Signal) bool {
	switch sig {
	case 0, syscall.SIGCHLD, syscall.SIGCONT, syscall.SIGSTOP, syscall.SIGTSTP, syscall.SIGTTIN,
		syscall.SIGTTOU, syscall.SIGURG, syscall.SIGWINCH:
		return false
	}
	return true
}

// cmdText is BASH_COMMAND, kept as the parts it is made of until it is
// read (by the variable, a job's name, a signal's message): most
// commands' never is, and making it for each was a twentieth of sourcing
// bash-completion, and an allocation for each (( )) of a loop.
type cmdText struct {
	text string
	made bool
	// Else: the simple command call of st, or the text of node between
	// pre and post, in src.
	src       string
	st        *syntax.Stmt
	call      *syntax.CallExpr
	node      syntax.Node
	pre, post string
}

// setCmdText sets BASH_COMMAND, but not while a trap runs.
func (r *Runner) setCmdText(s string) {
	if r.trapDepth == 0 {
		r.cmdText = cmdText{text: s, made: true}
	}
}

// setCmdCall sets BASH_COMMAND to the simple command c of st, as
// setCmdText(r.commandText(st, c)) would.
func (r *Runner) setCmdCall(st *syntax.Stmt, c *syntax.CallExpr) {
	if r.trapDepth == 0 {
		r.cmdText = cmdText{src: r.src, st: st, call: c}
	}
}

// setCmdNode sets BASH_COMMAND to the text of n between pre and post.
func (r *Runner) setCmdNode(pre string, n syntax.Node, post string) {
	if r.trapDepth == 0 {
		r.cmdText = cmdText{src: r.src, node: n, pre: pre, post: post}
	}
}

// bashCommand is BASH_COMMAND.
func (r *Runner) bashCommand() string {
	ct := &r.cmdText
	if !ct.made {
		// The text is made from the source the command was read from.
		saved := r.src
		r.src = ct.src
		switch {
		case ct.call != nil:
			ct.text = r.commandText(ct.st, ct.call)
		case ct.node != nil:
			ct.text = ct.pre + r.srcOf(ct.node) + ct.post
		}
		r.src = saved
		*ct = cmdText{text: ct.text, made: true}
	}
	return ct.text
}
