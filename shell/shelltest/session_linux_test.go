package shelltest

import (
	"os/exec"
	"slices"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
)

// TestTaggedIsExact checks that one test's tag never finds another's
// processes: the end of a test kills what it finds.
func TestTaggedIsExact(t *testing.T) {
	start := func(tag string) int {
		cmd := exec.Command("sleep", "600")
		cmd.Env = []string{"A=b", tag}
		if err := cmd.Start(); err != nil {
			needs.Missing(t, "cannot start sleep: %v", err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd.Process.Pid
	}
	one, twelve := start("SHELLTEST_TERM=test.1"), start("SHELLTEST_TERM=test.12")
	other := start("X_SHELLTEST_TERM=test.1")
	got := tagged([]byte("SHELLTEST_TERM=test.1\x00"))
	if !slices.Contains(got, one) || slices.Contains(got, twelve) || slices.Contains(got, other) {
		t.Errorf("tagged found %v; want %d and neither %d nor %d", got, one, twelve, other)
	}
}
