package eval

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/term"
)

func jobBuiltins() []*Builtin {
	return []*Builtin{
		{Name: "wait", Usage: "wait [-fn] [-p var] [id ...]", Guarded: true, Run: builtinWait},
		{Name: "jobs", Usage: "jobs [-lnprs] [jobspec ...] or jobs -x command [args]", Guarded: true, Run: builtinJobs},
		{Name: "fg", Usage: "fg [job_spec]", Run: builtinFg},
		{Name: "bg", Usage: "bg [job_spec ...]", Run: builtinBg},
		{Name: "kill", Usage: "kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]", Run: builtinKill},
		{Name: "disown", Usage: "disown [-h] [-ar] [jobspec ... | pid ...]", Run: builtinDisown},
		{Name: "suspend", Usage: "suspend [-f]", Run: builtinSuspend},
		{Name: "trap", Usage: "trap [-lp] [[arg] signal_spec ...]", Special: true, Guarded: true, Run: builtinTrap},
	}
}

// findJob reads a job spec (%n %+ %% %- %str %?str) or a process ID; t.mu
// is held.
func (t *jobTable) findJob(spec string) (*job, string) {
	if !strings.HasPrefix(spec, "%") {
		pid, err := strconv.Atoi(spec)
		if err != nil {
			return nil, spec + ": arguments must be process or job IDs"
		}
		if p := t.procs[pid]; p != nil {
			if j := t.jobOf[p]; j != nil {
				return j, ""
			}
		}
		// A job remembers its programs after they end, until it is
		// waited for: bash's wait $! gives a finished job's status.
		for _, j := range t.list {
			for _, p := range j.procs {
				if p.pid == pid {
					return j, ""
				}
			}
		}
		return nil, "pid " + spec + " is not a child of this shell"
	}
	s := spec[1:]
	cur, prev := t.current()
	switch {
	case s == "" || s == "+" || s == "%":
		if cur == nil {
			return nil, "current: no such job"
		}
		return cur, ""
	case s == "-":
		if prev == nil {
			if cur != nil {
				return cur, ""
			}
			return nil, "previous: no such job"
		}
		return prev, ""
	}
	if n, err := strconv.Atoi(s); err == nil {
		for _, j := range t.list {
			if j.id == n {
				return j, ""
			}
		}
		return nil, spec + ": no such job"
	}
	var match *job
	contains := strings.HasPrefix(s, "?")
	needle := strings.TrimPrefix(s, "?")
	for _, j := range t.list {
		if contains && strings.Contains(j.text, needle) || !contains && strings.HasPrefix(j.text, needle) {
			if match != nil {
				return nil, spec + ": ambiguous job spec"
			}
			match = j
		}
	}
	if match == nil {
		return nil, spec + ": no such job"
	}
	return match, ""
}

func builtinWait(b *B) int {
	r := b.R
	f, args, ok := b.flags("fnp:", false)
	if !ok {
		return 2
	}
	t := r.sess.jobs
	pvar := f.val('p')
	if f.has('n') {
		return r.waitAny(b, args, pvar)
	}
	if len(args) == 0 {
		// Every background job; a trapped signal ends the wait.
		for {
			t.mu.Lock()
			var pending []*job
			for _, j := range t.list {
				if j.owner == r.pid && j.state() == procRunning {
					pending = append(pending, j)
				}
			}
			if len(pending) == 0 {
				// remove deletes from t.list (and clears its tail):
				// range over a copy.
				for _, j := range slices.Clone(t.list) {
					if j.owner == r.pid && j.state() == procDone {
						t.remove(j)
					}
				}
				t.mu.Unlock()
				// bash waits for the last process substitution too.
				if !r.waitProcSubst() {
					return 130
				}
				return 0
			}
			gen := t.gen
			t.mu.Unlock()
			if st, interrupted := r.waitChange(gen); interrupted {
				return st
			}
		}
	}
	status := 0
	for _, a := range args {
		t.mu.Lock()
		j, msg := t.findJob(a)
		var p *proc
		if !strings.HasPrefix(a, "%") {
			if pid, err := strconv.Atoi(a); err == nil {
				p = t.procs[pid]
			}
		}
		ended, wasBg := 0, false
		if j == nil && p == nil {
			if pid, err := strconv.Atoi(a); err == nil {
				ended, wasBg = t.ended[pid]
			}
		}
		t.mu.Unlock()
		if wasBg {
			status = ended
			continue
		}
		if j == nil && p == nil {
			b.Errorf("%s", msg)
			status = 127
			continue
		}
		for {
			t.mu.Lock()
			done := false
			if p != nil {
				done = p.state == procDone
				if done {
					status = p.status
					if j == nil || j.state() == procDone {
						delete(t.procs, p.pid)
					}
				}
			} else {
				done = j.state() != procRunning
				if done {
					status = j.status()
				}
			}
			if done && j != nil && j.state() == procDone {
				t.remove(j)
			}
			gen := t.gen
			t.mu.Unlock()
			if done {
				break
			}
			if st, interrupted := r.waitChange(gen); interrupted {
				return st
			}
		}
	}
	return status
}

// waitAny is wait -n: the next job to end (among ids when given).
func (r *Runner) waitAny(b *B, ids []string, pvar string) int {
	t := r.sess.jobs
	for {
		t.mu.Lock()
		var candidates []*job
		if len(ids) == 0 {
			candidates = append(candidates, t.list...)
		} else {
			for _, id := range ids {
				if j, _ := t.findJob(id); j != nil {
					candidates = append(candidates, j)
				}
			}
		}
		if len(candidates) == 0 {
			t.mu.Unlock()
			return 127
		}
		for _, j := range candidates {
			if j.state() == procDone && !j.waited {
				j.waited = true
				st := j.status()
				pid := 0
				if len(j.procs) > 0 {
					pid = j.procs[len(j.procs)-1].pid
				}
				t.remove(j)
				t.mu.Unlock()
				if pvar != "" {
					r.assign(pvar, itoa(int64(pid)), false)
				}
				return st
			}
		}
		running := false
		for _, j := range candidates {
			running = running || j.state() == procRunning
		}
		gen := t.gen
		t.mu.Unlock()
		if !running {
			return 127
		}
		if st, interrupted := r.waitChange(gen); interrupted {
			return st
		}
	}
}

// waitChange waits until a process changes state, or a trapped signal
// comes (then it returns 128+N and true).
func (r *Runner) waitChange(gen uint64) (int, bool) {
	t := r.sess.jobs
	if r.sess.interrupted.Load() {
		return 130, true // a Ctrl-C came before the wait began
	}
	ch := make(chan struct{})
	stop := false
	go func() {
		// A change since the caller looked (gen moved on) counts: a
		// broadcast before this Wait would be lost otherwise.
		t.mu.Lock()
		for t.gen == gen && !stop {
			t.cond.Wait()
		}
		t.mu.Unlock()
		close(ch)
	}()
	var sigWake <-chan struct{}
	if r.sess.sigs != nil {
		sigWake = r.sess.sigs.woken()
	}
	select {
	case <-ch:
		if r.sess.interrupted.Load() {
			return 130, true
		}
		return 0, false
	case <-sigWake:
		// Wake the helper goroutine so that it does not linger.
		t.mu.Lock()
		stop = true
		t.cond.Broadcast()
		t.mu.Unlock()
		for n := range r.sess.sigs.pending {
			if r.sess.sigs.pending[n].Load() {
				if _, ok := r.traps.get(signalName(syscall.Signal(n))); ok {
					return 128 + n, true
				}
			}
		}
		return 0, false
	case <-r.ctx.Done():
		t.mu.Lock()
		stop = true
		t.cond.Broadcast()
		t.mu.Unlock()
		return 130, true
	}
}

func builtinJobs(b *B) int {
	r := b.R
	f, args, ok := b.flags("lnprsx", false)
	if !ok {
		return 2
	}
	t := r.sess.jobs
	t.mu.Lock()
	defer t.mu.Unlock()
	cur, prev := t.current()
	list := t.list
	if r.subshell == 0 {
		// Not the jobs of subshells, which bash's would not know; a
		// subshell lists the shell's ($(jobs -p)).
		list = nil
		for _, j := range t.list {
			if j.owner == r.pid {
				list = append(list, j)
			}
		}
	}
	if len(args) > 0 {
		list = nil
		for _, a := range args {
			j, msg := t.findJob(a)
			if j == nil {
				b.Errorf("%s", msg)
				return 1
			}
			list = append(list, j)
		}
	}
	for _, j := range list {
		st := j.state()
		if f.has('r') && st != procRunning || f.has('s') && st != procStopped {
			continue
		}
		if f.has('n') && j.noted {
			continue
		}
		if f.has('p') {
			pid := j.pg
			if len(j.procs) > 0 {
				pid = j.procs[0].pid
				if j.pg > 0 {
					pid = j.pg
				}
			}
			fmt.Fprintln(b.Stdout(), pid)
			continue
		}
		fmt.Fprintln(b.Stdout(), t.line(j, cur, prev, f.has('l')))
		if st == procDone {
			j.noted = true
		}
	}
	if len(args) == 0 {
		for _, j := range append([]*job(nil), t.list...) {
			if j.state() == procDone && j.noted {
				t.remove(j)
			}
		}
	}
	return 0
}

func (r *Runner) jobArg(b *B, args []string) (*job, bool) {
	t := r.sess.jobs
	spec := "%+"
	if len(args) > 0 {
		spec = args[0]
	}
	j, msg := t.findJob(spec)
	if j == nil {
		b.Errorf("%s", msg)
		return nil, false
	}
	return j, true
}

func builtinFg(b *B) int {
	r := b.R
	t := r.sess.jobs
	if !t.control {
		b.Errorf("no job control")
		return 1
	}
	t.mu.Lock()
	j, ok := r.jobArg(b, b.Args[1:])
	if !ok {
		t.mu.Unlock()
		return 1
	}
	if j.state() == procDone {
		t.mu.Unlock()
		b.Errorf("job has terminated")
		return 1
	}
	fmt.Fprintln(b.Stdout(), j.text)
	j.fg = true
	j.noted = false
	t.touch(j)
	j.before, _ = term.GetState(t.tty)
	if j.modes != nil {
		term.Restore(t.tty, j.modes)
	}
	if j.pg > 0 {
		handTerminal(t.tty, j.pg)
		syscall.Kill(-j.pg, syscall.SIGCONT)
	}
	for _, p := range j.procs {
		if p.state == procStopped {
			p.state = procRunning
		}
	}
	for j.state() == procRunning {
		t.cond.Wait()
	}
	t.mu.Unlock()
	r.foregroundDone(j)
	t.mu.Lock()
	defer t.mu.Unlock()
	if j.state() == procDone {
		t.remove(j)
		return j.status()
	}
	for _, p := range j.procs {
		if p.state == procStopped {
			return p.status
		}
	}
	return 0
}

func builtinBg(b *B) int {
	r := b.R
	t := r.sess.jobs
	if !t.control {
		b.Errorf("no job control")
		return 1
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	specs := b.Args[1:]
	if len(specs) == 0 {
		specs = []string{"%+"}
	}
	status := 0
	for _, s := range specs {
		j, msg := t.findJob(s)
		if j == nil {
			b.Errorf("%s", msg)
			status = 1
			continue
		}
		if j.state() == procRunning {
			b.Errorf("job %d already in background", j.id)
			continue
		}
		j.fg = false
		cur, _ := t.current()
		mark := ' '
		if j == cur {
			mark = '+'
		}
		fmt.Fprintf(b.Stdout(), "[%d]%c %s &\n", j.id, mark, j.text)
		for _, p := range j.procs {
			if p.state == procStopped {
				p.state = procRunning
			}
		}
		if j.pg > 0 {
			syscall.Kill(-j.pg, syscall.SIGCONT)
		}
	}
	return status
}

func builtinKill(b *B) int {
	r := b.R
	args := b.Args[1:]
	sig := syscall.SIGTERM
	if len(args) == 0 {
		b.usage()
		return 2
	}
	switch a := args[0]; {
	case a == "-l" || a == "-L":
		return listSignals(b, args[1:], false)
	case a == "-s" || a == "-n":
		if len(args) < 2 {
			b.Errorf("%s: option requires an argument", a)
			return 2
		}
		s, ok := signalNum(args[1])
		if !ok {
			b.Errorf("%s: invalid signal specification", args[1])
			return 1
		}
		sig, args = s, args[2:]
	case a == "--":
		args = args[1:]
	case len(a) > 1 && a[0] == '-':
		s, ok := signalNum(a[1:])
		if !ok {
			b.Errorf("%s: invalid signal specification", a[1:])
			return 1
		}
		sig, args = s, args[1:]
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	status := 0
	t := r.sess.jobs
	for _, a := range args {
		if strings.HasPrefix(a, "%") {
			t.mu.Lock()
			j, msg := t.findJob(a)
			if j == nil {
				t.mu.Unlock()
				b.Errorf("%s", msg)
				status = 1
				continue
			}
			t.signalJob(j, sig)
			t.mu.Unlock()
			continue
		}
		pid, err := strconv.Atoi(a)
		if err != nil {
			b.Errorf("%s: arguments must be process or job IDs", a)
			status = 1
			continue
		}
		t.mu.Lock()
		if p := t.procs[pid]; p != nil && p.fake {
			j := t.jobOf[p]
			if j != nil {
				t.signalJob(j, sig)
			}
			t.mu.Unlock()
			continue
		}
		t.mu.Unlock()
		self := r.sess.pid
		toSelf := pid == self || pid == 0 || pid == -1 || pid == -syscall.Getpgrp()
		var wake <-chan struct{}
		if toSelf && sig != 0 && r.sess.sigs != nil {
			wake = r.sess.sigs.woken()
		}
		if _, trapped := r.traps.get("QUIT"); pid == self && sig == syscall.SIGQUIT && !trapped {
			// bash ignores SIGQUIT: sent to itself, it does nothing
			// (Go's runtime, not yet catching it, would dump and exit).
			continue
		}
		if pid == self && r.diesBy(sig) {
			// Go's runtime would end the process at once, before the
			// EXIT trap bash runs.
			r.signalledSelf(sig, nil)
			continue
		}
		if err := syscall.Kill(pid, sig); err != nil {
			b.Errorf("(%d) - %s", pid, errText(err))
			status = 1
			continue
		}
		if toSelf && sig != 0 {
			r.signalledSelf(sig, wake)
		}
	}
	return status
}

// signalJob sends sig to a job: its process group, or its processes; a
// statement the shell runs itself is stopped when sig ends processes.
func (t *jobTable) signalJob(j *job, sig syscall.Signal) {
	send := func(sig syscall.Signal) {
		if j.pg > 0 && t.control {
			syscall.Kill(-j.pg, sig)
			return
		}
		for _, p := range j.procs {
			if !p.fake && p.state != procDone {
				syscall.Kill(p.pid, sig)
			}
		}
	}
	send(sig)
	if sig == 0 || sig == syscall.SIGCONT || sig == syscall.SIGSTOP || sig == syscall.SIGTSTP ||
		sig == syscall.SIGCHLD || sig == syscall.SIGWINCH || sig == syscall.SIGURG {
		return
	}
	if j.state() == procStopped && sig != syscall.SIGKILL && sig != syscall.SIGTTIN && sig != syscall.SIGTTOU {
		// A stopped job would keep the signal pending: it is continued
		// to take it, as bash does.
		send(syscall.SIGCONT)
	}
	for _, p := range j.procs {
		if p.fake && p.state != procDone && p.cancel != nil {
			p.killedBy = sig
			p.cancel()
		}
	}
	if sig == syscall.SIGCONT {
		for _, p := range j.procs {
			if p.state == procStopped {
				p.state = procRunning
			}
		}
	}
}

// listSignals is kill -l and trap -l: with no operands the table (for
// kill in posix mode, names on one line), else each number's name (without
// SIG for kill; 0 is EXIT) and each name's number. forceCols is trap's.
func listSignals(b *B, args []string, forceCols bool) int {
	w := b.Stdout()
	posix := b.R.opts.set[optPosix] && !forceCols
	if len(args) == 0 {
		var sb strings.Builder
		col := 0
		for n := 1; n <= maxSignal(); n++ {
			name := signalName(syscall.Signal(n))
			if name == "" {
				continue
			}
			if posix {
				if sb.Len() > 0 {
					sb.WriteByte(' ')
				}
				sb.WriteString(name)
				continue
			}
			fmt.Fprintf(&sb, "%2d) SIG%s", n, name)
			if col++; col < 5 {
				sb.WriteByte('\t')
			} else {
				sb.WriteByte('\n')
				col = 0
			}
		}
		if posix || col != 0 {
			sb.WriteByte('\n')
		}
		fmt.Fprint(w, sb.String())
		return 0
	}
	status := 0
	for _, a := range args {
		if n, ok := testInt(a); ok {
			if n > 128 {
				n -= 128
			}
			if n < 0 || n > int64(maxSignal()) {
				b.Errorf("%s: invalid signal specification", a)
				status = 1
				continue
			}
			switch name := signalName(syscall.Signal(n)); {
			case n == 0:
				fmt.Fprintln(w, "EXIT")
			case name == "":
				// A number with no signal (32, 33 on Linux): nothing.
			case b.Args[0] == "kill":
				fmt.Fprintln(w, name)
			default:
				fmt.Fprintln(w, "SIG"+name)
			}
			continue
		}
		if strings.EqualFold(a, "EXIT") {
			fmt.Fprintln(w, 0)
			continue
		}
		s, ok := signalNum(a)
		if !ok || s == 0 {
			b.Errorf("%s: invalid signal specification", a)
			status = 1
			continue
		}
		fmt.Fprintln(w, int(s))
	}
	return status
}

func builtinDisown(b *B) int {
	r := b.R
	f, args, ok := b.flags("har", false)
	if !ok {
		return 2
	}
	t := r.sess.jobs
	t.mu.Lock()
	defer t.mu.Unlock()
	if r.subshell > 0 {
		// The jobs are the shell's: a subshell, which bash forks with a
		// table of its own, disowns none of them.
		switch {
		case f.has('a') || f.has('r'):
			return 0
		case len(args) == 0:
			b.Errorf("current: no such job")
		default:
			b.Errorf("%s: no such job", args[0])
		}
		return 1
	}
	var list []*job
	switch {
	case f.has('a') || f.has('r'):
		for _, j := range t.list {
			if !f.has('r') || j.state() == procRunning {
				list = append(list, j)
			}
		}
	case len(args) == 0:
		cur, _ := t.current()
		if cur == nil {
			b.Errorf("current: no such job")
			return 1
		}
		list = []*job{cur}
	default:
		for _, a := range args {
			j, msg := t.findJob(a)
			if j == nil {
				b.Errorf("%s", msg)
				return 1
			}
			list = append(list, j)
		}
	}
	for _, j := range list {
		if f.has('h') {
			j.nohup = true
			continue
		}
		t.list = removeJob(t.list, j)
	}
	return 0
}

func removeJob(list []*job, j *job) []*job {
	out := list[:0]
	for _, o := range list {
		if o != j {
			out = append(out, o)
		}
	}
	return out
}

func builtinSuspend(b *B) int {
	r := b.R
	f, _, ok := b.flags("f", false)
	if !ok {
		return 2
	}
	if !r.opts.set[optMonitor] && !f.has('f') {
		// Stopping a shell no job control will continue leaves it stuck.
		b.Errorf("cannot suspend: no job control")
		return 1
	}
	if r.sess.login && !f.has('f') {
		b.Errorf("cannot suspend a login shell")
		return 1
	}
	syscall.Kill(0, syscall.SIGSTOP)
	return 0
}

func builtinTrap(b *B) int {
	r := b.R
	args := b.Args[1:]
	printTraps := func(names []string) int {
		list := r.traps.list()
		if names == nil {
			for n := range list {
				names = append(names, n)
			}
			trapOrder(names)
		}
		status := 0
		for _, n := range names {
			key, ok := trapKey(n)
			if !ok {
				b.Errorf("%s: invalid signal specification", n)
				status = 1
				continue
			}
			cmd, ok := list[key]
			if !ok {
				continue
			}
			fmt.Fprintf(b.Stdout(), "trap -- %s %s\n", shellQuoteTrap(cmd), r.trapShown(key))
		}
		return status
	}
	display, list := false, false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		if a == "--" {
			args = args[1:]
			break
		}
		if a == "-" {
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 'l':
				list = true
			case 'p':
				display = true
			default:
				return b.UsageError("-" + string(c))
			}
		}
		args = args[1:]
	}
	if list {
		return listSignals(b, nil, true)
	}
	if display || len(args) == 0 {
		if len(args) == 0 && display && r.opts.set[optPosix] {
			return printAllTraps(b)
		}
		if len(args) == 0 {
			return printTraps(nil)
		}
		return printTraps(args)
	}
	// bash: a first operand that is a signal number, or (outside posix
	// mode) a lone signal, resets; '' ignores; - resets.
	action := args[0]
	conds := args
	reset := false
	_, isSig := trapKey(action)
	switch {
	case action != "" && strings.Trim(action, "0123456789") == "" && isSig:
		reset = true
	case !r.opts.set[optPosix] && action != "-" && isSig && len(args) == 1:
		reset = true
	case len(args) == 1:
		b.usage()
		return 2
	default:
		conds = args[1:]
		reset = action == "-"
	}
	status := 0
	for _, c := range conds {
		key, ok := trapKey(c)
		if !ok {
			b.Errorf("%s: invalid signal specification", c)
			status = 1
			continue
		}
		sig, isSig := signalNum(key)
		if key == "EXIT" || key == "ERR" || key == "DEBUG" || key == "RETURN" {
			isSig = false
		}
		if reset {
			r.traps.reset(key)
		} else {
			r.traps.set(key, action)
			if key == "RETURN" {
				r.sess.returnTrapCalls = map[int]bool{}
				for _, f := range r.frames {
					r.sess.returnTrapCalls[f.call] = true
				}
			}
		}
		if isSig {
			r.setSignalTrap(sig, action, reset)
		}
	}
	return status
}

// trapShown is how trap -p names a condition: SIGHUP, or HUP in posix
// mode; EXIT, DEBUG, ERR, RETURN as they are.
func (r *Runner) trapShown(key string) string {
	if _, isSig := signalNum(key); isSig && key != "EXIT" && !r.opts.set[optPosix] {
		return "SIG" + key
	}
	return key
}

// printAllTraps is trap -p in posix mode: every condition, - for those
// left at their default.
func printAllTraps(b *B) int {
	r := b.R
	list := r.traps.list()
	show := func(key, shown string) {
		cmd, ok := list[key]
		if !ok {
			fmt.Fprintf(b.Stdout(), "trap -- - %s\n", shown)
			return
		}
		fmt.Fprintf(b.Stdout(), "trap -- %s %s\n", shellQuoteTrap(cmd), shown)
	}
	show("EXIT", "EXIT")
	for n := 1; n <= maxSignal(); n++ {
		name := signalName(syscall.Signal(n))
		if name == "" {
			show("", strconv.Itoa(n))
			continue
		}
		show(name, name)
	}
	for _, k := range []string{"DEBUG", "ERR", "RETURN"} {
		show(k, k)
	}
	return 0
}

// trapKey is the name traps are kept under: EXIT, ERR, DEBUG, RETURN, or
// a signal's name without SIG.
func trapKey(s string) (string, bool) {
	u := strings.ToUpper(s)
	switch strings.TrimPrefix(u, "SIG") {
	case "EXIT", "ERR", "DEBUG", "RETURN":
		return strings.TrimPrefix(u, "SIG"), true
	}
	if s == "0" {
		return "EXIT", true
	}
	sig, ok := signalNum(s)
	if !ok || sig == 0 {
		return "", false
	}
	return signalName(sig), true
}

func shellQuoteTrap(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
