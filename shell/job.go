package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// An interactive shell on a terminal does job control, like bash with
// `set -m`: each foreground pipeline runs in a process group of its own
// that gets the terminal, so that Ctrl-Z stops it (and only it) and Ctrl-C
// at the prompt does not reach background jobs. Scripts, `qsh -c` and the
// assistant's subshell run without it, in the shell's process group.
//
// interp runs a pipeline's programs from several goroutines, and a
// background statement in a goroutine of its own, with no sign in the
// context of which is which. So the job table groups the programs itself:
// a foreground program joins the line's open foreground job while that has
// a running process, and a background statement is marked before it runs
// (see [Shell.markJobs]) so that its programs share one job.

// procState is what a process of a job is doing.
type procState int

const (
	procRunning procState = iota
	procStopped
	procDone
)

// proc is one program of a job.
type proc struct {
	pid    int
	args   []string
	pos    uint // where in the source it was called
	state  procState
	status int            // exit status once done; 128+N when signal N killed or stopped it
	sig    syscall.Signal // the signal that stopped or killed it
}

// job is a process group the shell started.
type job struct {
	id     int // 0 until it is listed (started in the background or stopped)
	pgid   int
	text   string // the command, as `jobs` shows it
	bg     bool   // started with & or resumed by bg
	token  string // the background statement it runs, see [Shell.markJobs]
	procs  []*proc
	modes  *term.State // the terminal's modes when it stopped, for fg
	before *term.State // the terminal's modes before it got the terminal
	noted  bool        // its current state was reported
	nohup  bool        // disown -h: no SIGHUP when the shell exits
	line   *lineState  // the command line of a background job
	// resume is set for a job of a pipeline the shell runs part of:
	// it is continued when it stops (see [Shell.mixedPipelines]).
	resume bool
	said   bool // that it was resumed
}

// state is the job's state as bash sees it: running while any process
// runs, else stopped while any is stopped, else done.
func (j *job) state() procState {
	st := procDone
	for _, p := range j.procs {
		st = min(st, p.state)
	}
	return st
}

// status is the job's exit status: its last process's, as for a pipeline.
func (j *job) status() int {
	if len(j.procs) == 0 {
		return 0
	}
	return j.last().status
}

// last is the job's last process: the one furthest in the source, since
// a pipeline's programs start in any order; of the ones with the same
// place (a loop's), the latest.
func (j *job) last() *proc {
	last := j.procs[0]
	for _, p := range j.procs[1:] {
		if p.pos >= last.pos {
			last = p
		}
	}
	return last
}

// stopSignal is the signal that stopped the job.
func (j *job) stopSignal() syscall.Signal {
	for _, p := range j.procs {
		if p.state == procStopped {
			return p.sig
		}
	}
	return syscall.SIGTSTP
}

// describe is the job's state in words, as `jobs` shows it.
func (j *job) describe() string {
	switch j.state() {
	case procRunning:
		return "Running"
	case procStopped:
		switch j.stopSignal() {
		case syscall.SIGTTIN:
			return "Stopped (tty input)"
		case syscall.SIGTTOU:
			return "Stopped (tty output)"
		case syscall.SIGSTOP:
			return "Stopped (signal)"
		}
		return "Stopped"
	}
	last := j.last()
	switch {
	case last.sig != 0:
		return signalText(last.sig)
	case last.status != 0:
		return "Exit " + strconv.Itoa(last.status)
	}
	return "Done"
}

// signalText is how a death by sig reads: "Terminated", "Killed".
func signalText(sig syscall.Signal) string {
	s := sig.String()
	if s == "" || strings.HasPrefix(s, "signal ") {
		return "Signal " + strconv.Itoa(int(sig))
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// command is the job's text, with " &" while it runs in the background.
func (j *job) command() string {
	if j.bg && j.state() == procRunning {
		return j.text + " &"
	}
	return j.text
}

// jobs is the job table of a shell with job control.
type jobs struct {
	tty    int // the terminal
	pgid   int // the shell's process group
	notice io.Writer
	// sigs is the shell's channel for the terminal's signals (darwin
	// must register it again after ignoring SIGTTOU).
	sigs chan<- os.Signal
	// clock is what report's wait goes by (the shell's, see [clock]).
	clock *clock

	changes
	list    []*job                  // listed jobs, by id
	recent  []*job                  // listed jobs, least recently used first, for %+ and %-
	fg      *job                    // the running line's foreground job, open to its pipeline's next program
	term    *job                    // the job the terminal was given to
	pending map[string]*reservation // background statements that have not started a program
	fresh   []string                // background statements run by the last line
	tokens  int
	gen     int // bumped to make background waits give up (an interrupted wait)
	waiting int // wait builtins running
	// warned is set when the shell warned about stopped jobs, until
	// the next command line; warnedBefore is what it was before that
	// line, until the next prompt.
	warned, warnedBefore bool
}

func newJobs(tty, pgid int, notice io.Writer, sigs chan<- os.Signal, clock *clock) *jobs {
	return &jobs{tty: tty, pgid: pgid, notice: notice, sigs: sigs, clock: clock,
		changes: changes{changed: make(chan struct{})}, pending: map[string]*reservation{},
	}
}

// wait releases t.mu until the next change; t.mu is held.
func (t *jobs) wait() {
	ch := t.changed
	t.mu.Unlock()
	<-ch
	t.mu.Lock()
}

// reservation is a background statement about to run: its text, and
// the job id it gets if it starts a program soon (0 once the prompt came
// first), so that ids follow the order of the statements, not of the
// goroutines that run them.
type reservation struct {
	text string
	id   int
}

// reserve records a background statement about to run and returns its
// token.
func (t *jobs) reserve(text string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.tokens++
	tok := "j" + strconv.Itoa(t.tokens)
	if len(t.pending) > 256 { // statements that never started a program
		clear(t.pending)
	}
	t.pending[tok] = &reservation{text: text, id: t.freeID(0)}
	t.fresh = append(t.fresh, tok)
	return tok
}

// freeID is want if no job and no reservation has it, else the lowest
// id free; t.mu is held.
func (t *jobs) freeID(want int) int {
	taken := func(id int) bool {
		for _, o := range t.list {
			if o.id == id {
				return true
			}
		}
		for _, r := range t.pending {
			if r.id == id {
				return true
			}
		}
		return false
	}
	if want > 0 && !taken(want) {
		return want
	}
	id := 1
	for taken(id) {
		id++
	}
	return id
}

// add lists j, with id want if that is free, else the lowest free id,
// and makes it the most recently used job; t.mu is held.
func (t *jobs) add(j *job, want int) {
	if slices.Contains(t.list, j) {
		t.touch(j)
		return
	}
	j.id = t.freeID(want)
	t.list = append(t.list, j)
	slices.SortFunc(t.list, func(a, b *job) int { return a.id - b.id })
	t.touch(j)
}

// touch makes j the most recently used job; t.mu is held.
func (t *jobs) touch(j *job) {
	t.recent = slices.DeleteFunc(t.recent, func(o *job) bool { return o == j })
	t.recent = append(t.recent, j)
}

// remove drops j from the listed jobs; t.mu is held.
func (t *jobs) remove(j *job) {
	drop := func(o *job) bool { return o == j }
	t.list = slices.DeleteFunc(t.list, drop)
	t.recent = slices.DeleteFunc(t.recent, drop)
}

// current returns the current (%+) and previous (%-) jobs: the most
// recently used stopped jobs come first, then the others; t.mu is held.
func (t *jobs) current() (cur, prev *job) {
	var order []*job
	for i := len(t.recent) - 1; i >= 0; i-- {
		if t.recent[i].state() == procStopped {
			order = append(order, t.recent[i])
		}
	}
	for i := len(t.recent) - 1; i >= 0; i-- {
		if t.recent[i].state() != procStopped {
			order = append(order, t.recent[i])
		}
	}
	if len(order) > 0 {
		cur = order[0]
	}
	if len(order) > 1 {
		prev = order[1]
	}
	return cur, prev
}

// line formats j as `jobs` does, given the current and previous jobs
// (found once for a listing: it may drop jobs that are done).
func (t *jobs) line(j, cur, prev *job, pids bool) string {
	mark := ' '
	switch j {
	case cur:
		mark = '+'
	case prev:
		mark = '-'
	}
	if pids {
		return fmt.Sprintf("[%d]%c %d %-24s%s", j.id, mark, j.pgid, j.describe(), j.command())
	}
	return fmt.Sprintf("[%d]%c  %-24s%s", j.id, mark, j.describe(), j.command())
}

// start starts a program of a job: the open foreground job or a new one,
// or for a background statement (token not empty) that statement's job.
// resume marks a foreground job as one that is continued when it stops.
// newCmd makes the command afresh (a failed start cannot be retried on
// the same one); start runs it.
func (t *jobs) start(newCmd func() *exec.Cmd, start func(*exec.Cmd) (*exec.Cmd, error),
	args []string, pos uint, token string, bg, resume bool, line *lineState) (*job, *proc, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var j *job
	if bg {
		for _, o := range t.list {
			if o.token == token && token != "" {
				j = o
			}
		}
	} else if t.fg != nil && t.fg.state() == procRunning {
		j = t.fg
	}
	var before *term.State
	if !bg && j == nil {
		before, _ = term.GetState(t.tty)
	}
	var cmd *exec.Cmd
	var err error
	newGroup := false // a background job's group is gone: start another
	for {
		attr := &syscall.SysProcAttr{Setpgid: true}
		switch {
		case j != nil && j.state() != procDone && !newGroup:
			attr.Pgid = j.pgid
		case !bg:
			attr.Foreground, attr.Ctty = true, t.tty
		}
		cmd, err = start(withAttr(newCmd(), attr))
		if err != nil && attr.Pgid != 0 &&
			(errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.ESRCH)) {
			// The group's last process has gone meanwhile (maybe
			// not yet marked done): start a group of its own.
			if !bg {
				j = nil
				before, _ = term.GetState(t.tty)
			} else {
				newGroup = true
			}
			continue
		}
		break
	}
	if err != nil {
		if !bg && j == nil {
			// The child may have taken the terminal before its exec
			// failed.
			handTerminal(t.tty, t.pgid, t.sigs)
		}
		return nil, nil, err
	}
	p := &proc{pid: cmd.Process.Pid, args: args, pos: pos}
	if j == nil {
		j = &job{pgid: p.pid, bg: bg, token: token, line: line}
		if bg {
			r, fresh := t.pending[token]
			delete(t.pending, token)
			if !fresh {
				// A later program of a background statement
				// whose job was reported done already.
				r = &reservation{text: shellWords(args)}
			}
			j.text = r.text
			t.add(j, r.id)
			if r.id > 0 {
				fmt.Fprintf(t.notice, "[%d] %d\n", j.id, p.pid)
			}
		} else {
			j.before = before
			t.fg, t.term = j, j
		}
	} else if newGroup || j.pgid <= 0 || j.state() == procDone {
		j.pgid = p.pid
	}
	j.procs = append(j.procs, p)
	if !bg && resume {
		j.resume = true
	}
	if !bg {
		// A pipeline's programs may start in any order; their
		// places in the source put them back in order.
		procs := slices.Clone(j.procs)
		slices.SortStableFunc(procs, func(a, b *proc) int { return int(a.pos) - int(b.pos) })
		texts := make([]string, len(procs))
		for i, p := range procs {
			texts[i] = shellWords(p.args)
		}
		j.text = strings.Join(texts, " | ")
	}
	t.broadcast()
	go t.watch(j, p, cmd)
	return j, p, nil
}

func withAttr(cmd *exec.Cmd, attr *syscall.SysProcAttr) *exec.Cmd {
	cmd.SysProcAttr = attr
	return cmd
}

// shellWords quotes args as a command line.
func shellWords(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = a
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`*?[]{}()<>|&;#~!") {
			q[i] = quote(a)
		}
	}
	return strings.Join(q, " ")
}

// watch follows a process until it is gone, reaping it.
func (t *jobs) watch(j *job, p *proc, cmd *exec.Cmd) {
	for {
		var ws syscall.WaitStatus
		_, err := syscall.Wait4(p.pid, &ws, syscall.WUNTRACED|syscall.WCONTINUED, nil)
		if err == syscall.EINTR {
			continue
		}
		t.mu.Lock()
		was := j.state()
		switch {
		case err != nil: // cannot happen: the process is ours
			p.state, p.status = procDone, 127
		case ws.Stopped():
			p.state, p.sig, p.status = procStopped, ws.StopSignal(), 128+int(ws.StopSignal())
		case ws.Continued():
			p.state = procRunning
		case ws.Signaled():
			p.state, p.sig, p.status = procDone, ws.Signal(), 128+int(ws.Signal())
		default:
			p.state, p.sig, p.status = procDone, 0, ws.ExitStatus()
		}
		if j.state() != was {
			j.noted = false
		}
		if t.term == j && j.state() != procRunning {
			t.reclaim(j)
		}
		if t.fg == j && j.state() == procDone {
			t.fg = nil
		}
		t.broadcast()
		gone := p.state == procDone
		t.mu.Unlock()
		if gone {
			cmd.Process.Release()
			return
		}
	}
}

// reclaim takes the terminal back from j, which stopped or ended; t.mu is
// held. A job that stopped keeps its terminal modes for fg, and the
// shell's come back.
func (t *jobs) reclaim(j *job) {
	t.term = nil
	stopped := j.state() == procStopped
	if stopped {
		j.modes, _ = term.GetState(t.tty)
	}
	if err := handTerminal(t.tty, t.pgid, t.sigs); err != nil {
		fmt.Fprintf(t.notice, "qsh: cannot take the terminal back: %v\n", err)
	}
	if (stopped || j.status() > 128) && j.before != nil {
		term.Restore(t.tty, j.before)
	}
}

// give gives the terminal to j, in the modes it had when it stopped; t.mu
// is held.
func (t *jobs) give(j *job) {
	j.before, _ = term.GetState(t.tty)
	if j.modes != nil {
		term.Restore(t.tty, j.modes)
	}
	if err := handTerminal(t.tty, j.pgid, t.sigs); err != nil {
		fmt.Fprintf(t.notice, "qsh: cannot give the terminal to job %d: %v\n", j.id, err)
		return
	}
	t.term = j
}

// continueJob sends SIGCONT to j's group and marks its stopped processes
// as running, so that a wait does not see the old stop; t.mu is held.
func (t *jobs) continueJob(j *job) {
	for _, p := range j.procs {
		if p.state == procStopped {
			p.state = procRunning
		}
	}
	j.noted = false
	unix.Kill(-j.pgid, unix.SIGCONT)
	t.broadcast()
}

// stopped lists a foreground job that stopped and says so, once; t.mu is
// held.
func (t *jobs) stopped(j *job) {
	if t.fg == j {
		t.fg = nil
	}
	j.bg = false
	t.add(j, 0)
	if !j.noted {
		j.noted = true
		cur, prev := t.current()
		fmt.Fprintf(t.notice, "\n%s\n", t.line(j, cur, prev, false))
	}
}

// waitForeground waits until foreground process p has ended, or stopped
// with the rest of its job, and returns its status.
// interrupted says it died of SIGINT.
func (t *jobs) waitForeground(j *job, p *proc) (status int, interrupted bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for {
		if p.state == procDone {
			return p.status, p.sig == syscall.SIGINT
		}
		if p.state == procStopped && j.state() == procStopped {
			if j.resume {
				t.resumeForeground(j)
				continue
			}
			t.stopped(j)
			return p.status, false
		}
		t.wait()
	}
}

// resumeForeground gives the terminal back to foreground job j, which
// stopped, and continues it: the shell runs part of its pipeline, which
// would wait for it for ever (bash stops the whole pipeline; goroutines
// cannot be stopped). It says so once; t.mu is held.
func (t *jobs) resumeForeground(j *job) {
	if !j.said {
		j.said = true
		fmt.Fprintf(t.notice, "\r\nqsh: cannot stop a pipeline the shell runs part of; resuming it (Ctrl-C stops it)\r\n")
	}
	t.give(j)
	t.continueJob(j)
}

// signal sends sig to p unless it is gone.
func (t *jobs) signal(p *proc, sig syscall.Signal) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if p.state != procDone {
		unix.Kill(p.pid, sig)
	}
}

// waitBackground waits until background process p has ended, or gives up
// when done is closed (the line was interrupted) or the shell is told to
// (an interrupted wait); the process goes on as a job.
func (t *jobs) waitBackground(done <-chan struct{}, p *proc) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	gen := t.gen
	for p.state != procDone && t.gen == gen {
		ch := t.changed
		t.mu.Unlock()
		select {
		case <-ch:
		case <-done:
			t.mu.Lock()
			return 130
		}
		t.mu.Lock()
	}
	if p.state != procDone {
		return 130
	}
	return p.status
}

// detach makes background waits give up, if a wait builtin runs.
func (t *jobs) detach() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.waiting > 0 {
		t.gen++
		t.broadcast()
	}
}

// foreground runs j in the foreground (fg) and waits until it ends or
// stops; it returns j's status.
func (t *jobs) foreground(j *job) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	j.bg = false
	t.touch(j)
	t.give(j)
	t.continueJob(j)
	for {
		switch j.state() {
		case procDone:
			if t.term == j {
				t.reclaim(j)
			}
			t.remove(j)
			return j.status()
		case procStopped:
			if t.term == j {
				t.reclaim(j)
			}
			t.stopped(j)
			return 128 + int(j.stopSignal())
		}
		t.wait()
	}
}

// report prints what changed in the listed jobs since the last report
// (done, or stopped in the background) and forgets the jobs that are
// done. It first waits a moment for the background statements of the
// last line to start their programs, so that `[1] pid` comes before the
// prompt.
func (t *jobs) report() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.warnedBefore = false
	if j := t.fg; j != nil {
		// A program of a background statement qsh could not mark
		// (`eval`, `source`) joined the foreground: the line is over,
		// so it runs in the background.
		t.fg = nil
		if j.state() == procRunning {
			j.bg = true
			t.add(j, 0)
			j.noted = true
			fmt.Fprintf(t.notice, "[%d] %d\n", j.id, j.pgid)
		}
		if t.term == j {
			t.reclaim(j)
		}
	}
	pending := func(tok string) bool { _, ok := t.pending[tok]; return ok }
	if slices.ContainsFunc(t.fresh, pending) {
		timeout, stop := t.clock.after(reportWait)
		t.awaitLocked(context.Background(), timeout, func() bool { return !slices.ContainsFunc(t.fresh, pending) })
		stop()
	}
	for _, tok := range t.fresh {
		if r := t.pending[tok]; r != nil {
			r.id = 0 // too late for a `[n] pid` notice
		}
	}
	t.fresh = t.fresh[:0]
	cur, prev := t.current()
	for _, j := range slices.Clone(t.list) {
		st := j.state()
		if j.noted && st != procDone {
			continue
		}
		if st == procRunning {
			continue
		}
		fmt.Fprintln(t.notice, t.line(j, cur, prev, false))
		j.noted = true
		if st == procDone {
			t.remove(j)
		}
	}
}

// holdExit reports whether the shell should not exit yet: the first time
// the user tries with stopped jobs, it warns instead.
func (t *jobs) holdExit() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	stopped := false
	for _, j := range t.list {
		stopped = stopped || j.state() == procStopped
	}
	// A second try right after the warning (no command in between)
	// exits.
	if !stopped || t.warned || t.warnedBefore {
		return false
	}
	t.warned = true
	fmt.Fprintln(t.notice, "There are stopped jobs.")
	return true
}

// hangup is for the shell's exit: stopped jobs get SIGHUP and SIGCONT, as
// the kernel would send them when their group is orphaned, so that none
// is left stopped for ever. Running jobs go on, as with bash, unless all
// is set (the terminal hung up).
func (t *jobs) hangup(all bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, j := range t.list {
		st := j.state()
		if j.nohup || st == procDone || st == procRunning && !all {
			continue
		}
		unix.Kill(-j.pgid, unix.SIGHUP)
		if st == procStopped {
			unix.Kill(-j.pgid, unix.SIGCONT)
		}
	}
}
