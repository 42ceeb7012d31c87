package eval

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/term"
)

// Jobs are what the shell started and may wait for: background statements
// and, with job control (an interactive shell on a terminal, set -m), every
// pipeline, each in a process group of its own that gets the terminal.

type procState uint8

const (
	procRunning procState = iota
	procStopped
	procDone
)

// proc is one process of a job: a program, or a statement the shell runs
// itself on a goroutine (a background { …; } or loop), which has a process
// ID of its own making.
type proc struct {
	pid    int
	fake   bool
	args   []string
	state  procState
	status int
	sig    syscall.Signal
	usage  syscall.Rusage
	// fg marks a program run in the foreground.
	fg bool
	// cancel stops a statement the shell runs itself; killedBy is the
	// signal kill sent it.
	cancel   context.CancelFunc
	killedBy syscall.Signal
}

// job is a pipeline or background statement.
type job struct {
	t     *jobTable
	id    int // its number in jobs, 0 until listed
	pg    int // process group, 0 until a program started (or none)
	fg    bool
	procs []*proc
	text  string
	// noted is set once its current state was reported.
	noted bool
	nohup bool
	// first receives the process ID of its first program, for $!; last
	// that of the program of a pipeline's last command, which is $! of a
	// pipeline.
	first, last chan int
	// fifo is closed when a redirection of the job is about to open a
	// FIFO, which may wait until the shell itself opens the other end
	// (cat <fifo & exec 3>fifo): $! cannot wait for its program then.
	fifo     chan struct{}
	fifoOnce sync.Once
	// modes are the terminal's modes when it stopped, for fg; before
	// the shell's, to restore when it stops or dies of a signal.
	modes, before *term.State
	// seq orders jobs for %+ and %-: the latest touched is current.
	seq int
	// waited is set once wait -n returned it.
	waited bool
	// owner is BASHPID of the shell or subshell that started it: each
	// waits for, lists and reports its own jobs only, as bash's subshell,
	// a process with a table of its own, does.
	owner int
	// shellParts is set when the shell runs part of the pipeline itself
	// (a loop, a builtin, a function), which a Ctrl-Z cannot stop;
	// stopRefused once the shell said so.
	shellParts, stopRefused bool
	// lead is held by the program that starts the job's process group
	// until it has (see [Runner.spawn]); leading says it is held.
	lead    sync.Mutex
	leading atomic.Bool
}

// leadDone lets the job's other programs start once its group leader
// has, or failed to.
func (j *job) leadDone() {
	if j.leading.Swap(false) {
		j.lead.Unlock()
	}
}

// markShellPart notes that the shell runs part of j itself.
func (j *job) markShellPart() {
	j.t.mu.Lock()
	j.shellParts = true
	j.t.mu.Unlock()
}

// markShellPart notes that r runs part of its pipeline's job itself.
func (r *Runner) markShellPart() {
	if r.inPipe && r.job != nil && r.job.fg {
		r.job.markShellPart()
	}
}

// pgid is the job's process group so far: its first program's; 0 before
// one started. A pipeline's elements start at once, hence the lock.
func (j *job) pgid() int {
	j.t.mu.Lock()
	defer j.t.mu.Unlock()
	return j.pg
}

// takesTerminal reports whether the job's programs get the terminal.
func (j *job) takesTerminal() bool { return j.fg && j.t.control }

func (j *job) started(pid int) {
	j.t.mu.Lock()
	if j.pg == 0 {
		j.pg = pid
	}
	j.t.mu.Unlock()
	select {
	case j.first <- pid:
	default:
	}
}

func (j *job) state() procState {
	st, progs := procDone, procDone
	for _, p := range j.procs {
		st = min(st, p.state)
		if !p.fake {
			progs = min(progs, p.state)
		}
	}
	if progs == procStopped {
		// The shell's own part waits for a stopped program: the job is
		// stopped.
		return procStopped
	}
	return st
}

// status is the job's: the statement's when the shell ran it itself (a
// background subshell, whose programs are its processes too), else its
// last process's.
func (j *job) status() int {
	if len(j.procs) == 0 {
		return 0
	}
	for _, p := range j.procs {
		if p.fake {
			return p.status
		}
	}
	return j.procs[len(j.procs)-1].status
}

// jobTable is the shell's jobs, shared by its subshells.
type jobTable struct {
	mu   sync.Mutex
	cond *sync.Cond
	// gen counts the changes of state cond announces, so that a waiter
	// that looked before a change does not miss it.
	gen  uint64
	list []*job
	// procs are every process not yet reaped or forgotten, by ID.
	procs map[int]*proc
	// jobOf finds a process's job.
	jobOf map[*proc]*job
	// control is job control: tty is the terminal, pgid the shell's
	// own group.
	control bool
	tty     int
	pgid    int
	// notices is where [1]+ Done and the like go.
	notices io.Writer
	seq     int
	// ended keeps the statuses of background jobs that were removed
	// from the list, by their $!, as bash keeps them for wait PID;
	// endedOrder bounds it.
	ended      map[int]int
	endedOrder []int
	// fakePid numbers the statements the shell runs itself.
	fakePid int
	warned  bool
	// interrupt tells the shell of a Ctrl-C (see [Runner.Interrupt]);
	// intr is set while one waits for the shell to act on it.
	interrupt func()
	intr      *atomic.Bool
}

func newJobTable() *jobTable {
	t := &jobTable{procs: map[int]*proc{}, jobOf: map[*proc]*job{}, tty: -1, notices: os.Stderr}
	t.cond = sync.NewCond(&t.mu)
	return t
}

// fakePid is a process ID for a subshell the shell runs itself: above any
// the kernel hands out, so that it names no real process.
func (s *session) fakePid() int {
	t := s.jobs
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.fakePid == 0 {
		t.fakePid = pidMax()
	}
	t.fakePid++
	return t.fakePid
}

func pidMax() int {
	if b, err := os.ReadFile("/proc/sys/kernel/pid_max"); err == nil {
		var n int
		if _, err := fmt.Sscan(string(b), &n); err == nil && n > 0 {
			return n
		}
	}
	return 4194304
}

// newJob makes a job; fg jobs are not listed unless they stop.
func (t *jobTable) newJob(fg bool, text string) *job {
	return &job{t: t, fg: fg, text: text, first: make(chan int, 1), last: make(chan int, 1), fifo: make(chan struct{})}
}

// openingFIFO says that the job is about to open a FIFO.
func (j *job) openingFIFO() {
	j.fifoOnce.Do(func() { close(j.fifo) })
}

// add lists j with the next free number; t.mu is held.
func (t *jobTable) add(j *job) {
	if j.id != 0 {
		return
	}
	id := 1
	for _, o := range t.list {
		id = max(id, o.id+1)
	}
	j.id = id
	t.list = append(t.list, j)
	t.touch(j)
}

func (t *jobTable) touch(j *job) {
	t.seq++
	j.seq = t.seq
}

func (t *jobTable) remove(j *job) {
	t.list = slices.DeleteFunc(t.list, func(o *job) bool { return o == j })
	if !j.fg && j.state() == procDone && len(j.procs) > 0 {
		t.remember(j.procs[0].pid, j.status())
		if n := len(j.procs); n > 1 {
			t.remember(j.procs[n-1].pid, j.status())
		}
	}
	for _, p := range j.procs {
		if p.state == procDone {
			delete(t.procs, p.pid)
			delete(t.jobOf, p)
		}
	}
}

// maxEnded is how many ended background jobs' statuses are kept.
const maxEnded = 1024

// remember keeps an ended background job's status for wait PID.
func (t *jobTable) remember(pid, status int) {
	if t.ended == nil {
		t.ended = map[int]int{}
	}
	if _, ok := t.ended[pid]; !ok {
		t.endedOrder = append(t.endedOrder, pid)
	}
	t.ended[pid] = status
	if len(t.endedOrder) > maxEnded {
		delete(t.ended, t.endedOrder[0])
		t.endedOrder = t.endedOrder[1:]
	}
}

// track follows a started process until it is gone.
func (t *jobTable) track(pid int, j *job, args []string, fg bool) *proc {
	p := &proc{pid: pid, args: args, fg: fg}
	t.mu.Lock()
	t.procs[pid] = p
	if j != nil {
		j.procs = append(j.procs, p)
		t.jobOf[p] = j
	}
	t.mu.Unlock()
	go t.reap(p)
	return p
}

// trackFake adds a statement the shell runs itself to j.
func (t *jobTable) trackFake(pid int, j *job, cancel context.CancelFunc) *proc {
	p := &proc{pid: pid, fake: true, cancel: cancel}
	t.mu.Lock()
	t.procs[pid] = p
	j.procs = append(j.procs, p)
	t.jobOf[p] = j
	t.mu.Unlock()
	return p
}

// finish marks a statement the shell ran itself as done.
func (t *jobTable) finish(p *proc, status int) {
	t.mu.Lock()
	if p.killedBy != 0 {
		// Stopped by a signal sent to it: it died of that, as a
		// forked bash would.
		status = 128 + int(p.killedBy)
	}
	p.state, p.status = procDone, status
	t.gen++
	t.cond.Broadcast()
	t.mu.Unlock()
}

func (t *jobTable) reap(p *proc) {
	for {
		var ws syscall.WaitStatus
		var ru syscall.Rusage
		_, err := syscall.Wait4(p.pid, &ws, syscall.WUNTRACED|syscall.WCONTINUED, &ru)
		if err == syscall.EINTR {
			continue
		}
		t.mu.Lock()
		switch {
		case err != nil:
			p.state, p.status = procDone, 127
		case ws.Stopped():
			p.state, p.sig, p.status = procStopped, ws.StopSignal(), 128+int(ws.StopSignal())
		case ws.Continued():
			p.state = procRunning
		case ws.Signaled():
			p.state, p.sig, p.status = procDone, ws.Signal(), 128+int(ws.Signal())
			p.usage = ru
			if p.sig == syscall.SIGINT && p.fg && t.control {
				// A foreground program that died of Ctrl-C stops the
				// command line too, as in bash.
				t.interrupt()
			}
		default:
			p.state, p.sig, p.status = procDone, 0, ws.ExitStatus()
			p.usage = ru
		}
		if j := t.jobOf[p]; j != nil {
			j.noted = false
		}
		done := p.state == procDone
		t.gen++
		t.cond.Broadcast()
		t.mu.Unlock()
		if done {
			return
		}
	}
}

// waitProc waits for p to end, or, for a foreground job under job control,
// for the job to stop; a context that ends kills p (its group when it has
// one of its own).
func (t *jobTable) waitProc(ctx context.Context, p *proc, j *job) int {
	stop := context.AfterFunc(ctx, func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if p.state == procDone {
			return
		}
		if j != nil && j.pg > 0 && t.control {
			syscall.Kill(-j.pg, syscall.SIGKILL)
		} else {
			syscall.Kill(p.pid, syscall.SIGKILL)
		}
	})
	defer stop()
	t.mu.Lock()
	defer t.mu.Unlock()
	for {
		if p.state == procDone {
			if j == nil || !j.fg {
				delete(t.procs, p.pid)
			}
			return p.status
		}
		if t.intr != nil && t.intr.Load() && j != nil && j.fg && t.control && j.pg > 0 && p.state == procRunning {
			// A Ctrl-C the shell got as the program took the terminal:
			// it was meant for the program.
			syscall.Kill(-j.pg, syscall.SIGINT)
		}
		if p.state == procStopped && j != nil && j.fg && t.control {
			if !j.shellParts {
				return p.status
			}
			// The shell's part would wait for the stopped programs for
			// ever: the pipeline goes on, with the terminal.
			if !j.stopRefused {
				j.stopRefused = true
				fmt.Fprintln(t.notices, "\nqsh: cannot stop a pipeline the shell runs part of")
			}
			syscall.Kill(-j.pg, syscall.SIGCONT)
		}
		t.cond.Wait()
	}
}

// foregroundDone is called when a foreground job's pipeline finished or
// stopped: the shell takes the terminal back, and a stopped job is listed.
func (r *Runner) foregroundDone(j *job) {
	t := r.sess.jobs
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.control {
		return
	}
	if j.pg == 0 {
		// No program started: one that failed to may have taken the
		// terminal before its exec failed.
		handTerminal(t.tty, t.pgid)
		return
	}
	stopped := j.state() == procStopped
	if stopped {
		j.modes, _ = term.GetState(t.tty)
	}
	handTerminal(t.tty, t.pgid)
	if stopped || j.status() > 128 {
		if j.before != nil {
			term.Restore(t.tty, j.before)
		}
	}
	if stopped {
		j.fg = false
		t.add(j)
		j.noted = true
		cur, prev := t.current()
		fmt.Fprintf(t.notices, "\n%s\n", t.line(j, cur, prev, false))
		return
	}
	for _, p := range j.procs {
		delete(t.procs, p.pid)
		delete(t.jobOf, p)
	}
}

// current is %+ and %-: the jobs touched last, stopped ones first.
func (t *jobTable) current() (cur, prev *job) {
	var list []*job
	for _, j := range t.list {
		if j.state() != procDone {
			list = append(list, j)
		}
	}
	slices.SortStableFunc(list, func(a, b *job) int {
		as, bs := a.state() == procStopped, b.state() == procStopped
		if as != bs {
			if as {
				return -1
			}
			return 1
		}
		return b.seq - a.seq
	})
	if len(list) > 0 {
		cur = list[0]
	}
	if len(list) > 1 {
		prev = list[1]
	}
	if cur == nil && len(t.list) > 0 {
		cur = t.list[len(t.list)-1]
	}
	return cur, prev
}

// line is a job as jobs lists it.
func (t *jobTable) line(j *job, cur, prev *job, pids bool) string {
	mark := ' '
	switch j {
	case cur:
		mark = '+'
	case prev:
		mark = '-'
	}
	text := j.text
	if !j.fg && j.state() == procRunning {
		text += " &" // bash shows a running background job with its &
	}
	if pids {
		pid := j.pg
		if pid == 0 && len(j.procs) > 0 {
			pid = j.procs[0].pid
		}
		return fmt.Sprintf("[%d]%c %d %-24s%s", j.id, mark, pid, j.describe(), text)
	}
	return fmt.Sprintf("[%d]%c  %-24s%s", j.id, mark, j.describe(), text)
}

func (j *job) describe() string {
	switch j.state() {
	case procRunning:
		return "Running"
	case procStopped:
		sig := syscall.SIGTSTP
		for _, p := range j.procs {
			if p.state == procStopped {
				sig = p.sig
			}
		}
		switch sig {
		case syscall.SIGTTIN:
			return "Stopped (tty input)"
		case syscall.SIGTTOU:
			return "Stopped (tty output)"
		case syscall.SIGSTOP:
			return "Stopped (signal)"
		}
		return "Stopped"
	}
	st := j.status()
	last := j.procs[len(j.procs)-1]
	if last.sig != 0 && !last.fake {
		return signalDescription(last.sig)
	}
	if st == 0 {
		return "Done"
	}
	return fmt.Sprintf("Exit %d", st)
}

// Report prints what changed in the listed jobs since the last report —
// done, or stopped in the background — and forgets the jobs that are
// done, as an interactive shell does before its prompt.
func (r *Runner) Report() {
	t := r.sess.jobs
	t.mu.Lock()
	defer t.mu.Unlock()
	t.warned = false
	cur, prev := t.current()
	for _, j := range slices.Clone(t.list) {
		st := j.state()
		if j.owner != r.pid {
			// A subshell's job, which bash's subshell would have
			// reported to no one.
			if st == procDone {
				t.remove(j)
			}
			continue
		}
		if st == procRunning || j.noted && st != procDone {
			continue
		}
		if !j.noted {
			fmt.Fprintln(t.notices, t.line(j, cur, prev, false))
		}
		j.noted = true
		if st == procDone {
			t.remove(j)
		}
	}
}

// JobControl turns job control on: each pipeline in a process group of its
// own, which gets the terminal tty. The shell must lead its own group.
func (r *Runner) JobControl(tty int, notices io.Writer) {
	t := r.sess.jobs
	t.mu.Lock()
	defer t.mu.Unlock()
	t.control = true
	t.tty = tty
	t.pgid = syscall.Getpgrp()
	t.notices = notices
	r.opts.set[optMonitor] = true
}

// JobCount is how many jobs the table lists that are not done, for the
// prompt's \j.
func (r *Runner) JobCount() int {
	t := r.sess.jobs
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, j := range t.list {
		if j.owner == r.pid && j.state() != procDone {
			n++
		}
	}
	return n
}

// StoppedJobs reports whether any job is stopped, for the warning bash
// gives at exit.
func (r *Runner) StoppedJobs() bool {
	t := r.sess.jobs
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, j := range t.list {
		if j.owner == r.pid && j.state() == procStopped {
			return true
		}
	}
	return false
}

// Hangup sends SIGHUP to the jobs, as bash does when it exits: to stopped
// ones (and SIGCONT so that they see it), and to all when all is set (the
// terminal hung up, or huponexit).
func (r *Runner) Hangup(all bool) {
	t := r.sess.jobs
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, j := range t.list {
		st := j.state()
		if j.nohup || st == procDone || st == procRunning && !all {
			continue
		}
		for _, p := range j.procs {
			if p.fake {
				continue
			}
			target := p.pid
			if j.pg > 0 && t.control {
				target = -j.pg
			}
			syscall.Kill(target, syscall.SIGHUP)
			if st == procStopped {
				syscall.Kill(target, syscall.SIGCONT)
			}
		}
	}
}

// jobFor is the job a program the runner starts belongs to: the runner's
// pipeline or background statement, else, with job control, one of its
// own in the foreground.
func (r *Runner) jobFor() *job {
	if r.job != nil {
		return r.job
	}
	if !r.sess.jobs.control || r.subshell > 0 && r.inSubst || r.noTerminal {
		return nil
	}
	j := r.sess.jobs.newJob(true, r.bashCommand())
	j.owner = r.pid
	j.before, _ = term.GetState(r.sess.jobs.tty)
	r.job = j
	r.ownJob = true
	return j
}

// signalDescription is how bash describes a death by signal.
func signalDescription(sig syscall.Signal) string {
	switch sig {
	case syscall.SIGHUP:
		return "Hangup"
	case syscall.SIGINT:
		return "Interrupt"
	case syscall.SIGQUIT:
		return "Quit"
	case syscall.SIGKILL:
		return "Killed"
	case syscall.SIGTERM:
		return "Terminated"
	case syscall.SIGSEGV:
		return "Segmentation fault"
	case syscall.SIGABRT:
		return "Aborted"
	case syscall.SIGPIPE:
		return "Broken pipe"
	case syscall.SIGALRM:
		return "Alarm clock"
	case syscall.SIGUSR1:
		return "User defined signal 1"
	case syscall.SIGUSR2:
		return "User defined signal 2"
	}
	s := sig.String()
	return strings.ToUpper(s[:1]) + s[1:]
}
