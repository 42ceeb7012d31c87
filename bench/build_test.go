package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
)

// shells builds qsh and gosh once per test binary, into a temp dir.
// BENCH_QSH and BENCH_GOSH name prebuilt binaries instead.
var shells struct {
	once       sync.Once
	dir        string
	qsh, gosh  string
	qErr, gErr error
}

func buildShells() {
	s := &shells
	s.dir, s.qErr = os.MkdirTemp("", "qsh-bench-")
	if s.qErr != nil {
		s.gErr = s.qErr
		return
	}
	build := func(env, pkg, name string) (string, error) {
		if p := os.Getenv(env); p != "" {
			return p, nil
		}
		out := filepath.Join(s.dir, name)
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", out, pkg)
		cmd.Dir = ".." // the module root: gosh builds at the version go.mod requires
		// As install.sh builds qsh; gosh the same way, for a fair comparison.
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if msg, err := cmd.CombinedOutput(); err != nil {
			return "", &buildError{pkg, err, string(msg)}
		}
		return out, nil
	}
	s.qsh, s.qErr = build("BENCH_QSH", "./cmd/qsh", "qsh")
	s.gosh, s.gErr = build("BENCH_GOSH", "mvdan.cc/sh/v3/cmd/gosh", "gosh")
}

type buildError struct {
	pkg string
	err error
	out string
}

func (e *buildError) Error() string { return "go build " + e.pkg + ": " + e.err.Error() + "\n" + e.out }

// shell returns the path of the named shell ("qsh", "gosh", "bash"),
// skipping the benchmark with the reason when it cannot be had.
func shell(b *testing.B, name string) string {
	b.Helper()
	if name == "bash" {
		p := needs.Tool(b, "bash")
		return p
	}
	shells.once.Do(buildShells)
	p, err := shells.qsh, shells.qErr
	if name == "gosh" {
		p, err = shells.gosh, shells.gErr
	}
	if err != nil {
		b.Skipf("cannot build %s, skipping: %v", name, err)
	}
	return p
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shells.dir != "" {
		os.RemoveAll(shells.dir)
	}
	os.Exit(code)
}
