package shell

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/internal/testtime"
)

// TestRCInterrupted sends Ctrl-C's signal while ~/.qshrc loops: the file
// stops and the shell goes on (were the signal not caught yet, it would
// end the test binary).
func TestRCInterrupted(t *testing.T) {
	home := t.TempDir()
	t.Chdir(home)
	started := filepath.Join(home, "started")
	rc := "echo rc\n: > started\nwhile true; do :; done\necho not-reached\n"
	if err := os.WriteFile(filepath.Join(home, ".qshrc"), []byte(rc), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	s, err := New(Stdio(nil, &out, &out), Environ([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}), Interactive(true))
	if err != nil {
		t.Fatal(err)
	}
	defer s.sigs.stop()
	go func() {
		if testtime.Until(30*time.Second, func() bool { _, err := os.Stat(started); return err == nil }) {
			syscall.Kill(os.Getpid(), syscall.SIGINT)
		}
	}()
	s.RC(t.Context())
	if got := out.String(); got != "rc\n" {
		t.Errorf("rc printed %q", got)
	}
	out.Reset()
	if st := s.run(t.Context(), "echo after", ""); st != 0 || strings.TrimSpace(out.String()) != "after" {
		t.Errorf("after the rc file: status %d, output %q", st, out.String())
	}
}
