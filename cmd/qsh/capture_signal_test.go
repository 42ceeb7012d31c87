//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/internal/testtime"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// TestCaptureSignalBeforePrompt sends SIGTERM to an interactive qsh while
// its ~/.qshrc still runs, before the inner shell printed anything: the
// proxy must not die of it with the user's terminal left in raw mode (a
// parent such as dash, sh or a login program does not restore it), but
// pass it on to the inner shell, as it does after the prompt.
func TestCaptureSignalBeforePrompt(t *testing.T) {
	t.Parallel()
	bin := qshBinary(t)
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".qshrc"), []byte("sleep 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	master, tty, err := pty.Open()
	if err != nil {
		needs.Missing(t, "no pseudo-terminal: %v", err)
	}
	defer master.Close()
	defer tty.Close()
	before, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Dir = home
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "TERM=xterm", "HOME=" + home,
		"XDG_STATE_HOME=" + home, "PS1=" + ps1}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	defer func() {
		select {
		case <-exited:
		default:
			cmd.Process.Kill()
			<-exited
		}
	}()
	// The user's terminal: answer cursor queries, and say when the prompt
	// came.
	prompt := make(chan struct{})
	go func() {
		var seen []byte
		shown := false
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			if n > 0 {
				seen = append(seen, buf[:n]...)
				for range bytes.Count(buf[:n], []byte("\x1b[6n")) {
					master.Write([]byte("\x1b[1;1R"))
				}
				if !shown && bytes.Contains(seen, []byte(ps1)) {
					close(prompt)
					shown = true
				}
			}
			if err != nil {
				return
			}
		}
	}()

	// Raw mode on the user's terminal says the inner shell has started;
	// its rc file keeps it from printing for a second. The proxy catches
	// signals from before it makes the terminal raw.
	raw := func() bool {
		tio, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
		return err == nil && tio.Lflag&unix.ICANON == 0
	}
	if !testtime.Until(shelltest.Timeout(), raw) {
		t.Fatal("qsh never put the terminal in raw mode")
	}
	cmd.Process.Signal(syscall.SIGTERM)

	select {
	case <-exited:
	case <-prompt:
		master.Write([]byte("exit\r"))
		select {
		case <-exited:
		case <-time.After(shelltest.Timeout()):
			t.Fatal("qsh did not exit")
		}
	case <-time.After(shelltest.Timeout()):
		t.Fatal("qsh neither exited nor prompted after SIGTERM")
	}
	if ws := cmd.ProcessState.Sys().(syscall.WaitStatus); ws.Signaled() {
		t.Errorf("qsh died of %v sent before its first prompt", ws.Signal())
	}
	after, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if *after != *before {
		t.Errorf("qsh left the terminal's modes changed (raw: %v)", after.Lflag&unix.ICANON == 0)
	}
}
