package main

// End-to-end tests of the assistant's commands that outlive a plain run:
// one that asks at the terminal is handed it, and a server started in the
// background is read, stopped, and stopped with the conversation; through
// the real binaries, a pseudo-terminal and the scripted fake model.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/internal/testtime"
)

// TestHandOffPasswordPrompt: a program that reads a password from
// /dev/tty with echo off, as sudo does (echo off, then the prompt), is
// handed the terminal: the
// screen says so, the user types, what they type is not echoed, and the
// model gets the program's status and is told the user answered it.
func TestHandOffPasswordPrompt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"askpass": `#!/bin/sh
stty -echo </dev/tty
printf 'Password: ' >/dev/tty
IFS= read -r pw </dev/tty
stty echo </dev/tty
echo >/dev/tty
echo "read ${#pw} characters"
[ "$pw" = hunter2 ]
`})
	if err := os.Chmod(filepath.Join(dir, "askpass"), 0o755); err != nil {
		t.Fatal(err)
	}
	srv := aitest.NewOpenAI(t,
		call("execute_command", map[string]any{"command": "./askpass && echo accepted", "unconfined": true}),
		aitest.Say("The password was accepted.", 2),
		call("execute_command", map[string]any{"command": "./askpass", "unconfined": true, "background": true}),
		aitest.Say("It cannot ask from there.", 1))
	tm := startIn(t, dir, aiEnv(t, srv))
	tm.Line("stty -g >modes.before")
	tm.WaitFor(ps1)
	tm.Line("? check my password")
	tm.WaitFor("run? [y/n/e] ")
	tm.Type("y")
	tm.WaitFor("is asking at the terminal")
	tm.WaitFor("Password: ")
	tm.Type("hunter2\r")
	out := tm.WaitFor(ps1)
	if !strings.Contains(out, "The password was accepted.") || strings.Contains(out, "hunter2") {
		t.Errorf("screen:\n%s", out)
	}
	wantResults(t, srv, "read 7 characters\naccepted\n[exit status 0]\n[./askpass asked at the terminal")
	// The shell has its terminal back, in the modes it had.
	tm.Line("stty -g >modes.after; cmp modes.before modes.after && echo same-modes")
	tm.WaitFor("same-modes")
	tm.WaitFor(ps1)

	// A background command never has the terminal: it is stopped, and
	// the model told why.
	tm.Line("? now in the background")
	tm.WaitFor("run? [y/n/e] ")
	tm.Type("y")
	tm.WaitFor("It cannot ask from there.")
	tm.WaitFor(ps1)
	wantResults(t, srv, "", "qsh: ./askpass wants the terminal, which it cannot have here")
}

// TestBackgroundServer: the model starts `python3 -m http.server` in the
// background on 127.0.0.1, reads its log in a later turn, stops it; a
// second one is stopped by `? /reset`, its process group gone.
func TestBackgroundServer(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	// Each server serves a directory of its own, by which its process is
	// found.
	first, second := filepath.Join(dir, "first"), filepath.Join(dir, "second")
	os.Mkdir(first, 0o755)
	os.Mkdir(second, 0o755)
	serve := func(root string) aitest.Reply {
		return call("execute_command", map[string]any{
			"command": "python3 -u -m http.server 0 --bind 127.0.0.1 --directory " + root, "background": true})
	}
	srv := aitest.NewOpenAI(t,
		serve(first), aitest.Say("It runs.", 1),
		call("job_output", map[string]any{"id": 1, "wait_for": "Serving HTTP on 127.0.0.1 port "}), aitest.Say("Its log is read.", 1),
		call("stop_job", map[string]any{"id": 1}), aitest.Say("Stopped.", 1),
		serve(second), aitest.Say("The second runs.", 1))
	tm := startIn(t, dir, aiEnv(t, srv))
	tm.SetTimeout(20 * time.Second)

	tm.Line("? serve this directory")
	tm.WaitFor("run? [")
	tm.Type("y")
	tm.WaitFor("It runs.")
	tm.WaitFor(ps1)
	// Its first lines, if they came within the start's wait.
	started := wantResults(t, srv, "[background job 1: running")[0]
	if !serving(first) {
		t.Fatal("the first server is not running after its turn")
	}

	tm.Line("? /jobs")
	if out := tm.WaitFor(ps1); !strings.Contains(out, "[1]  running for") || !strings.Contains(out, "--directory "+first) {
		t.Errorf("? /jobs:\n%s", out)
	}

	tm.Line("? what did it log")
	tm.WaitFor("Its log is read.")
	tm.WaitFor(ps1)
	read := wantResults(t, srv, "", "[background job 1 (python3 -u -m http.server 0 --bind 127.0.0.1 --directory "+first+"): running for")[1]
	if !strings.Contains(started+read, "Serving HTTP on 127.0.0.1 port ") {
		t.Errorf("the model never got the server's log:\n%s\n---\n%s", started, read)
	}

	tm.Line("? stop it")
	tm.WaitFor("Stopped.")
	tm.WaitFor(ps1)
	wantResults(t, srv, "", "", "stopped; everything it started was killed")
	if !testtime.Until(testtime.Scaled(10*time.Second), func() bool { return !serving(first) }) {
		t.Error("the first server still runs after stop_job")
	}

	tm.Line("? serve it again")
	tm.WaitFor("run? [")
	tm.Type("y")
	tm.WaitFor("The second runs.")
	tm.WaitFor(ps1)
	if !serving(second) {
		t.Fatal("the second server is not running after its turn")
	}
	tm.Line("? /reset")
	out := tm.WaitFor("new conversation")
	if !strings.Contains(out, "[2]  stopped  python3") {
		t.Errorf("? /reset:\n%s", out)
	}
	if !testtime.Until(testtime.Scaled(10*time.Second), func() bool { return !serving(second) }) {
		t.Error("the second server still runs after ? /reset")
	}
}

// serving reports whether a process serves root: some process's command
// line names it (the server's, in a jail's PID namespace or not).
func serving(root string) bool {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), "http.server") && strings.Contains(string(b), root) {
			return true
		}
	}
	return false
}
