package main

import (
	"errors"
	"os"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// TestHistoryDiskFull fills the disk the history file is on (a small
// tmpfs, mounted in a mount namespace of the shell's own) and frees it
// again: the file keeps whole lines, the user is told once, and saving
// resumes with the entries that waited. Needs root, for the mount.
func TestHistoryDiskFull(t *testing.T) {
	t.Parallel()
	if u, err := user.Current(); err != nil || u.Uid != "0" {
		t.Skip("mounting a tmpfs needs root")
	}
	home := t.TempDir()
	state := filepath.Join(home, "state")
	os.Mkdir(state, 0o700)
	tm := shelltest.Start(t, "unshare", shelltest.Dir(home),
		shelltest.Args("-m", "--propagation", "private", "/bin/sh", "-c",
			`mount -t tmpfs -o size=256k tmpfs "$1" || exit 97; exec "$2"`, "sh", state, qshBinary(t)),
		shelltest.Env("HOME="+home, "XDG_STATE_HOME="+state, "PS1="+ps1))
	tm.WaitFor(ps1)
	// The shell's view of the state directory, from outside its namespace.
	dir := filepath.Join("/proc", strconv.Itoa(tm.Pid()), "root", state)
	var fs syscall.Statfs_t
	if err := syscall.Statfs(dir, &fs); err != nil || fs.Type != 0x01021994 { // TMPFS_MAGIC
		needs.Missing(t, "no tmpfs at %s (%v): unshare or mount not allowed here", dir, err)
	}
	hist := filepath.Join(dir, "qsh", "history")
	enter(tm, "echo first")
	fill(t, filepath.Join(dir, "filler"))

	// Longer than the page the file has: the disk must give it another.
	long := "echo " + strings.Repeat("y", 6000) + " >/dev/null; echo long-''done"
	tm.Mark()
	tm.Type(pasteStart + long + pasteEnd + shelltest.Enter)
	out := tm.WaitFor("long-done")
	tm.WaitFor(ps1)
	if !strings.Contains(out, "qsh: history not saved: ") || !strings.Contains(out, "no space left on device") {
		t.Errorf("the first line not saved:\n%s", shelltest.Tail(out))
	}
	if out := enter(tm, "echo second"); strings.Contains(out, "history not saved") {
		t.Errorf("said twice:\n%s", shelltest.Tail(out))
	}
	if data, _ := os.ReadFile(hist); unstamped(data) != "echo first\n" {
		t.Errorf("the history file while the disk is full: %q", data)
	}
	os.Remove(filepath.Join(dir, "filler"))
	if out := enter(tm, "echo third"); !strings.Contains(out, "qsh: history saved again (3 entries that had waited)") {
		t.Errorf("after room came back:\n%s", shelltest.Tail(out))
	}
	if data, _ := os.ReadFile(hist); unstamped(data) != "echo first\n"+long+"\necho second\necho third\n" {
		t.Errorf("the history file after: %q", shelltest.Tail(string(data)))
	}
	exit(t, tm)
}

// unstamped is a history file without its timestamp lines.
func unstamped(data []byte) string {
	return regexp.MustCompile(`(?m)^#[0-9]+\n`).ReplaceAllString(string(data), "")
}

const pasteStart, pasteEnd = "\x1b[200~", "\x1b[201~"

// fill writes path until the disk it is on is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	// Byte by byte, the last page's room too.
	for {
		if _, err := f.Write(chunk[:1]); err != nil {
			return
		}
	}
}
