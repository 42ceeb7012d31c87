package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
)

// TestNameAsInvoked runs qsh and bash each through a link named bash, as a
// system that makes qsh its bash does, and compares $0 and the prefix of
// messages: programs print their usage and match errors with them.
func TestNameAsInvoked(t *testing.T) {
	bash := needs.Tool(t, "bash")
	qsh := qshBinary(t)
	run := func(target string, args []string, stdin string) string {
		dir := t.TempDir()
		if err := os.Symlink(target, filepath.Join(dir, "bash")); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("./bash", args...)
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(stdin)
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	for _, c := range []struct {
		name  string
		args  []string
		stdin string
	}{
		{"command-string", []string{"-c", "echo $0; nosuch"}, ""},
		{"command-string-name", []string{"-c", "echo $0; nosuch", "prog"}, ""},
		{"stdin", nil, "echo $0\nnosuch\n"},
		{"syntax-error", []string{"-c", "echo ${x"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := run(bash, c.args, c.stdin)
			if got := run(qsh, c.args, c.stdin); got != want {
				t.Errorf("as bash %q:\nbash: %q\nqsh:  %q", c.args, want, got)
			}
		})
	}
}

func TestShellName(t *testing.T) {
	for _, c := range []struct {
		args  []string
		login bool
		want  string
	}{
		{nil, false, "qsh"},
		{[]string{"/usr/local/bin/qsh"}, false, "qsh"},
		{[]string{"-qsh"}, true, "-qsh"},
		{[]string{"/bin/bash"}, false, "/bin/bash"},
		{[]string{"-bash"}, true, "-bash"},
		{[]string{"sh"}, false, "sh"},
	} {
		if got := shellName(c.args, c.login); got != c.want {
			t.Errorf("shellName(%q, %v) = %q, want %q", c.args, c.login, got, c.want)
		}
	}
}
