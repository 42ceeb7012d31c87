package shell

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/internal/testtime"
)

func TestFindJob(t *testing.T) {
	one := &job{id: 1, text: "sleep 30"}
	two := &job{id: 2, text: "vim notes.txt"}
	three := &job{id: 3, text: "sleep 40 | cat"}
	list := []*job{one, two, three}
	tests := []struct {
		spec string
		bare bool
		want *job
		err  string
	}{
		{"%1", false, one, ""},
		{"%3", false, three, ""},
		{"%4", false, nil, "%4: no such job"},
		{"%", false, two, ""},
		{"%%", false, two, ""},
		{"%+", false, two, ""},
		{"%-", false, one, ""},
		{"%vim", false, two, ""},
		{"%sleep", false, nil, "%sleep: ambiguous job spec"},
		{"%sleep 4", false, three, ""},
		{"%?notes", false, two, ""},
		{"%?cat", false, three, ""},
		{"%?zzz", false, nil, "%?zzz: no such job"},
		{"%nothing", false, nil, "%nothing: no such job"},
		{"2", true, two, ""},
		{"2", false, nil, "2: no such job"},
	}
	for _, tt := range tests {
		got, err := findJob(list, two, one, tt.spec, tt.bare)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("findJob(%q) error %v, want %q", tt.spec, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("findJob(%q) = %v, %v; want job %d", tt.spec, got, err, tt.want.id)
		}
	}
	if _, err := findJob(nil, nil, nil, "%+", false); err == nil || err.Error() != "current: no such job" {
		t.Errorf("no current job: %v", err)
	}
	if _, err := findJob(nil, nil, nil, "%-", false); err == nil || err.Error() != "previous: no such job" {
		t.Errorf("no previous job: %v", err)
	}
}

func TestJobLine(t *testing.T) {
	done := func(status int, sig syscall.Signal) *proc {
		return &proc{state: procDone, status: status, sig: sig}
	}
	tests := []struct {
		j    *job
		want string
	}{
		{&job{id: 1, text: "sleep 30", procs: []*proc{{state: procStopped, sig: syscall.SIGTSTP}}},
			"[1]+  Stopped                 sleep 30"},
		{&job{id: 1, text: "cat", procs: []*proc{{state: procStopped, sig: syscall.SIGTTIN}}},
			"[1]+  Stopped (tty input)     cat"},
		{&job{id: 2, text: "sleep 30", bg: true, procs: []*proc{{state: procRunning}}},
			"[2]+  Running                 sleep 30 &"},
		{&job{id: 1, text: "sleep 1", bg: true, procs: []*proc{done(0, 0)}},
			"[1]+  Done                    sleep 1"},
		{&job{id: 1, text: "false", bg: true, procs: []*proc{done(1, 0)}},
			"[1]+  Exit 1                  false"},
		{&job{id: 1, text: "sleep 9", bg: true, procs: []*proc{done(143, syscall.SIGTERM)}},
			"[1]+  Terminated              sleep 9"},
		{&job{id: 1, text: "a | b", procs: []*proc{{state: procStopped, sig: syscall.SIGTSTP}, {state: procRunning}}},
			"[1]+  Running                 a | b"},
	}
	for _, tt := range tests {
		tab := &jobs{list: []*job{tt.j}, recent: []*job{tt.j}}
		cur, prev := tab.current()
		if got := tab.line(tt.j, cur, prev, false); got != tt.want {
			t.Errorf("line:\n got %q\nwant %q", got, tt.want)
		}
	}
}

func TestCurrentJob(t *testing.T) {
	tab := &jobs{pending: map[string]*reservation{}}
	running := &job{text: "a", procs: []*proc{{state: procRunning}}}
	stopped := &job{text: "b", procs: []*proc{{state: procStopped}}}
	later := &job{text: "c", procs: []*proc{{state: procRunning}}}
	tab.add(running, 0)
	tab.add(stopped, 0)
	tab.add(later, 0)
	// A stopped job is current even when a newer one runs.
	if cur, prev := tab.current(); cur != stopped || prev != later {
		t.Fatalf("current %v, previous %v", cur, prev)
	}
	if later.id != 3 {
		t.Fatalf("ids: %d", later.id)
	}
	tab.remove(stopped)
	other := &job{text: "d", procs: []*proc{{state: procRunning}}}
	tab.add(other, 0)
	if other.id != 2 {
		t.Fatalf("the lowest free id is 2, got %d", other.id)
	}
}

func TestShellWords(t *testing.T) {
	if got := shellWords([]string{"grep", "-e", "a b", "it's"}); got != `grep -e 'a b' "it's"` {
		t.Errorf("shellWords: %s", got)
	}
}

// TestSubshellHasNoJobControl: the assistant's subshell must not wait for
// the user's jobs nor take one into its foreground.
func TestSubshellHasNoJobControl(t *testing.T) {
	s, _, _ := newTestShell(t, nil)
	s.jobs = newJobs(-1, 0, io.Discard, nil, realClock())
	running := &job{text: "sleep 100", bg: true, procs: []*proc{{state: procRunning}}}
	s.jobs.add(running, 0)
	ctx, cancel := context.WithTimeout(context.Background(), testtime.Scaled(30*time.Second))
	defer cancel()
	var out, errb bytes.Buffer
	st, err := s.Run(ctx, "wait; echo waited; fg", &out, &errb, nil, nil)
	if err != nil || st != 1 || out.String() != "waited\n" || !strings.Contains(errb.String(), "fg: no job control") {
		t.Fatalf("status %d, err %v, stdout %q, stderr %q", st, err, out.String(), errb.String())
	}
}

// TestStartNewGroup: a background job's group may be gone when its next
// program starts (its last process reaped, not yet marked done): the
// program starts a group of its own instead of failing.
func TestStartNewGroup(t *testing.T) {
	tj := newJobs(-1, 0, io.Discard, nil, realClock())
	old := &job{id: 1, pgid: 1 << 22, token: "j1", bg: true, procs: []*proc{{pid: 1 << 22, state: procRunning}}}
	tj.list = append(tj.list, old)
	var pgids []int
	start := func(cmd *exec.Cmd) (*exec.Cmd, error) {
		pgid := cmd.SysProcAttr.Pgid
		pgids = append(pgids, pgid)
		switch {
		case pgid < 0:
			return nil, os.NewSyscallError("fork/exec", syscall.EINVAL)
		case pgid > 0:
			return nil, &os.PathError{Op: "fork/exec", Path: cmd.Path, Err: syscall.EPERM}
		}
		return cmd, cmd.Start()
	}
	newCmd := func() *exec.Cmd { return exec.Command("true") }
	j, p, err := tj.start(newCmd, start, []string{"true"}, 0, "j1", true, false, nil)
	if err != nil {
		t.Fatalf("start: %v (groups tried %v)", err, pgids)
	}
	if j != old || j.pgid != p.pid || len(pgids) != 2 || pgids[1] != 0 {
		t.Fatalf("job %+v, proc %+v, groups tried %v", j, p, pgids)
	}
	tj.mu.Lock()
	for p.state != procDone {
		tj.wait()
	}
	tj.mu.Unlock()
}

// TestFgTerminated: fg on a job that ended but was not reported yet fails
// as bash's does, and the job is still reported.
func TestFgTerminated(t *testing.T) {
	s, _, _ := newTestShell(t, nil)
	s.jobs = newJobs(-1, 0, io.Discard, nil, realClock())
	s.jobs.add(&job{text: "sleep 0.1", bg: true, pgid: 1 << 22, procs: []*proc{{state: procDone}}}, 0)
	var out, errb bytes.Buffer
	ctx := context.WithValue(context.Background(), fgKey{}, true)
	st := s.fgBuiltin(ctx, builtinIO{name: "fg", out: &out, err: &errb}, nil)
	if st != 1 || out.String() != "" || errb.String() != "qsh: fg: job has terminated\n" {
		t.Fatalf("status %d, stdout %q, stderr %q", st, out.String(), errb.String())
	}
	if len(s.jobs.list) != 1 {
		t.Fatalf("the job is no longer listed to report: %v", s.jobs.list)
	}
}

// TestJobsMarks: a listing marks one current and one previous job, though
// it drops a job that is done.
func TestJobsMarks(t *testing.T) {
	s, _, _ := newTestShell(t, nil)
	s.jobs = newJobs(-1, 0, io.Discard, nil, realClock())
	running := &job{text: "sleep 30", bg: true, procs: []*proc{{state: procRunning}}}
	done := &job{text: "sleep 1", bg: true, procs: []*proc{{state: procDone}}}
	s.jobs.add(done, 0)
	s.jobs.add(running, 0)
	s.jobs.touch(done)
	var out, errb bytes.Buffer
	if st := s.jobsBuiltin(context.Background(), builtinIO{name: "jobs", out: &out, err: &errb}, nil); st != 0 {
		t.Fatalf("status %d, stderr %q", st, errb.String())
	}
	want := "[1]+  Done                    sleep 1\n[2]-  Running                 sleep 30 &\n"
	if out.String() != want {
		t.Fatalf("jobs:\n%s\nwant:\n%s", out.String(), want)
	}
}

// TestJobStatusLast: a job's status is its last program's in the source,
// whichever started last.
func TestJobStatusLast(t *testing.T) {
	j := &job{text: "a | b", procs: []*proc{
		{pos: 4, state: procDone, status: 3},
		{pos: 0, state: procDone, status: 0},
	}}
	if st, what := j.status(), j.describe(); st != 3 || what != "Exit 3" {
		t.Fatalf("status %d, %q; want 3, Exit 3", st, what)
	}
	// A loop's: the latest run of the last program.
	j.procs = append(j.procs, &proc{pos: 4, state: procDone, status: 5}, &proc{pos: 0, state: procDone})
	if st := j.status(); st != 5 {
		t.Fatalf("status %d, want 5", st)
	}
}

// TestMarkJobsFuncs: the substitutions and mixed pipelines of a function
// are marked when it is defined, by an eval string or a sourced file (the
// rc file, say), not afterwards in interp's table (Runner.Funcs).
func TestMarkJobsFuncs(t *testing.T) {
	s, _, _ := newTestShell(t, nil)
	s.jobs = newJobs(-1, 0, io.Discard, nil, realClock())
	file := filepath.Join(t.TempDir(), "funcs.sh")
	if err := os.WriteFile(file, []byte("sourced() { vim $(find . | fzf); while :; do :; done | less; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, err := syntax.NewParser().Parse(strings.NewReader("eval 'evald() { vim $(find . | fzf); }'; source "+file), "")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.runner.Run(context.Background(), prog); err != nil {
		t.Fatal(err)
	}
	print := func(name string) string {
		var b strings.Builder
		syntax.NewPrinter().Print(&b, s.runner.Funcs[name])
		return b.String()
	}
	const want = "vim $(__qsh_nojob=1 find . | __qsh_nojob=1 fzf)"
	for _, name := range []string{"evald", "sourced"} {
		if got := print(name); !strings.Contains(got, want) {
			t.Errorf("%s is:\n%s\nwant it to contain %q", name, got, want)
		}
	}
	if got := print("sourced"); !strings.Contains(got, "__qsh_mixed=1 less") {
		t.Errorf("sourced is:\n%s\nwant its loop's pipeline mixed", got)
	}
	// A line that calls them leaves interp's table alone.
	before := print("sourced")
	line, err := syntax.NewParser().Parse(strings.NewReader("sourced; evald"), "")
	if err != nil {
		t.Fatal(err)
	}
	s.markJobs(line)
	if after := print("sourced"); after != before {
		t.Errorf("a command line changed a function:\n%s\nwas\n%s", after, before)
	}
}

// TestPrograms: what the shell tells marks is a program, for its mixed
// pipelines (see [marks.MixedVar]): not its builtins, functions or
// aliases.
func TestPrograms(t *testing.T) {
	s, _, _ := newTestShell(t, nil)
	fn, err := syntax.NewParser().Parse(strings.NewReader("myfunc() { cat; }; alias ll='ls -l'"), "")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.runner.Run(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
	programs := s.programs("")
	for name, want := range map[string]bool{"ls": true, "less": true, "echo": false, "history": false, "myfunc": false, "ll": false} {
		if got := programs(name); got != want {
			t.Errorf("programs(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestReportWaits: before the prompt, a report waits for the background
// statements of the line to start their programs, reportWait at most, by
// the shell's clock: it returns when the program starts, or when the
// clock says the time is up (the statement then gets no `[n] pid`).
func TestReportWaits(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	tj := newJobs(-1, 0, io.Discard, nil, clk.clock())
	started := tj.reserve("sleep 1")
	late := tj.reserve("sleep 2")
	done := make(chan struct{})
	go func() { tj.report(); close(done) }()
	clk.awaitTimers(t, 1)
	tj.mu.Lock()
	delete(tj.pending, started) // as start does for its program
	tj.broadcast()
	waits := tj.waits // the report has let go of mu once to wait
	tj.mu.Unlock()
	// Woken, the report must wait again (a wait more), not return.
	returned := func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	}
	rewaited := func() bool {
		tj.mu.Lock()
		defer tj.mu.Unlock()
		return tj.waits > waits
	}
	testtime.Until(30*time.Second, func() bool { return returned() || rewaited() })
	if returned() {
		t.Fatal("the report did not wait for the second statement")
	}
	if !rewaited() {
		t.Fatal("the report did not wake at the change")
	}
	clk.advance(reportWait)
	returns(t, "report", func() struct{} { <-done; return struct{}{} })
	tj.mu.Lock()
	defer tj.mu.Unlock()
	if r := tj.pending[late]; r == nil || r.id != 0 {
		t.Fatalf("the late statement's reservation is %+v, want no id", r)
	}
}
