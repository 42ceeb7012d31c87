package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// Job control through the pseudo-terminal, with the capture proxy (the
// default) and without it: Ctrl-Z must behave the same either way.

// captureModes runs a test with capture on and off.
func captureModes(t *testing.T, test func(t *testing.T, env ...string)) {
	for _, mode := range []string{"on", "off"} {
		t.Run("capture-"+mode, func(t *testing.T) {
			t.Parallel()
			if mode == "off" {
				test(t, "QSH_CAPTURE=off")
			} else {
				test(t)
			}
		})
	}
}

// startJobShell is startShell, and shows the screen when the test fails.
func startJobShell(t *testing.T, home string, env ...string) *shelltest.Term {
	t.Helper()
	tm := startShell(t, home, env...)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the screen:\n%s", shelltest.Tail(tm.Output()))
		}
	})
	return tm
}

// procInfo is what /proc says about a process.
type procInfo struct {
	pid, ppid, pgrp, tpgid int
	state                  byte // R, S, T (stopped), Z…
}

// findProcs lists the processes whose arguments are args.
func findProcs(t *testing.T, args ...string) []procInfo {
	t.Helper()
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil || len(dirs) == 0 {
		needs.Missing(t, "no /proc to watch processes with")
	}
	want := strings.Join(args, "\x00") + "\x00"
	var list []procInfo
	for _, dir := range dirs {
		cmdline, err := os.ReadFile(dir + "/cmdline")
		if err != nil || string(cmdline) != want {
			continue
		}
		if p, ok := readStat(dir); ok {
			list = append(list, p)
		}
	}
	return list
}

func readStat(dir string) (procInfo, bool) {
	stat, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return procInfo{}, false
	}
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return procInfo{}, false
	}
	f := strings.Fields(s[i+1:]) // state ppid pgrp session tty_nr tpgid
	if len(f) < 6 {
		return procInfo{}, false
	}
	p := procInfo{state: f[0][0]}
	p.pid, _ = strconv.Atoi(filepath.Base(dir))
	p.ppid, _ = strconv.Atoi(f[1])
	p.pgrp, _ = strconv.Atoi(f[2])
	p.tpgid, _ = strconv.Atoi(f[5])
	return p, true
}

// waitProc waits until exactly one process runs args and ok says yes.
func waitProc(t *testing.T, ok func(procInfo) bool, args ...string) procInfo {
	t.Helper()
	deadline := time.Now().Add(shelltest.Timeout())
	for {
		list := findProcs(t, args...)
		if len(list) == 1 && ok(list[0]) {
			return list[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no process %q as wanted: %+v", args, list)
		}
		if len(list) > 1 {
			t.Logf("%d processes %q: %+v", len(list), args, list)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitGone waits until no process runs args.
func waitGone(t *testing.T, args ...string) {
	t.Helper()
	deadline := time.Now().Add(shelltest.Timeout())
	for len(findProcs(t, args...)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("process %q still there: %+v", args, findProcs(t, args...))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// inForeground: the process has the terminal and runs.
func inForeground(p procInfo) bool { return p.pgrp == p.tpgid && p.state != 'T' }

func stopped(p procInfo) bool { return p.state == 'T' }

// untilOutput presses Enter on empty lines until want appears: a notice
// about a job comes before the first prompt after the job changed.
func untilOutput(t *testing.T, tm *shelltest.Term, want string) {
	t.Helper()
	deadline := time.Now().Add(shelltest.Timeout())
	for !strings.Contains(tm.Output(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q in:\n%s", want, shelltest.Tail(tm.Output()))
		}
		enter(tm, "")
	}
}

// durs counts the durations made, for -count=N: runs of a parallel test
// overlap.
var durs atomic.Int32

// dur is a sleep duration no other test uses (nor another run of the
// tests at the same time), to find its process by. Whatever sleeps that
// long when the test ends is killed.
func dur(t *testing.T, n int) string {
	d := fmt.Sprintf("30.%03d%05d%d", n, os.Getpid()%100000, durs.Add(1))
	t.Cleanup(func() { killAll("sleep", d) })
	return d
}

// killAll kills the processes whose arguments are args.
func killAll(args ...string) {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	want := strings.Join(args, "\x00") + "\x00"
	for _, dir := range dirs {
		if cmdline, err := os.ReadFile(dir + "/cmdline"); err == nil && string(cmdline) == want {
			if pid, err := strconv.Atoi(filepath.Base(dir)); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
}

func TestJobsCtrlZFg(t *testing.T) {
	t.Parallel()
	captureModes(t, func(t *testing.T, env ...string) {
		d := dur(t, 101)
		if len(env) > 0 {
			d = dur(t, 102)
		}
		tm := startJobShell(t, "", env...)
		tm.Line("sleep " + d)
		waitProc(t, inForeground, "sleep", d)
		tm.Type(shelltest.CtrlZ)
		tm.WaitFor("[1]+  Stopped                 sleep " + d)
		tm.WaitFor(ps1)
		if p := waitProc(t, stopped, "sleep", d); p.pgrp != p.pid {
			t.Errorf("sleep is not in a process group of its own: %+v", p)
		}
		if out := enter(tm, "echo st=$?"); !strings.Contains(out, "st=148") {
			t.Fatalf("after Ctrl-Z: %q", out)
		}
		if out := enter(tm, "jobs"); !strings.Contains(out, "[1]+  Stopped                 sleep "+d) {
			t.Fatalf("jobs: %q", out)
		}
		tm.Line("fg")
		tm.WaitFor("sleep " + d)
		waitProc(t, inForeground, "sleep", d)
		// Stopped again, and back again with %1.
		tm.Type(shelltest.CtrlZ)
		tm.WaitFor("Stopped")
		tm.WaitFor(ps1)
		tm.Line("fg %1")
		tm.WaitFor("sleep " + d)
		waitProc(t, inForeground, "sleep", d)
		tm.Type(shelltest.CtrlC)
		tm.WaitFor(ps1)
		if out := enter(tm, "echo st=$?; jobs; echo end-of-jobs"); !strings.Contains(out, "st=130") ||
			strings.Contains(out, "sleep") {
			t.Fatalf("after fg and Ctrl-C: %q", out)
		}
		waitGone(t, "sleep", d)
		// The shell still has the terminal and works.
		if out := enter(tm, "echo alive"); !strings.Contains(out, "alive") {
			t.Fatal(out)
		}
		exit(t, tm)
	})
}

func TestJobsBackgroundSurvivesCtrlC(t *testing.T) {
	t.Parallel()
	captureModes(t, func(t *testing.T, env ...string) {
		d := dur(t, 111)
		if len(env) > 0 {
			d = dur(t, 112)
		}
		tm := startJobShell(t, "", env...)
		out := enter(tm, "sleep "+d+" &")
		if !strings.Contains(out, "[1] ") {
			t.Fatalf("no job number: %q", out)
		}
		p := waitProc(t, func(p procInfo) bool { return p.pgrp == p.pid && p.tpgid != p.pgrp }, "sleep", d)
		tm.Type(shelltest.CtrlC)
		tm.WaitFor("^C")
		tm.WaitFor(ps1)
		if out := enter(tm, "jobs"); !strings.Contains(out, "[1]+  Running                 sleep "+d+" &") {
			t.Fatalf("jobs: %q", out)
		}
		if q := findProcs(t, "sleep", d); len(q) != 1 || q[0].pid != p.pid {
			time.Sleep(200 * time.Millisecond)
			t.Fatalf("Ctrl-C at the prompt reached the background job: %+v; jobs: %q", q, enter(tm, "jobs"))
		}
		// kill takes a job spec; the shell says the job ended, once.
		enter(tm, "kill %1")
		untilOutput(t, tm, "[1]+  Terminated              sleep "+d)
		waitGone(t, "sleep", d)
		if out := enter(tm, "jobs; echo listed"); strings.Contains(out, "sleep") {
			t.Fatalf("jobs after the job ended: %q", out)
		}
		exit(t, tm)
	})
}

func TestJobsDoneNotice(t *testing.T) {
	t.Parallel()
	tm := startJobShell(t, "")
	enter(tm, "sleep 0.2 &")
	enter(tm, "sleep 0.4")
	untilOutput(t, tm, "[1]+  Done                    sleep 0.2")
	// Once only.
	tm.Mark()
	if out := enter(tm, "echo next"); strings.Contains(out, "Done") {
		t.Fatalf("reported twice: %q", out)
	}
	// A background job that fails says how.
	enter(tm, "sh -c 'exit 3' &")
	untilOutput(t, tm, "Exit 3                  sh -c 'exit 3'")
	exit(t, tm)
}

// TestJobsNoneInSubshell checks the idiom for starting a program detached
// and unannounced, `(cmd &)` (autojump's prompt hook): as in bash, whose
// subshell has no job control, no job number when it starts, no notice
// when it ends.
func TestJobsNoneInSubshell(t *testing.T) {
	t.Parallel()
	tm := startJobShell(t, "")
	tm.Mark()
	out := enter(tm, "(sh -c 'echo x > done' &)")
	out += enter(tm, "until [ -s done ]; do sleep 0.05; done; echo waited")
	out += enter(tm, "echo next")
	// A function of a sourced file, as autojump's hook is, marked apart.
	out += enter(tm, `echo "hook() { (sh -c 'echo y > done2' >/dev/null &) &>/dev/null; }" > hook.sh; . ./hook.sh; hook`)
	out += enter(tm, "until [ -s done2 ]; do sleep 0.05; done; echo waited")
	out += enter(tm, "echo next")
	if strings.Contains(out, "[1]") || strings.Contains(out, "Done") {
		t.Errorf("a background program of a subshell was a job:\n%s", out)
	}
	exit(t, tm)
}

func TestJobsPipeline(t *testing.T) {
	t.Parallel()
	captureModes(t, func(t *testing.T, env ...string) {
		d := dur(t, 121)
		if len(env) > 0 {
			d = dur(t, 122)
		}
		tm := startJobShell(t, "", env...)
		tm.Line("sleep " + d + " | cat")
		p := waitProc(t, inForeground, "sleep", d)
		// cat has joined sleep's group.
		deadline := time.Now().Add(shelltest.Timeout())
		for groupSize(t, p.pgrp) < 2 {
			if time.Now().After(deadline) {
				t.Fatalf("cat did not join sleep's process group %d", p.pgrp)
			}
			time.Sleep(20 * time.Millisecond)
		}
		tm.Type(shelltest.CtrlZ)
		tm.WaitFor("Stopped                 sleep " + d + " | cat")
		tm.WaitFor(ps1)
		// Both stopped.
		deadline = time.Now().Add(shelltest.Timeout())
		for n, all := groupState(p.pgrp); n != 2 || !all; n, all = groupState(p.pgrp) {
			if time.Now().After(deadline) {
				t.Fatalf("process group %d: %d processes, all stopped: %v", p.pgrp, n, all)
			}
			time.Sleep(20 * time.Millisecond)
		}
		enter(tm, "kill %1")
		waitGone(t, "sleep", d)
		untilOutput(t, tm, "Terminated")
		exit(t, tm)
	})
}

// groupSize counts the processes in process group pgrp.
func groupSize(t *testing.T, pgrp int) int {
	n, _ := groupState(pgrp)
	return n
}

// groupState counts the processes in process group pgrp and says whether
// they are all stopped.
func groupState(pgrp int) (n int, allStopped bool) {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	allStopped = true
	for _, dir := range dirs {
		if p, ok := readStat(dir); ok && p.pgrp == pgrp {
			n++
			allStopped = allStopped && stopped(p)
		}
	}
	return n, allStopped
}

func TestJobsBg(t *testing.T) {
	t.Parallel()
	tm := startJobShell(t, "")
	d := dur(t, 131)
	tm.Line("sleep " + d)
	waitProc(t, inForeground, "sleep", d)
	tm.Type(shelltest.CtrlZ)
	tm.WaitFor("Stopped")
	tm.WaitFor(ps1)
	if out := enter(tm, "bg"); !strings.Contains(out, "[1]+ sleep "+d+" &") {
		t.Fatalf("bg: %q", out)
	}
	waitProc(t, func(p procInfo) bool { return !stopped(p) && p.tpgid != p.pgrp }, "sleep", d)
	if out := enter(tm, "jobs -l"); !strings.Contains(out, "Running                 sleep "+d+" &") {
		t.Fatalf("jobs -l: %q", out)
	}
	if out := enter(tm, "fg %nosuch; echo st=$?"); !strings.Contains(out, "no such job") || !strings.Contains(out, "st=1") {
		t.Fatalf("fg %%nosuch: %q", out)
	}
	enter(tm, "disown %sleep")
	if out := enter(tm, "jobs; echo listed"); strings.Contains(out, "sleep") {
		t.Fatalf("jobs after disown: %q", out)
	}
	p := findProcs(t, "sleep", d)
	if len(p) != 1 {
		t.Fatalf("disowned job: %+v", p)
	}
	exit(t, tm)
	// Running jobs go on after the shell, as with bash.
	if q := findProcs(t, "sleep", d); len(q) != 1 {
		t.Fatalf("disowned job gone with the shell")
	}
	exec.Command("kill", strconv.Itoa(p[0].pid)).Run()
}

func TestJobsExitWithStoppedJobs(t *testing.T) {
	t.Parallel()
	captureModes(t, func(t *testing.T, env ...string) {
		d := dur(t, 141)
		if len(env) > 0 {
			d = dur(t, 142)
		}
		tm := startJobShell(t, "", env...)
		tm.Line("sleep " + d)
		waitProc(t, inForeground, "sleep", d)
		tm.Type(shelltest.CtrlZ)
		tm.WaitFor("Stopped")
		tm.WaitFor(ps1)
		tm.Type(shelltest.CtrlD)
		tm.WaitFor("There are stopped jobs.")
		tm.WaitFor(ps1)
		// A second try right after exits, and the stopped job does not
		// stay stopped: it gets SIGHUP.
		tm.Line("exit")
		tm.WaitExit()
		waitGone(t, "sleep", d)
	})
}

func TestJobsInterrupt(t *testing.T) {
	t.Parallel()
	captureModes(t, func(t *testing.T, env ...string) {
		d := dur(t, 151)
		if len(env) > 0 {
			d = dur(t, 152)
		}
		tm := startJobShell(t, "", env...)
		tm.Line("sleep " + d + "; echo not-reached")
		waitProc(t, inForeground, "sleep", d)
		tm.Type(shelltest.CtrlC)
		tm.WaitFor(ps1)
		if out := enter(tm, "echo st=$?"); !strings.Contains(out, "st=130") || strings.Contains(tm.Output(), "\nnot-reached") {
			t.Fatalf("after Ctrl-C: %q", out)
		}
		// Said from inside the loop: the line runs, the editor has let
		// go of the terminal.
		tm.Line(`i=0; while true; do i=$((i+1)); [ $i = 100 ] && echo "loop""ing"; done`)
		tm.WaitFor("looping")
		tm.Type(shelltest.CtrlC)
		tm.WaitFor(ps1)
		if out := enter(tm, "echo st=$?"); !strings.Contains(out, "st=130") {
			t.Fatalf("after Ctrl-C in a loop: %q", out)
		}
		// A loop of programs stops at the first Ctrl-C.
		tm.Line("while true; do sleep " + d + "; done; echo not-reached-either")
		waitProc(t, inForeground, "sleep", d)
		tm.Type(shelltest.CtrlC)
		tm.WaitFor(ps1)
		if out := enter(tm, "echo st=$?"); !strings.Contains(out, "st=130") || strings.Contains(tm.Output(), "\nnot-reached-either") {
			t.Fatalf("after Ctrl-C in a loop of programs: %q", out)
		}
		// wait for a background job: Ctrl-C ends the wait, not the job.
		enter(tm, "sleep "+d+" &")
		// Nothing shows that wait has begun; a ^C just before it ends
		// the line all the same, and must not reach the job either.
		tm.Line(`echo "wait""ing"; wait`)
		tm.WaitFor("waiting")
		tm.Type(shelltest.CtrlC)
		tm.WaitFor(ps1)
		if len(findProcs(t, "sleep", d)) != 1 {
			t.Fatal("Ctrl-C during wait ended the background job")
		}
		enter(tm, "kill %1")
		waitGone(t, "sleep", d)
		exit(t, tm)
	})
}

// TestJobsEditor suspends an editor (vim, vi) or, without one, a python
// REPL: the terminal comes back sane, and fg redraws the program.
func TestJobsEditor(t *testing.T) {
	t.Parallel()
	captureModes(t, func(t *testing.T, env ...string) {
		tm := startJobShell(t, "", env...)
		switch {
		case lookPath("vim") || lookPath("vi"):
			editor := "vim"
			if !lookPath("vim") {
				editor = "vi"
			}
			tm.Line(editor + " -u NONE -N")
			tm.WaitFor("~")
			tm.Type("ihello-editor", shelltest.Escape)
			tm.WaitFor("hello-editor")
			tm.Type(shelltest.CtrlZ)
			tm.WaitFor("Stopped")
			tm.WaitFor(ps1)
			// The shell's terminal modes are back: a command runs.
			if out := enter(tm, "echo at-prompt"); !strings.Contains(out, "at-prompt") {
				t.Fatal(out)
			}
			tm.Line("fg")
			tm.WaitFor("hello-editor") // redrawn
			tm.Type(":q!\r")
			tm.WaitFor(ps1)
		case lookPath("python3"):
			tm.Line("python3 -q")
			tm.WaitFor(">>> ")
			tm.Type(shelltest.CtrlZ)
			tm.WaitFor("Stopped")
			tm.WaitFor(ps1)
			tm.Line("fg")
			tm.WaitFor("python3 -q")
			tm.Type("print(6*7)\r")
			tm.WaitFor("42")
			tm.Type(shelltest.CtrlD)
			tm.WaitFor(ps1)
		default:
			needs.Missing(t, "neither vim, vi nor python3 is installed")
		}
		if out := enter(tm, "echo st=$?; jobs; echo listed"); !strings.Contains(out, "st=0") || strings.Contains(out, "Stopped") {
			t.Fatalf("after the editor: %q", out)
		}
		exit(t, tm)
	})
}

func lookPath(name string) bool {
	_, err := exec.LookPath(name)
	return err == nil
}

// TestJobsBackgroundLoop: a background loop is one job, and kill %1 ends
// the loop, not just its current program.
func TestJobsBackgroundLoop(t *testing.T) {
	t.Parallel()
	tm := startJobShell(t, "")
	d := dur(t, 161)
	enter(tm, "while true; do sleep "+d+"; done &")
	waitProc(t, func(p procInfo) bool { return p.tpgid != p.pgrp }, "sleep", d)
	if out := enter(tm, "jobs"); !strings.Contains(out, "[1]+  Running                 while true; do sleep "+d+"; done &") {
		t.Fatalf("jobs: %q", out)
	}
	enter(tm, "kill %1")
	untilOutput(t, tm, "[1]+  Terminated              while true; do sleep "+d+"; done")
	waitGone(t, "sleep", d)
	// Had the loop gone on, its next sleep would have started by now.
	enter(tm, "sleep 0.3")
	if p := findProcs(t, "sleep", d); len(p) > 0 {
		t.Fatalf("the loop goes on after kill %%1: %+v", p)
	}
	exit(t, tm)
}

// TestJobsBackgroundReader: a background program that reads the terminal
// stops (SIGTTIN) and says so, as in bash; a program that cannot start
// leaves the terminal with the shell.
func TestJobsBackgroundReader(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "bad"), []byte("#!/nonexistent/interpreter\n"), 0o755)
	tm := startJobShell(t, home)
	if out := enter(tm, "./bad; echo st=$?"); !strings.Contains(out, "st=127") { // as bash 5.2
		t.Fatalf("a program that cannot start: %q", out)
	}
	// (A program of its own, to find it in /proc.)
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		needs.Missing(t, "no python3")
	}
	python := strings.TrimSpace(string(out))
	os.WriteFile(filepath.Join(home, "reader.py"), []byte(
		"import os, fcntl\nprint('flags', fcntl.fcntl(0, fcntl.F_GETFL))\nprint('got-' + os.read(0, 100).decode().strip())\n"), 0o644)
	enter(tm, python+" reader.py &")
	untilOutput(t, tm, "[1]+  Stopped (tty input)     "+python+" reader.py")
	tm.Line("fg")
	tm.WaitFor(python + " reader.py\n")
	// Typed before the program has the terminal, the line would go to
	// the shell's line editor, which reads ahead.
	t.Cleanup(func() { killAll(python, "reader.py") })
	waitProc(t, inForeground, python, "reader.py")
	tm.Line("typed")
	tm.WaitFor("got-typed")
	tm.WaitFor(ps1)
	if out := enter(tm, "echo st=$?"); !strings.Contains(out, "st=0") {
		t.Fatalf("after the reader: %q", out)
	}
	exit(t, tm)
}

// TestJobsHangup: when the terminal hangs up (SIGHUP to the shell), the
// shell passes it on to its jobs, running or stopped, as bash does.
func TestJobsHangup(t *testing.T) {
	t.Parallel()
	captureModes(t, func(t *testing.T, env ...string) {
		running, stoppedJob := dur(t, 171), dur(t, 172)
		tm := startJobShell(t, "", env...)
		enter(tm, "sleep "+running+" &")
		tm.Line("sleep " + stoppedJob)
		waitProc(t, inForeground, "sleep", stoppedJob)
		tm.Type(shelltest.CtrlZ)
		tm.WaitFor("Stopped")
		tm.WaitFor(ps1)
		p := waitProc(t, func(procInfo) bool { return true }, "sleep", running)
		syscall.Kill(p.ppid, syscall.SIGHUP) // the shell that owns the jobs
		waitGone(t, "sleep", running)
		waitGone(t, "sleep", stoppedJob)
		tm.WaitExit()
	})
}

// TestJobsCtrlZMixedPipeline: Ctrl-Z on a pipeline the shell runs part of
// (a loop, a builtin) does not stop it: the shell's part would wait for the
// stopped programs for ever. The shell says so, the pipeline goes on with
// the terminal, and Ctrl-C ends it.
func TestJobsCtrlZMixedPipeline(t *testing.T) {
	t.Parallel()
	for i, line := range []string{
		"while :; do echo yyyy; done | sleep %s",
		"sleep %s | while read x; do :; done",
	} {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			t.Parallel()
			d := dur(t, 171+i)
			tm := startJobShell(t, "")
			tm.Line(fmt.Sprintf(line, d))
			waitProc(t, inForeground, "sleep", d)
			tm.Type(shelltest.CtrlZ)
			tm.WaitFor("cannot stop a pipeline the shell runs part of")
			waitProc(t, inForeground, "sleep", d)
			tm.Type(shelltest.CtrlC)
			tm.WaitFor(ps1)
			if out := enter(tm, "jobs; echo alive"); !strings.Contains(out, "alive") || strings.Contains(out, "Stopped") {
				t.Fatalf("after Ctrl-Z and Ctrl-C: %q", out)
			}
			waitGone(t, "sleep", d)
			exit(t, tm)
		})
	}
}

// TestJobsCommandSubstitution: the programs of a command substitution run
// without job control, so that one that reads the terminal can while an
// earlier one of its pipeline runs.
func TestJobsCommandSubstitution(t *testing.T) {
	t.Parallel()
	tm := startJobShell(t, "")
	d := dur(t, 181)
	reader := "read a </dev/tty; echo got $a"
	tm.Line(`x=$(sleep ` + d + ` | sh -c '` + reader + `'); echo "[$x]"`)
	p := waitProc(t, func(p procInfo) bool { return p.state == 'S' }, "sh", "-c", reader)
	if q := waitProc(t, func(procInfo) bool { return true }, "sleep", d); q.pgrp != p.pgrp {
		t.Fatalf("the substitution's programs are in different groups: %+v %+v", q, p)
	}
	tm.Line("hello")
	// sleep still runs: end it, so that the substitution ends.
	waitGone(t, "sh", "-c", reader)
	killAll("sleep", d)
	tm.WaitFor("[got hello]")
	tm.WaitFor(ps1)
	exit(t, tm)
}

// TestJobsBackgroundPipelineData: a background pipeline's programs read
// their pipe in blocking mode: no data lost, no EAGAIN.
func TestJobsBackgroundPipelineData(t *testing.T) {
	t.Parallel()
	tm := startJobShell(t, "")
	enter(tm, "(sleep 0.3; echo piped-$((1+1))) | cat &")
	enter(tm, "sleep 0.3 | cat &")
	out := enter(tm, "wait; echo waited")
	for !strings.Contains(out, "waited") {
		out += tm.WaitFor(ps1)
	}
	untilOutput(t, tm, "piped-2")
	if o := tm.Output(); strings.Contains(o, "unavailable") {
		t.Fatalf("a background pipeline lost its input:\n%s", o)
	}
	exit(t, tm)
}

// TestJobsInterruptWait: Ctrl-C ends a wait, not the jobs: a background
// statement goes on waiting for its program.
func TestJobsInterruptWait(t *testing.T) {
	t.Parallel()
	tm := startJobShell(t, "")
	d := dur(t, 191)
	enter(tm, "{ sleep "+d+"; echo after-$((2+3)); } &")
	waitProc(t, func(procInfo) bool { return true }, "sleep", d)
	tm.Line("echo waiting-$((1+1)); wait")
	tm.WaitFor("waiting-2")
	tm.Type(shelltest.CtrlC)
	tm.WaitFor(ps1)
	if out := enter(tm, "echo checked-$((3+4))"); !strings.Contains(out, "checked-7") || strings.Contains(tm.Output(), "after-5") {
		t.Fatalf("the background statement went on before its program ended:\n%s", shelltest.Tail(tm.Output()))
	}
	killAll("sleep", d)
	untilOutput(t, tm, "after-5")
	exit(t, tm)
}

// TestJobsLastPid: $! is the background program's process ID at the
// prompt too, as in bash: kill takes it, and the job is then reported
// terminated; wait takes it, with 128+N for a job killed by signal N.
func TestJobsLastPid(t *testing.T) {
	t.Parallel()
	tm := startJobShell(t, "")
	d := dur(t, 201)
	out := enter(tm, "sleep "+d+" &")
	p := waitProc(t, func(procInfo) bool { return true }, "sleep", d)
	if !strings.Contains(out, fmt.Sprintf("[1] %d", p.pid)) {
		t.Fatalf("no [1] %d notice: %q", p.pid, out)
	}
	if out := enter(tm, "echo pid=$!"); !strings.Contains(out, fmt.Sprintf("pid=%d", p.pid)) {
		t.Fatalf("$! is not sleep's pid %d: %q", p.pid, out)
	}
	tm.Mark()
	if out := enter(tm, "kill $!; echo st=$?"); !strings.Contains(out, "st=0") {
		t.Fatalf("kill $!: %q", out)
	}
	waitGone(t, "sleep", d)
	// jobs says so, unless the prompt after kill did (once the job was
	// reaped), as in bash.
	deadline := time.Now().Add(shelltest.Timeout())
	for !strings.Contains(tm.Output(), "[1]+  Terminated              sleep "+d) {
		if time.Now().After(deadline) {
			t.Fatalf("no Terminated job after kill $!:\n%s", shelltest.Tail(tm.Output()))
		}
		enter(tm, "jobs")
	}
	// wait with the number: the status of the killed job.
	d2 := dur(t, 202)
	enter(tm, "sleep "+d2+" & pid=$!")
	waitProc(t, func(procInfo) bool { return true }, "sleep", d2)
	if out := enter(tm, "kill -TERM $pid; wait $pid; echo st=$?"); !strings.Contains(out, "st=143") {
		t.Fatalf("wait $pid after kill: %q", out)
	}
	// A background loop of builtins has a process ID kill -0 and kill
	// take too, and ends when killed.
	if out := enter(tm, "while :; do :; done & p=$!; kill -0 $p && echo alive-$((1+1))"); !strings.Contains(out, "alive-2") {
		t.Fatalf("kill -0 on a builtin loop's $!: %q", out)
	}
	if out := enter(tm, "kill $p; wait $p; echo st=$?"); !strings.Contains(out, "st=143") {
		t.Fatalf("a builtin loop killed by its $!: %q", out)
	}
	// A block killed by its $! stops now, and wait for every job with
	// it: it waited for the block's program, 30 s.
	d3 := dur(t, 210)
	enter(tm, "{ sleep "+d3+"; } & p=$!")
	waitProc(t, func(procInfo) bool { return true }, "sleep", d3)
	start := time.Now()
	if out := enter(tm, "kill $p; wait; echo st=$?"); !strings.Contains(out, "st=0") {
		t.Fatalf("wait after a block killed by its $!: %q", out)
	}
	// Measured against the block's 30 s sleep, not the machine's speed.
	if el := time.Since(start); el > 20*time.Second {
		t.Fatalf("wait after a block killed by its $! took %v", el)
	}
	exit(t, tm)
}

// A job spec on the line of its `&` (or the next line, typed at once)
// finds the job, as in bash, whose fork comes before the next command:
// here the job is listed only once its program runs, and the lookup waits
// for that.
func TestJobsSpecSameLine(t *testing.T) {
	t.Parallel()
	tm := startJobShell(t, "")
	d := dur(t, 203)
	out := enter(tm, "sleep "+d+" & kill %1; jobs")
	if strings.Contains(out, "no such job") {
		t.Fatalf("kill %%1 on the line of its &: %q", out)
	}
	waitGone(t, "sleep", d)
	// jobs says Running (the job is not reaped yet) or Terminated, as
	// bash's; the prompt says Terminated if jobs did not.
	untilOutput(t, tm, "Terminated              sleep "+d)

	d2 := dur(t, 204)
	out = enter(tm, "sleep "+d2+" & kill %sleep; wait %%; echo st=$?")
	if !strings.Contains(out, "st=143") || strings.Contains(out, "no such job") {
		t.Fatalf("kill %%sleep; wait %%%%: %q", out)
	}
	waitGone(t, "sleep", d2)

	d3, d4 := dur(t, 205), dur(t, 206)
	out = enter(tm, "sleep "+d3+" & sleep "+d4+" & jobs; kill %- %+; wait; echo done-$((1+1))")
	for _, want := range []string{"sleep " + d3 + " &", "sleep " + d4 + " &", "done-2"} {
		if !strings.Contains(out, want) {
			t.Fatalf("no %q in jobs of the same line: %q", want, out)
		}
	}
	if strings.Contains(out, "no such job") {
		t.Fatalf("kill %%- %%+: %q", out)
	}
	waitGone(t, "sleep", d3)
	waitGone(t, "sleep", d4)

	// A compound statement is not waited for after its `&`, but the job
	// spec is.
	d6 := dur(t, 208)
	out = enter(tm, "{ sleep "+d6+"; } & kill %1; wait %1; echo st=$?")
	if !strings.Contains(out, "st=143") || strings.Contains(out, "no such job") {
		t.Fatalf("kill %%1 of a compound statement on its line: %q", out)
	}
	waitGone(t, "sleep", d6)

	// A loop killed by its job spec on its line stops, as bash's
	// subshell dies: no next program starts (it ran on for ever).
	d7 := dur(t, 209)
	out = enter(tm, "while :; do sleep "+d7+"; done & kill %1; wait %1; echo st=$?")
	if !strings.Contains(out, "st=143") || strings.Contains(out, "no such job") {
		t.Fatalf("kill %%1 of a loop on its line: %q", out)
	}
	waitGone(t, "sleep", d7)
	time.Sleep(300 * time.Millisecond)
	if procs := findProcs(t, "sleep", d7); len(procs) > 0 {
		t.Fatalf("the loop killed by kill %%1 goes on: %v", procs)
	}

	// The `[n] pid` notice comes first, as bash's.
	d5 := dur(t, 207)
	out = enter(tm, "sleep "+d5+" & echo after-$((1+1))")
	p := waitProc(t, func(procInfo) bool { return true }, "sleep", d5)
	notice, after := strings.Index(out, fmt.Sprintf("] %d", p.pid)), strings.Index(out, "after-2")
	if notice < 0 || after < 0 || notice > after {
		t.Fatalf("the notice for %d is not before the next command's output: %q", p.pid, out)
	}
	exit(t, tm)
}

// TestJobsWaitNext: wait -n at the prompt gives the next job's status, and
// that job is not reported again as Done.
func TestJobsWaitNext(t *testing.T) {
	t.Parallel()
	tm := startJobShell(t, "")
	d := dur(t, 203)
	out := enter(tm, "sleep "+d+" & (sleep 0.2; exit 3) & wait -n; echo st=$?")
	if !strings.Contains(out, "st=3") {
		t.Fatalf("wait -n: %q", out)
	}
	if out := enter(tm, "kill %1; wait -n; echo st=$?"); !strings.Contains(out, "st=143") {
		t.Fatalf("wait -n after kill %%1: %q", out)
	}
	if out := enter(tm, "wait -n; echo st=$?"); !strings.Contains(out, "st=127") {
		t.Fatalf("wait -n with no job left: %q", out)
	}
	if strings.Contains(tm.Output(), "exit 3)") && strings.Contains(tm.Output(), "Done") {
		t.Errorf("a job wait -n reported came again as Done:\n%s", shelltest.Tail(tm.Output()))
	}
	exit(t, tm)
}

// TestJobsCtrlCAsCommandStarts types Ctrl-C as soon as a line has begun,
// many times: before the foreground program has taken the terminal, the
// shell gets it and must stop the line (it was lost when the shell read
// the signal after the program had started; the line ran on).
func TestJobsCtrlCAsCommandStarts(t *testing.T) {
	t.Parallel()
	captureModes(t, func(t *testing.T, env ...string) {
		d := dur(t, 221)
		if len(env) > 0 {
			d = dur(t, 222)
		}
		tm := startJobShell(t, "", env...)
		enter(tm, "sleep "+d+" &")
		for i, cmd := range slices.Repeat([]string{"sleep " + d, "wait", "read x", "while :; do :; done"}, 10) {
			tm.Line(fmt.Sprintf("echo go-%d-$((%d+1)); %s", i, i, cmd))
			tm.WaitFor(fmt.Sprintf("go-%d-%d", i, i+1))
			tm.Type(shelltest.CtrlC)
			tm.WaitFor(ps1)
		}
		enter(tm, "kill %1")
		waitGone(t, "sleep", d)
	})
}
