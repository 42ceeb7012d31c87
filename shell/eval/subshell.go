package eval

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// subshellRun runs f in a subshell and waits: nothing it changes leaks
// out; its status is the parent's.
func (r *Runner) subshellRun(f func(sub *Runner)) {
	sub := r.fork()
	sub.ctx = r.ctx
	sub.runSubshell(f)
	r.status = sub.status
}

// runSubshell runs f as the body of a subshell: an exit ends it there,
// and its EXIT trap runs at its end.
func (sub *Runner) runSubshell(f func(sub *Runner)) {
	sub.guard(func() { f(sub) })
	if sub.flow == flowReturn && len(sub.frames) > 0 {
		// return in a function whose body is a subshell: f() ( return 1 )
		sub.flow = flowNone
	}
	sub.flow = flowNone
	sub.runExitTrap()
	sub.fds.release()
}

// pipeline runs a | b | c: each element in a subshell of its own, joined
// by pipes, at once; the status is the last one's (or with pipefail the
// last that failed), and PIPESTATUS has them all.
func (r *Runner) pipeline(c *syntax.BinaryCmd) {
	var elems []*syntax.Stmt
	var alls []bool // |& : stderr too
	var flatten func(c *syntax.BinaryCmd)
	flatten = func(c *syntax.BinaryCmd) {
		if x, ok := c.X.Cmd.(*syntax.BinaryCmd); ok && (x.Op == syntax.Pipe || x.Op == syntax.PipeAll) && !c.X.Negated && len(c.X.Redirs) == 0 && !c.X.Background {
			flatten(x)
		} else {
			elems = append(elems, c.X)
			alls = append(alls, c.Op == syntax.PipeAll)
		}
		elems = append(elems, c.Y)
		alls = append(alls, false)
	}
	flatten(c)
	n := len(elems)
	statuses := make([]int, n)
	var j *job
	ownJob := false
	if r.job != nil {
		j = r.job
	} else if r.sess.jobs.control && !r.inSubst {
		j = r.sess.jobs.newJob(true, r.srcOf(c))
		j.owner = r.pid
		ownJob = true
	}
	lastInShell := r.opts.shopt[optLastpipe] && !r.sess.jobs.control
	// bash runs the DEBUG trap before each simple command of a pipeline
	// in the shell itself, before it starts the element's process: what
	// the trap sets and BASH_COMMAND stay in the shell, and what it
	// prints does not go into the pipe.
	debugCmd, hasDebug := r.traps.get("DEBUG")
	hasDebug = hasDebug && debugCmd != "" && r.inDebugFunc == 0 && !r.inTrap["DEBUG"]
	var wg sync.WaitGroup
	var in *file
	for i, st := range elems {
		var out *file
		var nextIn *file
		if i < n-1 {
			pr, pw, err := os.Pipe()
			if err != nil {
				r.errorf("pipe: %v", err)
				r.status = 1
				return
			}
			out = ownedFile(pw, false, true)
			nextIn = ownedFile(pr, true, false)
		}
		if _, simple := st.Cmd.(*syntax.CallExpr); j != nil && (!simple || i == n-1 && lastInShell) {
			j.markShellPart()
		}
		runElem := func(sub *Runner, i int, st *syntax.Stmt, in, out *file, all bool) {
			if in != nil {
				sub.fds.set(0, in)
			}
			if out != nil {
				sub.fds.set(1, out)
				if all {
					sub.fds.set(2, out.hold())
				}
			}
			sub.job = j
			sub.stmt(st)
		}
		if i == n-1 && lastInShell {
			// lastpipe: the last element runs in the shell itself.
			var restore func()
			if in != nil {
				old := r.fds.swap(0, in)
				restore = func() {
					if cur := r.fds.swap(0, old); cur != nil {
						cur.drop()
					}
				}
			}
			r.stmt(st)
			if restore != nil {
				restore()
			}
			statuses[i] = r.status
			break
		}
		call, simple := st.Cmd.(*syntax.CallExpr)
		if simple {
			r.at(stmtLine(st))
			r.setCmdCall(st, call)
			if hasDebug {
				r.debugTrap()
			}
		}
		sub := r.fork()
		sub.ctx = r.ctx
		sub.pipeLast = i == n-1
		// A simple command is the pipeline's own process: bash tells
		// of its death by a signal only for the last.
		sub.inPipe = simple
		sub.pipeCmd = call
		wg.Add(1)
		go func(i int, st *syntax.Stmt, in, out *file, all bool) {
			defer wg.Done()
			sub.runSubshell(func(sub *Runner) { runElem(sub, i, st, in, out, all) })
			statuses[i] = sub.status
		}(i, st, in, out, alls[i])
		in = nextIn
	}
	wg.Wait()
	if ownJob {
		r.foregroundDone(j)
	}
	r.pipestatus = statuses
	r.status = statuses[n-1]
	if r.opts.set[optPipefail] {
		for _, s := range statuses {
			if s != 0 {
				r.status = s
			}
		}
	}
}

// cmdSubst runs $(…) and returns its output, trailing newlines removed.
func (r *Runner) cmdSubst(cs *syntax.CmdSubst) string {
	if r.dry {
		panic(wouldRun{})
	}
	if s, ok := r.catFile(cs); ok {
		return s
	}
	var buf bytes.Buffer
	out := newFile(nil, &lockedWriter{w: &buf}, "command substitution")
	// As bash reads its pipe to the end, the substitution lasts while a
	// background job started in it still holds its output.
	released := make(chan struct{})
	out.closeFn = func() error { close(released); return nil }
	sub := r.fork()
	sub.ctx = r.ctx
	sub.inSubst = true
	sub.substDepth++
	sub.job = nil
	sub.fds.set(1, out)
	if !r.opts.shopt[optInheritErrexit] {
		sub.opts.set[optErrexit] = false
	}
	sub.traps.forSubst()
	sub.runSubshell(func(sub *Runner) { sub.stmts(cs.Stmts) })
	select {
	case <-released:
	case <-r.ctx.Done():
	}
	r.status = sub.status
	r.substStatus = sub.status
	return strings.TrimRight(r.dropNuls(buf.String()), "\n")
}

// dropNuls removes the NUL bytes of a substitution's output, which bash's
// strings cannot hold, with bash's warning.
func (r *Runner) dropNuls(s string) string {
	if !strings.Contains(s, "\x00") {
		return s
	}
	r.errorf("warning: command substitution: ignored null byte in input")
	return strings.ReplaceAll(s, "\x00", "")
}

// catFile is $(< file): the file's content, without running anything.
func (r *Runner) catFile(cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	st := cs.Stmts[0]
	if st.Cmd != nil || len(st.Redirs) != 1 || st.Redirs[0].Op != syntax.RdrIn || st.Negated || st.Background {
		return "", false
	}
	name := r.redirTarget(st.Redirs[0].Word, true)
	f, err := r.openFileRW(name, os.O_RDONLY, true, true, false)
	if err != nil {
		r.errorf("%s", err.Error())
		r.status = 1
		r.substStatus = 1
		return "", true
	}
	defer f.drop()
	data, _ := io.ReadAll(f.r)
	r.status = 0
	r.substStatus = 0
	return strings.TrimRight(r.dropNuls(string(data)), "\n"), true
}

// procSubst runs <(…) or >(…) in the background, joined to the command by
// a pipe that the command opens as /dev/fd/N.
func (r *Runner) procSubst(ps *syntax.ProcSubst) string {
	if r.dry {
		panic(wouldRun{})
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		r.fatal(&varError{msg: "pipe: " + err.Error()})
	}
	var mine, theirs *file
	if ps.Op == syntax.CmdIn {
		mine, theirs = ownedFile(pr, true, false), ownedFile(pw, false, true)
	} else {
		mine, theirs = ownedFile(pw, false, true), ownedFile(pr, true, false)
	}
	n := r.fds.free(63)
	for r.fds.get(n) != nil {
		n++
	}
	r.fds.set(n, mine)
	r.procSubsts = append(r.procSubsts, n)
	sub := r.fork()
	sub.ctx = r.ctx
	sub.substDepth++
	sub.job = nil
	sub.fds.set(n, nil)
	if ps.Op == syntax.CmdIn {
		sub.fds.set(1, theirs)
	} else {
		sub.fds.set(0, theirs)
	}
	r.sess.bgWG.Add(1)
	done := make(chan struct{})
	r.sess.procSubstMu.Lock()
	r.sess.lastProcSubst = done
	r.sess.procSubstMu.Unlock()
	go func() {
		defer r.sess.bgWG.Done()
		defer close(done)
		sub.runSubshell(func(sub *Runner) { sub.stmts(ps.Stmts) })
	}()
	return "/dev/fd/" + itoa(int64(n))
}

// waitProcSubst waits for the last process substitution, as wait with no
// operands does in bash; false when the context ended first.
func (r *Runner) waitProcSubst() bool {
	r.sess.procSubstMu.Lock()
	done := r.sess.lastProcSubst
	r.sess.procSubstMu.Unlock()
	if done == nil {
		return true
	}
	select {
	case <-done:
		return true
	case <-r.ctx.Done():
		return false
	}
}

// closeProcSubsts closes the shell's ends of the process substitutions of
// a command that ended.
func (r *Runner) closeProcSubsts(mark int) {
	for _, n := range r.procSubsts[mark:] {
		r.fds.set(n, nil)
	}
	r.procSubsts = r.procSubsts[:mark]
}

// startJob runs st as a listed job of the shell's: in a subshell of its
// own, on a goroutine, with a stand-in process for kill and wait (a
// background statement, a coprocess). setup, when set, prepares the
// subshell first. done is closed when st has run.
func (r *Runner) startJob(text string, st *syntax.Stmt, setup func(sub *Runner)) (j *job, fake *proc, done chan struct{}) {
	t := r.sess.jobs
	j = t.newJob(false, text)
	j.owner = r.pid
	sub := r.fork()
	ctx, cancel := context.WithCancel(r.ctx)
	sub.ctx = ctx
	sub.job = j
	sub.bgJob = true
	sub.inSubst = false
	if !t.control {
		// Without job control, background commands ignore the
		// terminal's interrupts, as in bash.
		sub.ignoreInt = true
	}
	if setup != nil {
		setup(sub)
	}
	fake = t.trackFake(sub.pid, j, cancel)
	t.mu.Lock()
	t.add(j)
	t.mu.Unlock()
	done = make(chan struct{})
	r.sess.bgWG.Add(1)
	// A job that runs the shell's own code dies with the process, where
	// bash's forked one outlives the shell: the shell's exit waits for
	// it (WaitBackground). A coprocess is not waited for: it ends when
	// the shell's exit closes its input.
	code := setup == nil && !r.onlyPrograms(st)
	if code {
		r.sess.bgCode.Add(1)
	}
	go func() {
		defer r.sess.bgWG.Done()
		if code {
			defer r.sess.bgCode.Done()
		}
		defer close(done)
		defer cancel()
		sub.runSubshell(func(sub *Runner) { sub.stmt(st) })
		t.finish(fake, sub.status)
	}()
	return j, fake, done
}

// background runs a statement with & : in a subshell of its own, on a
// goroutine; $! is its program's process ID when it is a simple command
// that runs one.
func (r *Runner) background(st *syntax.Stmt) {
	stmt := *st
	stmt.Background, stmt.Coprocess = false, false
	if c, ok := stmt.Cmd.(*syntax.CallExpr); ok {
		// bash runs the DEBUG trap of a simple command before it forks
		// it (bash-preexec's preexec sees `cmd &`); the subshell, which
		// does not inherit the trap, runs none.
		r.setCmdCall(&stmt, c)
		r.debugTrap()
	}
	text := strings.TrimRight(strings.TrimSpace(r.srcOf(st)), "&")
	text = strings.TrimSpace(text)
	t := r.sess.jobs
	j, fake, done := r.startJob(text, &stmt, nil)
	// $! is the program's process ID when a simple command or a
	// pipeline ending in one runs a program at once, as bash's fork
	// would give; a stand-in otherwise.
	pid := fake.pid
	if r.execOutside {
		// A handler that starts programs itself (the assistant's guard)
		// tells no process ID: the stand-in is $!, which kill and
		// wait take all the same.
	} else if !hasSubst(st) {
		var started <-chan int
		switch c := st.Cmd.(type) {
		case *syntax.CallExpr:
			if r.mayRunProgram(c) {
				started = j.first
			}
		case *syntax.BinaryCmd:
			if last := pipeEnd(c); last != nil && r.mayRunProgram(last) {
				started = j.last
			}
		}
		if started != nil {
			pid = j.startedPid(started, done, pid)
		}
	} else if last := lastOfPipeline(st); last != nil && !hasSubst(st) {
		if _, simple := last.Cmd.(*syntax.CallExpr); simple {
			pid = j.startedPid(j.last, done, pid)
		}
	}
	r.lastBg = pid
	if r.sess.interactive && r.subshell == 0 && t.control {
		t.mu.Lock()
		fmt.Fprintf(t.notices, "[%d] %d\n", j.id, pid)
		t.mu.Unlock()
	}
	r.status = 0
}

// startedPid waits for a program's process ID or for the job to end, and
// prefers the ID: a job that ends at once has sent it too, and select
// would pick either at random. A job opening a FIFO may be waiting for
// the shell itself (cat <fifo & exec 3>fifo: bash's fork returns at once
// and the child waits in open): $! is then the stand-in, which kill and
// wait take all the same.
func (j *job) startedPid(started <-chan int, done <-chan struct{}, stand int) int {
	select {
	case p := <-started:
		return p
	case <-done:
	case <-j.fifo:
	}
	select {
	case p := <-started:
		return p
	default:
		return stand
	}
}

// onlyPrograms reports whether st only runs programs (a simple command, a
// pipeline of them): once started they need nothing of the shell.
func (r *Runner) onlyPrograms(st *syntax.Stmt) bool {
	if hasSubst(st) {
		return false
	}
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		return r.mayRunProgram(c)
	case *syntax.BinaryCmd:
		if c.Op != syntax.Pipe && c.Op != syntax.PipeAll {
			return false
		}
		return r.onlyPrograms(c.X) && r.onlyPrograms(c.Y)
	}
	return false
}

// WaitBackground waits, as a non-interactive shell exits, for its
// background jobs that run shell code (see startJob), or until ctx ends.
func (r *Runner) WaitBackground(ctx context.Context) {
	done := make(chan struct{})
	go func() {
		r.sess.bgCode.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// mayRunProgram reports whether a simple command may run a program: not
// when it only assigns, nor when its name is a function or a builtin.
func (r *Runner) mayRunProgram(c *syntax.CallExpr) bool {
	if len(c.Args) == 0 {
		return false
	}
	name := c.Args[0].Lit()
	return name == "" || r.funcs.get(name) == nil && r.sess.builtins[name] == nil
}

// pipeEnd is the last element of a pipeline when it is a simple command;
// nil for anything else.
func pipeEnd(c *syntax.BinaryCmd) *syntax.CallExpr {
	if c.Op != syntax.Pipe && c.Op != syntax.PipeAll {
		return nil
	}
	if c.Y.Negated || c.Y.Background {
		return nil
	}
	call, _ := c.Y.Cmd.(*syntax.CallExpr)
	return call
}

// hasSubst reports whether a statement holds a command substitution,
// whose expansion may take a while before any program starts.
func hasSubst(st *syntax.Stmt) bool {
	found := false
	walk(st, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			found = true
		}
		return !found
	})
	return found
}

// coproc starts a coprocess, as bash does: the command runs in the
// background with its input and output on pipes whose other ends the
// shell holds at high descriptors, NAME[0] to read from it and NAME[1] to
// write to it (COPROC when unnamed), its process ID in NAME_PID. The
// shell's ends are not passed to the programs it runs.
func (r *Runner) coproc(c *syntax.CoprocClause) {
	name := "COPROC"
	if c.Name != nil {
		name = c.Name.Lit()
	}
	if !validName(name) {
		r.errorf("`%s': not a valid identifier", name)
		r.status = 1
		return
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		r.errorf("coproc: %s", errText(err))
		r.status = 1
		return
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		r.errorf("coproc: %s", errText(err))
		r.status = 1
		return
	}
	t := r.sess.jobs
	if last := r.sess.coproc; last != nil {
		t.mu.Lock()
		running := last.j.state() != procDone
		t.mu.Unlock()
		if running {
			// bash keeps one coprocess; a second starts all the same.
			r.errorf("warning: execute_coproc: coproc [%d:%s] still exists", last.pid, last.name)
		}
	}
	j, fake, done := r.startJob(strings.TrimSpace(r.srcOf(c)), c.Stmt, func(sub *Runner) {
		sub.fds.set(0, ownedFile(inR, true, false))
		sub.fds.set(1, ownedFile(outW, false, true))
	})
	pid := fake.pid
	if _, simple := c.Stmt.Cmd.(*syntax.CallExpr); simple && !hasSubst(c.Stmt) {
		pid = j.startedPid(j.first, done, pid)
	}
	// bash moves the four pipe ends to the highest free descriptors
	// below 64 and keeps the first and the last: 63 and 60.
	var high []int
	for n := 63; n >= 10 && len(high) < 4; n-- {
		if r.fds.get(n) == nil {
			high = append(high, n)
		}
	}
	if len(high) < 4 {
		high = []int{r.fds.free(10), 0, 0, 0}
		high[3] = r.fds.free(high[0] + 1)
	}
	rf := ownedFile(outR, true, false)
	wf := ownedFile(inW, false, true)
	rf.noInherit, wf.noInherit = true, true
	r.fds.set(high[0], rf)
	r.fds.set(high[3], wf)
	r.unsetVar(name)
	r.SetArray(name, []string{itoa(int64(high[0])), itoa(int64(high[3]))})
	r.assign(name+"_PID", itoa(int64(pid)), false)
	r.sess.coproc = &coprocInfo{j: j, pid: pid, name: name}
	r.lastBg = pid
	r.status = 0
}

// coprocInfo is the last coprocess started.
type coprocInfo struct {
	j    *job
	pid  int
	name string
}

// lastOfPipeline is the last command of a pipeline statement, nil for
// any other statement.
func lastOfPipeline(st *syntax.Stmt) *syntax.Stmt {
	b, ok := st.Cmd.(*syntax.BinaryCmd)
	if !ok || b.Op != syntax.Pipe && b.Op != syntax.PipeAll {
		return nil
	}
	for {
		y, ok := b.Y.Cmd.(*syntax.BinaryCmd)
		if !ok || y.Op != syntax.Pipe && y.Op != syntax.PipeAll || b.Y.Negated || len(b.Y.Redirs) > 0 {
			return b.Y
		}
		b = y
	}
}
