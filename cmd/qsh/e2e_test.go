package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/internal/testtime"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// ps1 is the prompt the tests set, so they can wait for it.
const ps1 = "QSH> "

// startShell starts an interactive qsh with a fresh HOME (made by the
// caller when home is non-empty) and waits for the first prompt.
func startShell(t *testing.T, home string, env ...string) *shelltest.Term {
	t.Helper()
	if home == "" {
		home = t.TempDir()
	}
	env = append([]string{"HOME=" + home, "XDG_STATE_HOME=" + home + "/state", "PS1=" + ps1}, env...)
	tm := shelltest.Start(t, qshBinary(t), shelltest.Env(env...), shelltest.Dir(home))
	tm.WaitFor(ps1)
	return tm
}

// run types a command line and waits for the next prompt, returning what
// was printed in between.
func enter(tm *shelltest.Term, line string) string {
	tm.Line(line)
	return tm.WaitFor(ps1)
}

// exit ends the shell with Ctrl-D; it exits with the last command's status.
func exit(t *testing.T, tm *shelltest.Term) int {
	t.Helper()
	tm.Type(shelltest.CtrlD)
	return tm.WaitExit()
}

func TestREPLCommand(t *testing.T) {
	t.Parallel()
	tm := startShell(t, "")
	tm.Line("echo hel''lo")
	tm.WaitFor("hello")
	tm.WaitFor(ps1)
	if st := exit(t, tm); st != 0 {
		t.Fatalf("exit status %d after Ctrl-D", st)
	}
}

func TestREPLCdPwd(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	os.Mkdir(filepath.Join(home, "sub dir"), 0o755)
	tm := startShell(t, home)
	enter(tm, "cd 'sub dir'")
	tm.Line("pwd; echo $PWD")
	tm.WaitFor(filepath.Join(home, "sub dir"))
	tm.WaitFor(filepath.Join(home, "sub dir"))
	tm.WaitFor(ps1)
	// The process's own cwd moved too: an external program sees it.
	tm.Line("/bin/pwd")
	tm.WaitFor(filepath.Join(home, "sub dir"))
	tm.WaitFor(ps1)
	// The terminal was told (OSC 7).
	if !strings.Contains(tm.Raw(), "\x1b]7;file://") || !strings.Contains(tm.Raw(), "/sub%20dir\x1b\\") {
		t.Errorf("no OSC 7 in %q", tm.Raw())
	}
	exit(t, tm)
}

func TestREPLMultiLine(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	tm := startShell(t, home)
	tm.Line("for i in 1 2 3; do")
	tm.WaitFor("> ")
	tm.Line("echo n$i")
	tm.WaitFor("> ")
	tm.Line("done")
	tm.WaitFor("n1")
	tm.WaitFor("n3")
	tm.WaitFor(ps1)
	tm.Line("echo 'a")
	tm.WaitFor("> ")
	tm.Line("b'")
	tm.WaitFor("a\nb")
	tm.WaitFor(ps1)
	exit(t, tm)
	// A multi-line command is one history entry.
	data, err := os.ReadFile(filepath.Join(home, "state", "qsh", "history"))
	if err != nil {
		t.Fatal(err)
	}
	want := "for i in 1 2 3; do\\necho n$i\\ndone\necho 'a\\nb'\n"
	if unstamped(data) != want {
		t.Fatalf("history file:\n%q\nwant:\n%q", data, want)
	}
}

func TestREPLInterruptProgram(t *testing.T) {
	t.Parallel()
	tm := startShell(t, "")
	d := dur(t, 211)
	tm.Line("echo started; sleep " + d + "; echo not-reached")
	waitProc(t, inForeground, "sleep", d)
	start := time.Now()
	tm.Type(shelltest.CtrlC)
	tm.WaitFor(ps1)
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Ctrl-C took %v", d)
	}
	out := enter(tm, "echo status=$?")
	if !strings.Contains(out, "status=130") || strings.Contains(tm.Output(), "\nnot-reached") {
		t.Fatalf("after Ctrl-C: %q", out)
	}
	exit(t, tm)
}

func TestREPLInterruptLoop(t *testing.T) {
	t.Parallel()
	tm := startShell(t, "")
	// Said from inside the loop, once it has gone round a while (the
	// echo of the line typed does not say "looping").
	tm.Line(`i=0; while true; do i=$((i+1)); [ $i = 100 ] && echo "loop""ing"; done`)
	tm.WaitFor("looping")
	tm.Type(shelltest.CtrlC)
	tm.WaitFor(ps1)
	if out := enter(tm, "echo status=$?"); !strings.Contains(out, "status=130") {
		t.Fatalf("after Ctrl-C: %q", out)
	}
	exit(t, tm)
}

func TestREPLInterruptRead(t *testing.T) {
	t.Parallel()
	tm := startShell(t, "")
	tm.Line(`echo "read""ing"; read x; echo not-reached`)
	tm.WaitFor("reading")
	tm.Type(shelltest.CtrlC)
	tm.WaitFor(ps1)
	if out := enter(tm, "echo status=$?"); !strings.Contains(out, "status=130") {
		t.Fatalf("after Ctrl-C: %q", out)
	}
	// Typed once the line runs (the terminal is back in its own line
	// mode, the editor reads no more): read gets it, early or not.
	tm.Line(`echo "read""y"; read x; echo got=$x`)
	tm.WaitFor("ready")
	tm.Line("typed")
	tm.WaitFor("got=typed")
	tm.WaitFor(ps1)
	exit(t, tm)
}

func TestREPLCtrlCClearsLine(t *testing.T) {
	t.Parallel()
	tm := startShell(t, "")
	tm.Type("echo discarded")
	tm.WaitFor("discarded")
	tm.Type(shelltest.CtrlC)
	tm.WaitFor("^C")
	tm.WaitFor(ps1)
	out := enter(tm, "echo kept")
	if !strings.Contains(out, "kept") {
		t.Fatalf("output %q", out)
	}
	exit(t, tm)
}

// TestREPLCtrlZ runs qsh under a job-control bash, as from a terminal
// where bash is the login shell: Ctrl-Z stops the program as a job of
// qsh's (not of bash's), and the rest of the line goes on, as in bash.
// jobs_e2e_test.go has the rest of job control.
func TestREPLCtrlZ(t *testing.T) {
	t.Parallel()
	bash := needs.Tool(t, "bash")
	home := t.TempDir()
	tm := shelltest.Start(t, bash, shelltest.Args("--norc", "--noprofile", "-i", "-c", qshBinary(t)+"; echo qsh-ended"),
		// Not behind the capture proxy: this test is about qsh in a
		// process group, not a session, of its own.
		shelltest.Env("HOME="+home, "XDG_STATE_HOME="+home, "PS1="+ps1, "PATH="+os.Getenv("PATH"), "QSH_CAPTURE=false"))
	tm.WaitFor(ps1)
	tm.Line("echo zzz; sleep 1.017; echo after-sleep")
	tm.WaitFor("zzz")
	waitProc(t, inForeground, "sleep", "1.017")
	tm.Type(shelltest.CtrlZ)
	tm.WaitFor("[1]+  Stopped                 sleep 1.017")
	tm.WaitFor("after-sleep")
	tm.WaitFor(ps1)
	tm.Line("fg")
	tm.WaitFor("sleep 1.017")
	tm.WaitFor(ps1)
	exit(t, tm)
	tm.WaitFor("qsh-ended")
}

func TestREPLDeleteDoesNotExit(t *testing.T) {
	t.Parallel()
	tm := startShell(t, "")
	tm.Type(shelltest.Delete, shelltest.Delete)
	out := enter(tm, "echo still-here")
	if !strings.Contains(out, "still-here") {
		t.Fatalf("output %q", out)
	}
	exit(t, tm)
}

// TestREPLCtrlZAtPrompt: Ctrl-Z with no program running does nothing, as
// in bash; readline on its own would stop itself and wait for ever.
func TestREPLCtrlZAtPrompt(t *testing.T) {
	t.Parallel()
	tm := startShell(t, "")
	tm.Type("echo ", shelltest.CtrlZ, shelltest.CtrlZ)
	tm.Line("still-here")
	tm.WaitFor("echo still-here\n") // the line, then what it printed
	tm.WaitFor("still-here\n")
	tm.WaitFor(ps1)
	exit(t, tm)
}

func TestREPLExitStatus(t *testing.T) {
	t.Parallel()
	tm := startShell(t, "")
	tm.Line("exit 7")
	if st := tm.WaitExit(); st != 7 {
		t.Fatalf("exit 7: status %d", st)
	}
}

// TestREPLExec: exec's program replaces the shell, so the session ends
// with it; one that cannot be found leaves an interactive shell running,
// as in bash, and so does exec in a subshell.
func TestREPLExec(t *testing.T) {
	t.Parallel()
	tm := startShell(t, "", "PATH="+os.Getenv("PATH"))
	if out := enter(tm, "exec no-such-program-here"); !strings.Contains(out, "not found") {
		t.Errorf("exec of a missing program: %q", out)
	}
	if out := enter(tm, "(exec true); echo still here"); !strings.Contains(out, "still here") {
		t.Errorf("after exec in a subshell: %q", out)
	}
	tm.Line(`exec sh -c 'echo replaced; exit 4'`)
	tm.WaitFor("replaced")
	if st := tm.WaitExit(); st != 4 {
		t.Fatalf("exec sh -c 'exit 4': the session ended with %d", st)
	}
}

func TestREPLHistoryAcrossSessions(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	tm := startShell(t, home)
	enter(tm, "echo remembered-$((40+2))")
	exit(t, tm)

	tm = startShell(t, home)
	tm.Type(shelltest.Up)
	tm.WaitFor("echo remembered-$((40+2))")
	tm.Type(shelltest.Enter)
	tm.WaitFor("remembered-42")
	tm.WaitFor(ps1)
	out := enter(tm, "history")
	if !strings.Contains(out, "1  echo remembered-$((40+2))") {
		t.Fatalf("history: %q", out)
	}
	exit(t, tm)
}

func TestREPLCompleteFile(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "unique-file.txt"), []byte("contents-of-file\n"), 0o644)
	tm := startShell(t, home)
	tm.Type("cat uniq", shelltest.Tab)
	tm.WaitFor("unique-file.txt")
	tm.Type(shelltest.Enter)
	tm.WaitFor("contents-of-file")
	tm.WaitFor(ps1)
	exit(t, tm)
}

func TestREPLCompleteCommand(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	bin := filepath.Join(home, "bin")
	os.Mkdir(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "qshtestcmd"), []byte("#!/bin/sh\necho ran-test-command\n"), 0o755)
	tm := startShell(t, home, "PATH="+bin+":"+os.Getenv("PATH"))
	tm.Type("qshtest", shelltest.Tab)
	tm.WaitFor("qshtestcmd")
	tm.Type(shelltest.Enter)
	tm.WaitFor("ran-test-command")
	tm.WaitFor(ps1)
	exit(t, tm)
}

func TestREPLRCAlias(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, ".qshrc"), []byte("alias hi='echo hi-from-alias'\n"), 0o644)
	tm := startShell(t, home)
	if out := enter(tm, "hi"); !strings.Contains(out, "hi-from-alias") {
		t.Fatalf("alias: %q", out)
	}
	if out := enter(tm, "command -v hi; type hi"); !strings.Contains(out, "alias hi='echo hi-from-alias'") ||
		!strings.Contains(out, "hi is aliased to `echo hi-from-alias'") {
		t.Fatalf("command -v / type: %q", out)
	}
	exit(t, tm)
}

func TestREPLBrokenRC(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, ".qshrc"), []byte("echo before-error\nif then fi\n"), 0o644)
	env := []string{"HOME=" + home, "XDG_STATE_HOME=" + home + "/state", "PS1=" + ps1}
	tm := shelltest.Start(t, qshBinary(t), shelltest.Env(env...), shelltest.Dir(home))
	tm.WaitFor(".qshrc: line 2: syntax error")
	tm.WaitFor(ps1)
	if out := enter(tm, "echo works"); !strings.Contains(out, "works") {
		t.Fatalf("after a broken rc: %q", out)
	}
	exit(t, tm)
}

func TestREPLQuestionWithoutProvider(t *testing.T) {
	t.Parallel()
	// Nothing listens on port 9 (discard), as when no Ollama runs.
	tm := startShell(t, "", "OLLAMA_HOST=http://127.0.0.1:9")
	out := enter(tm, "? why is the sky blue")
	if !strings.Contains(out, "OPENAI_API_KEY") {
		t.Fatalf("? without a provider: %q", out)
	}
	exit(t, tm)
}

// TestREPLLoginShell starts qsh as login does (argv[0] "-qsh"): it reads
// ~/.profile (bash-isms included) and then ~/.qshrc, and says nothing.
func TestREPLLoginShell(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	profile := `# a typical ~/.profile
if [ -n "$BASH_VERSION" ]; then
    if [ -f "$HOME/.bashrc" ]; then
        . "$HOME/.bashrc"
    fi
fi
if [ -d "$HOME/bin" ] ; then
    PATH="$HOME/bin:$PATH"
fi
[ -d "$HOME/.local/bin" ] && PATH="$HOME/.local/bin:$PATH"
export EDITOR=vi
umask 027
shopt -s checkwinsize histappend
HISTCONTROL=ignoreboth
mesg n 2>/dev/null || true
PROFILE_READ=yes
`
	os.WriteFile(filepath.Join(home, ".profile"), []byte(profile), 0o644)
	os.WriteFile(filepath.Join(home, ".qshrc"), []byte("RC_READ=yes\nPS1='"+ps1+"'\n"), 0o644)
	os.Mkdir(filepath.Join(home, "bin"), 0o755)
	env := []string{"HOME=" + home, "XDG_STATE_HOME=" + home + "/state", "PS1=" + ps1, "PATH=/usr/bin:/bin"}
	tm := shelltest.Start(t, qshBinary(t), shelltest.Argv0("-qsh"), shelltest.Env(env...), shelltest.Dir(home))
	before := tm.WaitFor(ps1)
	if strings.Contains(before, "qsh:") {
		t.Fatalf("start-up printed errors: %q", before)
	}
	out := enter(tm, "echo $PROFILE_READ $RC_READ $EDITOR $0; umask; echo $PATH")
	if !strings.Contains(out, "yes yes vi -qsh") || !strings.Contains(out, "0027") || !strings.Contains(out, home+"/bin:") {
		t.Fatalf("login shell state: %q", out)
	}
	exit(t, tm)
}

// TestREPLHugePaste pastes a 1 MB line: one clear line, and the shell
// keeps working.
func TestREPLHugePaste(t *testing.T) {
	t.Parallel()
	tm := startShell(t, "")
	tm.Line("echo " + strings.Repeat("y", 1<<20) + " end-of-big")
	tm.WaitFor("line too long: discarded (the limit is 262144 characters")
	tm.WaitFor(ps1)
	if out := enter(tm, "echo alive"); !strings.Contains(out, "alive") {
		t.Fatalf("after a huge line: %q", out)
	}
	exit(t, tm)
}

// TestREPLBadEnvironment starts qsh without HOME and with a garbage
// QSH_HISTSIZE: one line for each, and a working shell.
func TestREPLBadEnvironment(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tm := shelltest.Start(t, qshBinary(t), shelltest.Dir(dir),
		shelltest.Env("PS1="+ps1, "QSH_HISTSIZE=many"))
	start := tm.WaitFor(ps1)
	if !strings.Contains(start, "QSH_HISTSIZE") || !strings.Contains(start, "HOME is not set") {
		t.Fatalf("start-up said: %q", start)
	}
	if out := enter(tm, "echo works"); !strings.Contains(out, "works") {
		t.Fatalf("output %q", out)
	}
	exit(t, tm)
}

// TestREPLUnwritableHistory points the history into a place that cannot
// be a directory: one warning, then a working shell.
func TestREPLUnwritableHistory(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "file"), nil, 0o644)
	tm := shelltest.Start(t, qshBinary(t), shelltest.Dir(home),
		shelltest.Env("HOME="+home, "PS1="+ps1, "QSH_HISTFILE="+home+"/file/sub/history"))
	start := tm.WaitFor(ps1)
	if strings.Count(start, "history not saved") != 1 {
		t.Fatalf("start-up said: %q", start)
	}
	out := enter(tm, "echo works")
	if !strings.Contains(out, "works") || strings.Contains(out, "history") {
		t.Fatalf("output %q", out)
	}
	exit(t, tm)
}

// TestREPLTerminal checks that programs get the real terminal, that a
// program leaving it raw is cleaned up after, and that Ctrl-R searches.
func TestREPLTerminal(t *testing.T) {
	t.Parallel()
	tm := startShell(t, "")
	if out := enter(tm, "tty; /usr/bin/test -t 0 && /usr/bin/test -t 1 && echo is-a-tty"); !strings.Contains(out, "/dev/") || !strings.Contains(out, "is-a-tty") {
		t.Fatalf("programs do not get the terminal: %q", out)
	}
	// A program that dies with the terminal in raw mode.
	enter(tm, "stty raw -echo; false")
	if out := enter(tm, "stty -a | tr ' ' '\\n' | grep -x -e echo -e icanon | sort | tr '\\n' ,"); !strings.Contains(out, "echo,icanon,") {
		t.Fatalf("terminal settings not restored: %q", out)
	}
	enter(tm, "echo searchable-line")
	tm.Type(shelltest.CtrlR, "searchable")
	tm.WaitFor("searchable-line")
	tm.Type(shelltest.Enter)
	tm.WaitFor("searchable-line\n")
	tm.WaitFor(ps1)
	exit(t, tm)
}

// TestREPLBackgroundJob checks that a job started with & outlives its
// command line.
func TestREPLBackgroundJob(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	tm := startShell(t, home)
	enter(tm, "(sleep 0.5; echo bg-done > bg.txt.new; mv bg.txt.new bg.txt) &")
	bg := filepath.Join(home, "bg.txt")
	testtime.Until(shelltest.Timeout(), func() bool { _, err := os.Stat(bg); return err == nil })
	if data, err := os.ReadFile(bg); err != nil || string(data) != "bg-done\n" {
		t.Fatalf("background job: %q, %v", data, err)
	}
	exit(t, tm)
}

// TestREPLPython runs a python REPL on the terminal: Ctrl-C reaches
// python, which handles it and goes on (the shell must not kill it).
func TestREPLPython(t *testing.T) {
	t.Parallel()
	if exec.Command("python3", "-c", "pass").Run() != nil {
		needs.Missing(t, "no python3")
	}
	tm := startShell(t, "")
	tm.Line("python3 -q")
	tm.WaitFor(">>> ")
	// Said once the line runs; the echo of what was typed does not say it.
	tm.Type(`print("loop" + "ing"); exec("while True: pass")` + "\r")
	tm.WaitFor("looping")
	tm.Type(shelltest.CtrlC)
	tm.WaitFor("KeyboardInterrupt")
	tm.WaitFor(">>> ")
	// Past qsh's delay between SIGINT and SIGKILL for a program it cancels
	// (2 s): python must live. A slow machine only makes this weaker.
	time.Sleep(2500 * time.Millisecond)
	tm.Type("print(6*7)\r")
	tm.WaitFor("42")
	// Only at the prompt is Ctrl-D an end of input: a ^D typed
	// while python still runs the line is lost when its line
	// editor leaves canonical mode.
	tm.WaitFor(">>> ")
	tm.Type(shelltest.CtrlD)
	tm.WaitFor(ps1)
	if out := enter(tm, "echo st=$?"); !strings.Contains(out, "st=0") {
		t.Fatalf("after python: %q", out)
	}
}

// TestREPLVim: vim leaves a working prompt behind.
func TestREPLVim(t *testing.T) {
	t.Parallel()
	needs.Tool(t, "vim")
	tm := startShell(t, "")
	tm.Line("vim -u NONE -N")
	tm.WaitFor("~") // the empty buffer is drawn: vim reads keys
	tm.Type("ihello-vim", shelltest.Escape, ":q!\r")
	tm.WaitFor(ps1)
	out := enter(tm, "echo after-vim")
	if !strings.Contains(out, "after-vim") {
		t.Fatal(shelltest.Tail(out))
	}
}

// TestScriptInterrupt runs `qsh -c` on a terminal, as `ssh -t host cmd`
// does: Ctrl-C is the foreground program's to handle; if nothing handles
// it, the script stops with 130.
func TestScriptInterrupt(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	env := shelltest.Env("HOME="+home, "PATH="+os.Getenv("PATH"))
	tm := shelltest.Start(t, qshBinary(t), env,
		shelltest.Args("-c", `sh -c 'trap "echo caught; exit 0" INT; echo trap-set; sleep 10 & wait'; echo after-handled`))
	// Ctrl-C only once the child's trap is in place: a busy machine may take
	// long to get there, and an earlier ^C would rightly kill it. qsh gets
	// it too, and must not stop the script for it though it may read it
	// only once sh has exited.
	tm.WaitFor("trap-set")
	tm.Type(shelltest.CtrlC)
	tm.WaitFor("caught")
	tm.WaitFor("after-handled")
	if st := tm.WaitExit(); st != 0 {
		t.Fatalf("exit status %d", st)
	}

	tm = shelltest.Start(t, qshBinary(t), env,
		shelltest.Args("-c", `sh -c true; echo go; while :; do :; done; echo not-reached`))
	// A -c string catches SIGINT from its first program on, or after a few
	// ms of its own code (package shell's catchDelay), when a busy machine
	// gets round to it; before that, ^C would kill qsh as it kills bash.
	// And while a program runs, Ctrl-C is the program's: "go" comes once
	// sh is over.
	tm.WaitFor("go")
	tm.Type(shelltest.CtrlC)
	if st := tm.WaitExit(); st != 130 || strings.Contains(tm.Output(), "not-reached") {
		t.Fatalf("exit status %d, output %q", st, shelltest.Tail(tm.Output()))
	}
}
