package shell

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/shell/marks"
)

// trap, as bash's. EXIT is qsh's (interp would run it after every command
// line); ERR is interp's; DEBUG is debug.go's. A signal's trap runs, as in
// bash, once the command the shell is running ends: the signal is noted,
// and the next command runs the traps first ([sigTrapMark]). An empty
// trap ignores the signal, in the programs the shell starts too. RETURN
// runs after each sourced file, and each function under set -T.

const (
	sigTrapMark = "__qsh_sigtrap" // builtin: the pending traps, then the command
	returnMark  = "__qsh_return"  // builtin: the file or function, then the RETURN trap
	trappedMark = "__qsh_trapped" // prefix: the command, its traps dealt with
)

const trapUsage = "trap: usage: trap [-lp] [[arg] signal_spec ...]"

// sigTraps are the traps of signals.
type sigTraps struct {
	mu      sync.Mutex
	cmds    map[syscall.Signal]string // "" ignores the signal
	chans   map[syscall.Signal]chan os.Signal
	queue   []syscall.Signal // caught, their traps not run yet
	pending atomic.Bool
	ret     atomic.Pointer[string] // the RETURN trap
	err     string                 // the ERR trap, which interp runs
}

// cmd is sig's trap; ok is false when it has none.
func (t *sigTraps) cmd(sig syscall.Signal) (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	c, ok := t.cmds[sig]
	return c, ok
}

// raise notes that sig came, for its trap to run.
func (t *sigTraps) raise(sig syscall.Signal) {
	t.mu.Lock()
	if c, ok := t.cmds[sig]; ok && c != "" && !slices.Contains(t.queue, sig) {
		t.queue = append(t.queue, sig)
		t.pending.Store(true)
	}
	t.mu.Unlock()
}

// take is the traps to run now, in the order their signals came.
func (t *sigTraps) take() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var cmds []string
	for _, sig := range t.queue {
		if c := t.cmds[sig]; c != "" {
			cmds = append(cmds, c)
		}
	}
	t.queue = nil
	t.pending.Store(false)
	return cmds
}

// setSigTrap gives sig a trap ("" ignores it), or resets it (reset).
func (s *Shell) setSigTrap(sig syscall.Signal, cmd string, reset bool) {
	// sigMu first, as catchSignals takes them: it asks the traps while it
	// holds sigMu, and a trap set meanwhile deadlocked with it (the catch
	// timer of a script fired as it ran `trap - USR1`).
	s.sigMu.Lock()
	defer s.sigMu.Unlock()
	t := &s.sigtraps
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cmds == nil {
		t.cmds = map[syscall.Signal]string{}
		t.chans = map[syscall.Signal]chan os.Signal{}
	}
	if ch := t.chans[sig]; ch != nil {
		signal.Stop(ch)
		close(ch)
		delete(t.chans, sig)
	}
	if old, ok := t.cmds[sig]; ok && old == "" {
		// Go's Reset does not undo Ignore; Notify does.
		tmp := make(chan os.Signal, 1)
		signal.Notify(tmp, sig)
		signal.Stop(tmp)
	}
	if reset || cmd == "" {
		// Back to what the signal did before: its default, or the
		// shell's own handling.
		signal.Reset(sig)
		if reset {
			delete(t.cmds, sig)
			s.recatch(sig)
			return
		}
	}
	switch {
	case cmd == "":
		signal.Ignore(sig)
	default:
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, sig)
		t.chans[sig] = ch
		go func() {
			for range ch {
				t.raise(sig)
			}
		}()
	}
	t.cmds[sig] = cmd
}

// keepTraps saves the signals' traps, RETURN's and ERR's record, and
// returns what sets them back as they were (see [Shell.keep]).
func (s *Shell) keepTraps() (restore func()) {
	t := &s.sigtraps
	t.mu.Lock()
	cmds, errTrap := maps.Clone(t.cmds), t.err
	t.mu.Unlock()
	ret := t.ret.Load()
	return func() {
		t.mu.Lock()
		now := maps.Clone(t.cmds)
		t.err = errTrap
		t.mu.Unlock()
		for sig, cmd := range now {
			if old, ok := cmds[sig]; !ok {
				s.setSigTrap(sig, "", true)
			} else if old != cmd {
				s.setSigTrap(sig, old, false)
			}
		}
		for sig, cmd := range cmds {
			if _, ok := now[sig]; !ok {
				s.setSigTrap(sig, cmd, false)
			}
		}
		t.ret.Store(ret)
	}
}

// recatch has the shell catch sig again if it caught it before a trap
// changed its handling (see [Shell.catchSignals]); sigMu is held.
func (s *Shell) recatch(sig syscall.Signal) {
	if s.sigs == nil || s.catching == nil {
		return
	}
	switch sig {
	case syscall.SIGINT:
	case syscall.SIGQUIT, syscall.SIGTERM, syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU, syscall.SIGHUP:
		if !s.interactive {
			return
		}
	default:
		return
	}
	signal.Notify(s.sigs, sig)
}

// sigIgnored reports whether `trap ”` ignores sig.
func (s *Shell) sigIgnored(sig syscall.Signal) bool {
	c, ok := s.sigtraps.cmd(sig)
	return ok && c == ""
}

// sigTrapped reports whether sig has a trap that runs a command.
func (s *Shell) sigTrapped(sig syscall.Signal) bool {
	c, ok := s.sigtraps.cmd(sig)
	return ok && c != ""
}

// trapCall is for [Shell.call]: a command that runs pending traps first,
// or the RETURN trap after a function. ok is false when args are
// unchanged.
func (s *Shell) trapCall(hc interp.HandlerContext, args []string) ([]string, bool) {
	name := args[0]
	if strings.HasPrefix(name, marks.Prefix) || strings.HasPrefix(name, builtinMark) {
		return nil, false
	}
	if s.sigtraps.pending.Load() && s.bgToken(hc) == "" && !inSubstitution(hc) {
		return mark(append([]string{sigTrapMark}, args...)), true
	}
	if s.sigtraps.ret.Load() != nil && (name == "source" || name == "." || s.opt(hc.Env, "functrace") && s.isFuncAt(hc, name)) {
		return mark(append([]string{returnMark}, args...)), true
	}
	return nil, false
}

// sigTrapBuiltin is [sigTrapMark]: the pending traps, then the command.
func (s *Shell) sigTrapBuiltin(ctx context.Context, hc interp.HandlerContext, args []string) error {
	st := strconv.Itoa(hc.LastExitStatus)
	for _, cmd := range s.sigtraps.take() {
		hc.Builtin(ctx, []string{"eval", withStatus(st, cmd)})
	}
	return hc.Builtin(ctx, []string{"eval", withStatus(st, trappedMark+" "+quoteArgs(args))})
}

// returnBuiltin is [returnMark]: the sourced file (or, with set -T, the
// function), then the RETURN trap. (bash also runs a trap set inside a
// function when that function returns; qsh does not know where a trap
// was set.)
func (s *Shell) returnBuiltin(ctx context.Context, hc interp.HandlerContext, args []string) error {
	st := strconv.Itoa(hc.LastExitStatus)
	err := hc.Builtin(ctx, []string{"eval", withStatus(st, trappedMark+" "+quoteArgs(args))})
	if p := s.sigtraps.ret.Load(); p != nil {
		s.sigtraps.ret.Store(nil) // not in the trap itself
		hc.Builtin(ctx, []string{"eval", withStatus(st, *p)})
		s.sigtraps.ret.CompareAndSwap(nil, p)
	}
	return err
}

// runPendingTraps runs the traps of signals that came while no command
// ran: between command lines, and before the shell exits.
func (s *Shell) runPendingTraps(ctx context.Context) {
	if !s.sigtraps.pending.Load() {
		return
	}
	for _, cmd := range s.sigtraps.take() {
		if f, err := syntax.NewParser().Parse(strings.NewReader(cmd), ""); err == nil {
			s.runFile(ctx, f)
		}
	}
}

func quoteArgs(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = quote(a)
	}
	return strings.Join(quoted, " ")
}

// trapSpec is a signal as trap takes it: a name (with or without SIG, any
// case), a number, or one of EXIT (0), DEBUG, ERR and RETURN.
func trapSpec(spec string) (name string, sig syscall.Signal, ok bool) {
	up := strings.ToUpper(spec)
	switch strings.TrimPrefix(up, "SIG") {
	case "EXIT", "0":
		return "EXIT", 0, true
	case "DEBUG", "ERR", "RETURN":
		return strings.TrimPrefix(up, "SIG"), 0, true
	}
	n, ok := signalNum(spec)
	if !ok || n == 0 {
		return "", 0, false
	}
	return "SIG" + signalName(n), n, true
}

// trap is the trap builtin.
func (s *Shell) trap(ctx context.Context, hc interp.HandlerContext, b builtinIO, args []string) int {
	print := false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 'l':
				return b.listSignals(args)
			case 'p':
				print = true
			default:
				b.fail(2, "-%c: invalid option", c)
				fmt.Fprintln(b.err, trapUsage)
				return 2
			}
		}
	}
	if len(args) == 0 || print {
		return s.printTraps(b, args)
	}
	cmd, specs := args[0], args[1:]
	if len(specs) == 0 {
		// `trap SIG`: reset SIG.
		cmd, specs = "-", args
	} else if _, err := strconv.Atoi(cmd); err == nil {
		// A number first: every operand is a signal to reset (POSIX).
		cmd, specs = "-", args
	}
	st := 0
	for _, spec := range specs {
		name, sig, ok := trapSpec(spec)
		if !ok {
			st = b.fail(1, "%s: invalid signal specification", spec)
			continue
		}
		reset := cmd == "-"
		switch name {
		case "EXIT":
			if reset {
				s.exitTrap = ""
			} else {
				s.exitTrap = marks.Trap(cmd)
			}
		case "ERR":
			s.sigtraps.mu.Lock()
			s.sigtraps.err = map[bool]string{true: "", false: cmd}[reset]
			s.sigtraps.mu.Unlock()
			hc.Builtin(ctx, []string{"trap", cmd, "ERR"})
		case "DEBUG":
			if s.setDebugTrap(b, cmd) != 0 {
				st = 1
			}
		case "RETURN":
			if reset || cmd == "" {
				s.sigtraps.ret.Store(nil)
			} else {
				c := cmd
				s.sigtraps.ret.Store(&c)
			}
		default:
			if sig == syscall.SIGKILL || sig == syscall.SIGSTOP {
				continue // bash takes them; nothing can catch them
			}
			s.setSigTrap(sig, cmd, reset)
		}
	}
	return st
}

// printTraps prints the traps, of the given signals or all, as trap takes
// them back: EXIT, the signals by number, then DEBUG, ERR and RETURN.
func (s *Shell) printTraps(b builtinIO, specs []string) int {
	type entry struct {
		name string
		cmd  string
		set  bool
	}
	get := func(name string, sig syscall.Signal) entry {
		switch name {
		case "EXIT":
			return entry{name, marks.Untrap(s.exitTrap), s.exitTrap != ""}
		case "DEBUG":
			c := s.debugTrapCmd()
			return entry{name, c, c != ""}
		case "ERR":
			s.sigtraps.mu.Lock()
			defer s.sigtraps.mu.Unlock()
			return entry{name, s.sigtraps.err, s.sigtraps.err != ""}
		case "RETURN":
			if p := s.sigtraps.ret.Load(); p != nil {
				return entry{name, *p, true}
			}
			return entry{name: name}
		}
		c, ok := s.sigtraps.cmd(sig)
		return entry{name, c, ok}
	}
	var list []entry
	st := 0
	if len(specs) == 0 {
		list = append(list, get("EXIT", 0))
		for n := syscall.Signal(1); n < 65; n++ {
			list = append(list, get("SIG"+signalName(n), n))
		}
		list = append(list, get("DEBUG", 0), get("ERR", 0), get("RETURN", 0))
	}
	for _, spec := range specs {
		name, sig, ok := trapSpec(spec)
		if !ok {
			st = b.fail(1, "%s: invalid signal specification", spec)
			continue
		}
		list = append(list, get(name, sig))
	}
	var sb strings.Builder
	for _, e := range list {
		if e.set {
			fmt.Fprintf(&sb, "trap -- %s %s\n", singleQuoteAlways(e.cmd), e.name)
		}
	}
	b.out.Write([]byte(sb.String()))
	return st
}

// awaitSelfSignal waits, after kill sent sig to the shell itself, for
// the signal to end it (or the command line, for a signal the shell
// catches), as in bash, where it has by the time kill returns; a second
// at most.
func (s *Shell) awaitSelfSignal(ctx context.Context, pid int, sig syscall.Signal) {
	if pid != os.Getpid() || signal.Ignored(sig) {
		return
	}
	switch sig {
	case syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGILL, syscall.SIGTRAP, syscall.SIGABRT,
		syscall.SIGBUS, syscall.SIGFPE, syscall.SIGKILL, syscall.SIGUSR1, syscall.SIGSEGV, syscall.SIGUSR2,
		syscall.SIGPIPE, syscall.SIGALRM, syscall.SIGTERM:
	default:
		return
	}
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// selfSignal is kill's sending of sig to the shell itself: a trapped
// signal's trap is noted at once, so that it runs before the next
// command, as in bash; an ignored one does nothing. ok is false when the
// signal must really be sent.
func (s *Shell) selfSignal(pid int, sig syscall.Signal) (ok bool) {
	if pid != os.Getpid() || sig == 0 {
		return false
	}
	c, trapped := s.sigtraps.cmd(sig)
	if !trapped {
		// bash ignores SIGQUIT, interactive or not, unless trapped.
		return sig == syscall.SIGQUIT
	}
	if c != "" {
		s.sigtraps.raise(sig)
	}
	return true
}
