//go:build unix

package pattern

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// TestGlobUnreadable compares with bash in a tree where a directory cannot
// be listed and one cannot be entered. Root reads them all, so as root the
// test runs itself again as nobody.
func TestGlobUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		if os.Getenv("QSH_PATTERN_NOBODY") != "" {
			t.Fatal("still root after switching to nobody")
		}
		runAsNobody(t, "TestGlobUnreadable")
		return
	}
	needBash(t)
	dir := makeTree(t)
	for _, d := range []string{"nolist", "noenter"} {
		if err := os.MkdirAll(filepath.Join(dir, d, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, d, "f"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// nolist can be entered but not listed; noenter neither.
	if err := os.Chmod(filepath.Join(dir, "nolist"), 0o311); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, "noenter"), 0o000); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		os.Chmod(filepath.Join(dir, "nolist"), 0o755)
		os.Chmod(filepath.Join(dir, "noenter"), 0o755)
	})
	patterns := []string{"*", "no*/*", "no*/f", "nolist/*", "nolist/f*", "nolist/[f]", "noenter/*",
		"noenter/[f]", "*/f", "*/sub/", "**", "**/f", "nolist/**", "*/*/", "nolist/**/f",
		"noenter/**/f", "nolist/**/", "**/sub/", "nolist/*/f", "nolist/sub/*"}
	o := globOpts{name: "globstar", opt: GlobOptions{GlobStar: true, SkipDots: true}}
	want := bashGlob(t, dir, o, patterns)
	for i, pat := range patterns {
		got, err := Glob(context.Background(), dir, pat, o.opt)
		if err != nil {
			t.Fatalf("Glob(%q): %v", pat, err)
		}
		if len(want[i]) == 0 {
			want[i] = nil
		}
		if !slices.Equal(got, want[i]) {
			t.Errorf("Glob(%q)\n got %q\nbash %q", pat, got, want[i])
		}
	}
}

// runAsNobody runs the test named again, in a copy of the test binary that
// user nobody (65534) may execute, as nobody.
func runAsNobody(t *testing.T, name string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp("", "pattern-nobody")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	if err := os.Chmod(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(tmp, "pattern.test")
	if err := copyFile(self, bin); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^"+name+"$", "-test.v")
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "QSH_PATTERN_NOBODY=1", "HOME="+tmp, "TMPDIR=/tmp")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if strings.Contains(string(out), "--- SKIP") {
		t.Skipf("as nobody: %s", tail(string(out)))
	}
	if err != nil {
		t.Fatalf("as nobody: %v\n%s", err, tail(string(out)))
	}
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
