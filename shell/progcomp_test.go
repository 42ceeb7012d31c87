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

// BenchmarkSourceBashCompletion is what sourcing bash-completion costs at
// start-up.
func BenchmarkSourceBashCompletion(b *testing.B) {
	if _, err := os.Stat(bashCompletion); err != nil {
		b.Skip("bash-completion is not installed")
	}
	for b.Loop() {
		tabShell(b, "source "+bashCompletion)
	}
}

// BenchmarkTabBashCompletion is one Tab through bash-completion: the first
// of a session, which loads apt-get's completions, and the next ones.
func BenchmarkTabBashCompletion(b *testing.B) {
	if _, err := os.Stat(bashCompletion); err != nil {
		b.Skip("bash-completion is not installed")
	}
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			s, _ := tabShell(b, "source "+bashCompletion)
			b.StartTimer()
			if cands, _, _ := s.tabComplete("apt-get insta", 13, false); len(cands) != 1 {
				b.Fatalf("candidates %q", cands)
			}
		}
	})
	b.Run("next", func(b *testing.B) {
		s, _ := tabShell(b, "source "+bashCompletion)
		s.tabComplete("apt-get insta", 13, false)
		for b.Loop() {
			if cands, _, _ := s.tabComplete("apt-get insta", 13, false); len(cands) != 1 {
				b.Fatalf("candidates %q", cands)
			}
		}
	})
}
