package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
)

// TestOneshotReplaces checks that a -c string of one simple command runs
// its program in qsh's own process, as bash does (the program's parent is
// whoever started qsh), and that anything more runs it as a child.
func TestOneshotReplaces(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		needs.Missing(t, "no /proc")
	}
	bin := qshBinary(t)
	dir := t.TempDir()
	noShebang := filepath.Join(dir, "noshebang")
	os.WriteFile(noShebang, []byte("cat /proc/self/stat\n"), 0o755)
	me := strconv.Itoa(os.Getpid())
	for _, tc := range []struct {
		script  string
		replace bool
	}{
		{"cat /proc/self/stat", true},
		{"X=1 cat /proc/self/stat", true},
		{"exec cat /proc/self/stat", true},
		{"cat /proc/self/stat; true", false},
		{"cat /proc/self/stat >&2", false},
		{"cat /proc/self/stat | cat", false},
		{"! cat /proc/self/stat", false},
		{noShebang, false}, // the kernel refuses it: a new qsh runs it
	} {
		cmd := exec.Command(bin, "-c", tc.script)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil && !strings.HasPrefix(tc.script, "!") {
			t.Errorf("qsh -c %q: %v\n%s", tc.script, err, out)
			continue
		}
		f := strings.Fields(string(out[strings.LastIndexByte(string(out), ')')+1:]))
		if len(f) < 2 {
			t.Errorf("qsh -c %q printed %q", tc.script, out)
			continue
		}
		if replaced := f[1] == me; replaced != tc.replace {
			t.Errorf("qsh -c %q: the program's parent is %s, the test is %s: replaced %v, want %v", tc.script, f[1], me, replaced, tc.replace)
		}
	}
	// The status is the program's.
	if err := exec.Command(bin, "-c", "sh -c 'exit 3'").Run(); err == nil || err.(*exec.ExitError).ExitCode() != 3 {
		t.Errorf("qsh -c \"sh -c 'exit 3'\": %v", err)
	}
}
