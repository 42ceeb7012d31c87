package shell

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	"mvdan.cc/sh/v3/interp"
)

// findJob resolves a job spec as bash does: %n, %+ (also %% and %),
// %-, %string (the command starts with it), %?string (contains it), and
// for fg and bg a bare number. cur and prev are the current and previous
// jobs.
func findJob(list []*job, cur, prev *job, spec string, bare bool) (*job, error) {
	s, ok := strings.CutPrefix(spec, "%")
	if !ok && !bare {
		return nil, fmt.Errorf("%s: no such job", spec)
	}
	var j *job
	switch {
	case s == "" || s == "%" || s == "+":
		j = cur
		spec = "current"
	case s == "-":
		j = prev
		spec = "previous"
	case isDigits(s):
		n, _ := strconv.Atoi(s)
		for _, o := range list {
			if o.id == n {
				j = o
			}
		}
	default:
		var match []*job
		for _, o := range list {
			if sub, ok := strings.CutPrefix(s, "?"); ok && strings.Contains(o.text, sub) ||
				!ok && strings.HasPrefix(o.text, s) {
				match = append(match, o)
			}
		}
		if len(match) > 1 {
			return nil, fmt.Errorf("%s: ambiguous job spec", spec)
		}
		if len(match) == 1 {
			j = match[0]
		}
	}
	if j == nil {
		return nil, fmt.Errorf("%s: no such job", spec)
	}
	return j, nil
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// find resolves spec; t.mu is held.
func (t *jobs) find(spec string, bare bool) (*job, error) {
	cur, prev := t.current()
	return findJob(t.list, cur, prev, spec, bare)
}

// count is how many jobs the table lists, for the prompt's \j.
func (t *jobs) count() int {
	if t == nil {
		return 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, j := range t.list {
		if j != nil {
			n++
		}
	}
	return n
}

// ran counts a command line run, for [jobs.holdExit].
func (t *jobs) ran() {
	t.mu.Lock()
	t.warnedBefore, t.warned = t.warned, false
	t.mu.Unlock()
}

// jobControl is the job table for a command line the user typed; nil
// elsewhere (no job control, or the assistant's subshell, whose fg or
// wait must not take the user's jobs).
func (s *Shell) jobControl(ctx context.Context) *jobs {
	if ctx.Value(fgKey{}) == nil {
		return nil
	}
	return s.jobs
}

// jobTerminal is the terminal job control would use, and the shell's
// process group, which must be its foreground; ok is false when there is
// none.
func (s *Shell) jobTerminal() (tty, pgid int, ok bool) {
	in, ok := s.stdin.(*os.File)
	if !ok || !s.terminal || !s.interactive {
		return 0, 0, false
	}
	tty = int(in.Fd())
	pgid = unix.Getpgrp()
	if fg, err := unix.IoctlGetInt(tty, unix.TIOCGPGRP); err != nil || fg != pgid {
		return 0, 0, false
	}
	return tty, pgid, true
}

// jobsAhead reports whether job control is yet to start: the REPL will
// start it (see [Shell.programsAt]).
func (s *Shell) jobsAhead() bool {
	_, _, ok := s.jobTerminal()
	return s.jobs == nil && ok
}

// startJobs turns job control on for an interactive session on a
// terminal whose foreground the shell is in; otherwise programs run in
// the shell's process group as before.
func (s *Shell) startJobs() {
	tty, pgid, ok := s.jobTerminal()
	if !ok {
		return
	}
	s.jobs = newJobs(tty, pgid, s.stderr, s.sigs, s.bgs.clock)
	if s.sigs != nil {
		signal.Notify(s.sigs, syscall.SIGHUP) // see [Shell.hungUp]
	}
}

// reportJobs is called before each prompt: it says which jobs finished or
// stopped since the last prompt.
func (s *Shell) reportJobs() {
	if s.jobs != nil {
		s.jobs.report()
	}
}

// holdExit reports whether the shell should not exit yet because of
// stopped jobs (it has warned once).
func (s *Shell) holdExit() bool {
	return s.jobs != nil && s.jobs.holdExit()
}

// endJobs is for the shell's exit: no stopped job stays stopped.
func (s *Shell) endJobs() {
	if s.jobs != nil {
		s.jobs.hangup(false)
	}
}

func (s *Shell) jobsBuiltin(ctx context.Context, b builtinIO, args []string) int {
	t := s.jobs
	opts, specs, bad := letterOptions(args, "lprs")
	if bad != 0 {
		return b.fail(2, "-%c: invalid option\nusage: jobs [-lprs] [jobspec ...]", bad)
	}
	if t == nil {
		// Without job control (a script), `jobs -p` lists the
		// running background statements' $!, for the common
		// `kill $(jobs -p)`.
		if opts['p'] && len(specs) == 0 && !opts['s'] {
			for _, pid := range s.bgs.running(ctx) {
				fmt.Fprintln(b.out, pid)
			}
		}
		return 0
	}
	pids, pgids, running, stopped := opts['l'], opts['p'], opts['r'], opts['s']
	s.bgs.settle(ctx)
	t.mu.Lock()
	defer t.mu.Unlock()
	list := t.list
	st := 0
	if len(specs) > 0 {
		list = nil
		for _, spec := range specs {
			j, err := t.find(spec, true)
			if err != nil {
				st = b.fail(1, "%v", err)
				continue
			}
			list = append(list, j)
		}
	}
	cur, prev := t.current()
	for _, j := range slices.Clone(list) {
		state := j.state()
		if running && state != procRunning || stopped && state != procStopped {
			continue
		}
		if pgids {
			fmt.Fprintln(b.out, j.pgid)
			continue
		}
		fmt.Fprintln(b.out, t.line(j, cur, prev, pids))
		j.noted = true
		if state == procDone {
			t.remove(j)
		}
	}
	return st
}

func (s *Shell) fgBuiltin(ctx context.Context, b builtinIO, args []string) int {
	t := s.jobControl(ctx)
	if t == nil {
		return b.fail(1, "no job control")
	}
	spec := "%+"
	if len(args) > 0 {
		spec = args[0]
	}
	s.bgs.settle(ctx)
	t.mu.Lock()
	j, err := t.find(spec, true)
	if err == nil && j.state() == procDone {
		// Ended, not reported yet: the next prompt does.
		err = errors.New("job has terminated")
	}
	if err == nil {
		fmt.Fprintln(b.out, j.text)
	}
	t.mu.Unlock()
	if err != nil {
		return b.fail(1, "%v", err)
	}
	s.fg.Add(1)
	defer s.fg.Add(-1)
	st := t.foreground(j)
	if st == 128+int(syscall.SIGINT) {
		s.interrupt() // as for a program interrupted in the foreground
	}
	return st
}

func (s *Shell) bgBuiltin(ctx context.Context, b builtinIO, args []string) int {
	t := s.jobControl(ctx)
	if t == nil {
		return b.fail(1, "no job control")
	}
	if len(args) == 0 {
		args = []string{"%+"}
	}
	s.bgs.settle(ctx)
	t.mu.Lock()
	defer t.mu.Unlock()
	st := 0
	for _, spec := range args {
		j, err := t.find(spec, true)
		if err != nil {
			st = b.fail(1, "%v", err)
			continue
		}
		switch j.state() {
		case procRunning:
			b.fail(0, "job %d already in background", j.id)
			continue
		case procDone:
			st = b.fail(1, "job has terminated")
			continue
		}
		j.bg = true
		t.touch(j)
		t.continueJob(j)
		j.noted = true
		cur, _ := t.current()
		mark := ' '
		if j == cur {
			mark = '+'
		}
		fmt.Fprintf(b.out, "[%d]%c %s\n", j.id, mark, j.command())
	}
	return st
}

func (s *Shell) disownBuiltin(b builtinIO, args []string) int {
	t := s.jobs
	if t == nil {
		return 0
	}
	opts, specs, bad := letterOptions(args, "har")
	if bad != 0 {
		return b.fail(2, "-%c: invalid option\nusage: disown [-h] [-ar] [jobspec ...]", bad)
	}
	nohup, all, running := opts['h'], opts['a'], opts['r']
	// Bounded (see [bgTable.settle]); disown has no context to cancel.
	s.bgs.settle(context.Background())
	t.mu.Lock()
	defer t.mu.Unlock()
	var list []*job
	st := 0
	switch {
	case len(specs) > 0:
		for _, spec := range specs {
			j, err := t.find(spec, true)
			if err != nil {
				st = b.fail(1, "%v", err)
				continue
			}
			list = append(list, j)
		}
	case all || running:
		list = slices.Clone(t.list)
	default:
		cur, _ := t.current()
		if cur == nil {
			return b.fail(1, "current: no such job")
		}
		list = []*job{cur}
	}
	for _, j := range list {
		if running && j.state() != procRunning {
			continue
		}
		if nohup {
			j.nohup = true
			continue
		}
		t.remove(j)
	}
	return st
}

// waitBuiltin is wait: for job specs, for process IDs ($! and the
// programs of background statements, see bgtable.go; with job control,
// any job's), for every job, then (for the background statements that
// ran no program, and for interp's `g` pids) interp's own wait. Unlike
// interp's, Ctrl-C interrupts it: the jobs go on.
func (s *Shell) waitBuiltin(ctx context.Context, hc interp.HandlerContext, args []string) error {
	if len(args) > 0 && args[0] == "-n" {
		return s.waitNext(ctx, hc, args[1:])
	}
	if len(args) == 0 {
		defer s.bgs.reportAll()
	}
	t := s.jobControl(ctx)
	var rest []string
	st, some := 0, false
	for _, a := range args {
		var ok bool
		switch {
		case strings.HasPrefix(a, "%") && t != nil:
			st, ok = s.waitJob(ctx, hc, t, a)
		case isDigits(a):
			st, ok = s.waitPid(ctx, hc, t, a)
		default:
			rest = append(rest, a)
			continue
		}
		if !ok {
			return interp.ExitStatus(130)
		}
		some = true
	}
	if some && len(rest) == 0 {
		return exitStatus(st)
	}
	if t == nil {
		return hc.Builtin(ctx, append([]string{"wait"}, rest...))
	}
	if len(args) == 0 && !t.await(ctx, func() bool {
		return !slices.ContainsFunc(t.list, func(j *job) bool { return j.state() == procRunning })
	}) {
		return interp.ExitStatus(130)
	}
	// interp's wait does not heed Ctrl-C: for it, and only for it,
	// [jobs.detach] makes the background statements' programs give up
	// their waits (the programs go on). Waiting for jobs, above, Ctrl-C
	// ends the wait alone.
	t.mu.Lock()
	t.waiting++
	t.mu.Unlock()
	if ctx.Err() != nil { // a Ctrl-C before the count
		t.mu.Lock()
		t.waiting--
		t.mu.Unlock()
		return interp.ExitStatus(130)
	}
	err := hc.Builtin(ctx, append([]string{"wait"}, rest...))
	t.mu.Lock()
	t.waiting--
	t.mu.Unlock()
	if ctx.Err() != nil {
		return interp.ExitStatus(130)
	}
	return err
}

// waitNext is `wait -n [ID…]`: it waits for the next background statement
// (of those named by process ID, if any) to be over and returns its status;
// 127 when none is left to wait for, as in bash.
func (s *Shell) waitNext(ctx context.Context, hc interp.HandlerContext, ids []string) error {
	among := func(*bgStmt) bool { return true }
	if len(ids) > 0 {
		var named []*bgStmt
		for _, id := range ids {
			pid, err := strconv.Atoi(id)
			st := s.bgs.find(pid)
			if err != nil || st == nil {
				fmt.Fprintf(hc.Stderr, "qsh: wait: %s: no such background process (wait -n takes process IDs)\n", id)
				continue
			}
			named = append(named, st)
		}
		among = func(st *bgStmt) bool { return slices.Contains(named, st) }
	}
	s.bgs.settle(ctx)
	st, pids, _, ok := s.bgs.awaitNext(ctx, among)
	if !ok {
		return interp.ExitStatus(130)
	}
	if t := s.jobControl(ctx); t != nil {
		// The job is reported by wait, not at the prompt.
		t.mu.Lock()
		for _, pid := range pids {
			if j := t.byPid(pid); j != nil && j.state() == procDone {
				t.remove(j)
			}
		}
		t.mu.Unlock()
	}
	return exitStatus(st)
}

// waitJob waits for the job spec names and returns its status; ok is
// false when Ctrl-C ended the wait.
func (s *Shell) waitJob(ctx context.Context, hc interp.HandlerContext, t *jobs, spec string) (st int, ok bool) {
	s.bgs.settle(ctx)
	t.mu.Lock()
	j, err := t.find(spec, false)
	t.mu.Unlock()
	if err != nil {
		fmt.Fprintf(hc.Stderr, "qsh: wait: %v\n", err)
		return 127, true
	}
	return t.waitFor(ctx, j)
}

// waitFor waits until j is not running and returns its status, dropping it
// from the list if it is done; ok is false when ctx ended the wait.
func (t *jobs) waitFor(ctx context.Context, j *job) (st int, ok bool) {
	if !t.await(ctx, func() bool { return j.state() != procRunning }) {
		return 130, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if j.state() == procDone {
		t.remove(j)
	}
	return j.status(), true
}

// waitPid waits for process ID arg: the background statement it is the
// $! of, or runs a program of, for the statement's status as bash gives
// it (128+N when signal N killed it); with job control, else the job it
// is a process of.
func (s *Shell) waitPid(ctx context.Context, hc interp.HandlerContext, t *jobs, arg string) (st int, ok bool) {
	pid, err := strconv.Atoi(arg)
	if bst := s.bgs.find(pid); err == nil && bst != nil {
		st, ok = s.bgs.await(ctx, bst)
		if ok && t != nil {
			// The job is reported by wait, not at the prompt.
			t.mu.Lock()
			if j := t.byPid(pid); j != nil && j.state() == procDone {
				t.remove(j)
			}
			t.mu.Unlock()
		}
		return st, ok
	}
	if t != nil && err == nil {
		t.mu.Lock()
		j := t.byPid(pid)
		t.mu.Unlock()
		if j != nil {
			return t.waitFor(ctx, j)
		}
	}
	fmt.Fprintf(hc.Stderr, "qsh: wait: pid %s is not a child of this shell\n", arg)
	return 127, true
}

// byPid is the listed job with process pid; t.mu is held.
func (t *jobs) byPid(pid int) *job {
	for _, j := range t.list {
		if j.pgid == pid || slices.ContainsFunc(j.procs, func(p *proc) bool { return p.pid == pid }) {
			return j
		}
	}
	return nil
}

// await waits until done (called with t.mu held) says so, or ctx is
// cancelled; it reports which.
func (t *jobs) await(ctx context.Context, done func() bool) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.awaitLocked(ctx, nil, done)
}

// killJob sends sig to a job's process group; a stopped job also gets
// SIGCONT, so that the signal takes effect.
func (s *Shell) killJob(ctx context.Context, b builtinIO, spec string, sig syscall.Signal) int {
	t := s.jobs
	if t == nil {
		return b.fail(1, "%s: no job control", spec)
	}
	s.bgs.settle(ctx)
	t.mu.Lock()
	defer t.mu.Unlock()
	j, err := t.find(spec, false)
	if err != nil {
		return b.fail(1, "%v", err)
	}
	if j.state() == procDone {
		return b.fail(1, "%s: job has terminated", spec)
	}
	if err := unix.Kill(-j.pgid, sig); err != nil {
		return b.fail(1, "%s: %s", spec, errText(err))
	}
	if j.state() == procStopped && sig != syscall.SIGKILL && sig != syscall.SIGCONT && sig != 0 {
		unix.Kill(-j.pgid, syscall.SIGCONT)
	}
	// A background statement that runs more than one program (a loop,
	// `(a; b) &`) is a subshell in bash, which the signal ends; here it
	// runs in the shell, on the context of its command line, which is
	// over: cancel it, so that no next program starts.
	cancelled := false
	switch sig {
	case syscall.SIGTERM, syscall.SIGKILL, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT:
		if j.line != nil && j.line.over.Load() {
			j.line.cancel()
			cancelled = true
		}
	}
	pids := make([]int, len(j.procs))
	for i, p := range j.procs {
		pids[i] = p.pid
	}
	s.bgs.signalledJob(pids, sig, cancelled)
	return 0
}

// suspendBuiltin stops the shell until its parent continues it. A session
// leader (a login shell, or qsh behind its capture proxy) has nobody to
// continue it.
func (s *Shell) suspendBuiltin(b builtinIO, args []string) int {
	force := slices.Contains(args, "-f")
	if sid, _ := unix.Getsid(0); sid == os.Getpid() && !force {
		return b.fail(1, "cannot suspend a session leader (a login shell, or behind the capture proxy)")
	}
	if s.login && !force {
		return b.fail(1, "cannot suspend a login shell")
	}
	if err := unix.Kill(os.Getpid(), syscall.SIGSTOP); err != nil {
		return b.fail(1, "%v", err)
	}
	return 0
}

// reportWait is how long a report waits for the background statements of
// the last line to start their programs, so that their `[n] pid` notices
// come before the prompt.
const reportWait = 100 * time.Millisecond

// letterOptions splits a builtin's arguments into its one-letter options
// (from allowed, bundled or not, up to "--" or the first operand) and the
// operands; bad is the first letter not allowed.
func letterOptions(args []string, allowed string) (opts map[rune]bool, operands []string, bad rune) {
	opts = map[rune]bool{}
	for i, a := range args {
		if a == "--" {
			return opts, args[i+1:], 0
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			return opts, args[i:], 0
		}
		for _, c := range a[1:] {
			if !strings.ContainsRune(allowed, c) {
				return opts, nil, c
			}
			opts[c] = true
		}
	}
	return opts, nil, 0
}
