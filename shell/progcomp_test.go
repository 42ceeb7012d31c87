package shell

import (
	"bytes"
	"context"
	"os"
	"slices"
	"testing"

	"github.com/qsh-shell/qsh/shell/rewrite"
)

// tabShell is a shell that ran setup, for Tab tests.
func tabShell(t testing.TB, setup string) (*Shell, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	s, err := New(Stdio(nil, &out, &out), Environ([]string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}), Interactive(true))
	if err != nil {
		t.Fatal(err)
	}
	s.RunString(context.Background(), setup)
	return s, &out
}

const bashCompletion = "/usr/share/bash-completion/bash_completion"

func TestTabBashCompletion(t *testing.T) {
	if _, err := os.Stat(bashCompletion); err != nil {
		t.Skip("bash-completion is not installed (test.sh installs it)")
	}
	s, out := tabShell(t, "source "+bashCompletion)
	cands, replace, ok := s.tabComplete("apt-get insta", 13, false)
	if !ok || replace != 5 || !slices.Equal(cands, []string{"install "}) {
		t.Errorf("apt-get insta<Tab>: %q %d %v; output %q", cands, replace, ok, out)
	}
}

// Package rewrite's loops end with statusMark, which the shell runs.
func TestRewriteStatusBuiltin(t *testing.T) {
	if rewrite.StatusBuiltin != statusMark {
		t.Errorf("rewrite calls %q, the shell's status builtin is %q", rewrite.StatusBuiltin, statusMark)
	}
}
