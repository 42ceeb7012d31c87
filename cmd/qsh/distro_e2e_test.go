package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// The rc files a Debian user has, as the distribution ships them, sourced
// from ~/.qshrc (test.sh installs the packages): /etc/bash.bashrc sets
// the prompt and command-not-found's handler, the skeleton ~/.bashrc its
// aliases and bash-completion, vte's profile script the terminal's
// working directory (OSC 7) at every prompt.
func TestDebianRCFiles(t *testing.T) {
	t.Parallel()
	files := []string{"/etc/bash.bashrc", "/etc/skel/.bashrc", "/etc/profile.d/vte-2.91.sh",
		"/usr/lib/command-not-found", "/usr/share/bash-completion/bash_completion"}
	for _, f := range files {
		needs.File(t, f, "bash, command-not-found, libvte-2.91-common or bash-completion")
	}
	home := t.TempDir()
	work := filepath.Join(home, "work")
	os.Mkdir(work, 0o755)
	skel, _ := os.ReadFile("/etc/skel/.bashrc")
	os.WriteFile(filepath.Join(home, ".bashrc"), skel, 0o644)
	os.WriteFile(filepath.Join(home, ".qshrc"), []byte(". /etc/bash.bashrc\n. ~/.bashrc\n. /etc/profile.d/vte-2.91.sh\n"), 0o644)
	tm := shelltest.Start(t, qshBinary(t), shelltest.Dir(home), shelltest.Env("HOME="+home, "XDG_STATE_HOME="+home+"/state",
		"PATH="+os.Getenv("PATH"), "USER=tester", "TERM=xterm", "VTE_VERSION=7006"))
	// bash.bashrc's prompt, \u@\h:\w\$, with the title the skeleton adds.
	tm.WaitMatch(`@[^:\s]+:~[#$] `)
	// run types line and returns what it printed up to the marker it
	// echoes last.
	run := func(line, marker string) string {
		tm.Line(line + "; echo " + marker[:1] + "''" + marker[1:])
		out := tm.WaitFor(marker + "\n")
		tm.WaitMatch(`[#$] $`)
		return out
	}

	out := run(`type ls; echo "dircolors:${LS_COLORS:+set}"`, "aliases-done")
	if !strings.Contains(out, "ls is aliased to `ls --color=auto'") || !strings.Contains(out, "dircolors:set") {
		t.Errorf("the skeleton's aliases:\n%s", shelltest.Tail(out))
	}
	tm.Line("cd work")
	tm.WaitMatch(`:~/work[#$] `)
	if raw := tm.Raw(); !strings.Contains(raw, "\x1b]7;file://") || !strings.Contains(raw, work+"\x1b\\") {
		t.Errorf("no OSC 7 for %s at the prompt:\n%q", work, shelltest.Tail(raw))
	}
	// command-not-found answers (with an empty database, it says so).
	out = run("qsh-no-such-command-xyz", "cnf-done")
	if !strings.Contains(out, "command-not-found") && !strings.Contains(out, "qsh-no-such-command-xyz: command not found") {
		t.Errorf("command_not_found_handle:\n%s", shelltest.Tail(out))
	}
	// bash-completion, loaded by the skeleton's rc.
	tm.Type("apt-get insta", shelltest.Tab)
	tm.WaitFor("apt-get install ")
	tm.Type(shelltest.CtrlU)
	exit(t, tm)
}

// hstr, set up as its --show-configuration says, with history in bash's
// file: its Ctrl-R lists the session's lines from $HISTFILE and the one
// chosen runs; history -a and -n at each prompt write each line once.
func TestHstr(t *testing.T) {
	t.Parallel()
	needs.Tool(t, "hstr")
	conf, err := exec.Command("hstr", "--show-configuration").Output()
	if err != nil {
		t.Fatalf("hstr --show-configuration: %v", err)
	}
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, ".qshrc"), append([]byte("export HISTFILE=~/.bash_history\n"), conf...), 0o644)
	tm := startShell(t, home, "PATH="+os.Getenv("PATH"), "TERM=xterm")
	enter(tm, "echo hstr-marker-$((40+2))")
	enter(tm, "echo other")
	tm.Type(shelltest.CtrlR)
	tm.WaitFor("other") // hstr's list
	tm.Type("marker")
	tm.Type(shelltest.Enter)
	tm.WaitFor("hstr-marker-42\n")
	tm.WaitFor(ps1)
	// The times bash's file keeps, shown as HISTTIMEFORMAT says.
	year := time.Now().Format("2006")
	if out := enter(tm, "HISTTIMEFORMAT='<%Y> ' history 3"); !strings.Contains(out, "<"+year+"> echo other") {
		t.Errorf("history with HISTTIMEFORMAT:\n%s", shelltest.Tail(out))
	}
	exit(t, tm)
	data, _ := os.ReadFile(filepath.Join(home, ".bash_history"))
	if n := strings.Count(string(data), "echo other\n"); n != 1 {
		t.Errorf("~/.bash_history has echo other %d times:\n%s", n, data)
	}
}
