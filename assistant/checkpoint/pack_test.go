package checkpoint

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPack: a scan that stores more than looseMax contents packs the
// rest; undo restores from the pack, git reads it, and it is deleted
// once nothing refers to it (and not before).
func TestPack(t *testing.T) {
	dir := t.TempDir()
	var script strings.Builder
	for i := range 48 {
		// Some big enough for sizes of several bytes, two the same.
		fmt.Fprintf(&script, "head -c %d /dev/urandom > f%02d; ", i*i*40, i)
	}
	sh(t, dir, setup+script.String()+"cp f40 f41")
	want := tree(t, dir)
	base := t.TempDir()
	s, _ := Open(base, dir, DefaultLimits)
	p, err := s.Begin("x")
	if err != nil {
		t.Fatal(err)
	}
	packs := s.objs.packs()
	if len(packs) != 1 {
		t.Fatalf("packs after the first scan: %v", packs)
	}
	sh(t, dir, "rm f0*; echo x > f40; chmod 600 f47; echo y >> a.txt")
	if cp, err := p.Commit(); err != nil || cp == nil {
		t.Fatal(cp, err)
	}
	if _, err := exec.LookPath("git"); err == nil {
		sh(t, dir, "git verify-pack "+packs[0]+".idx")
		repo := t.TempDir()
		sh(t, repo, "git init -q")
		cmd := exec.Command("git", "cat-file", "-p", s.cache["f41"].Blob)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_OBJECT_DIRECTORY="+s.objs.dir)
		out, err := cmd.Output()
		if b, _ := os.ReadFile(filepath.Join(dir, "f41")); err != nil || string(out) != string(b) {
			t.Errorf("git cat-file of a packed blob: %v", err)
		}
	}
	plan, err := s.Plan(1)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Restore(plan); err != nil {
		t.Fatal(err)
	}
	if got := tree(t, dir); got != want {
		t.Errorf("after undo:\n%s", lineDiff(got, want))
	}

	// Referred to by the cache: kept, however old.
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(packs[0]+".idx", old, old)
	os.Chtimes(packs[0]+".pack", old, old)
	s.mu.Lock()
	s.enforce()
	s.mu.Unlock()
	if _, err := os.Stat(packs[0] + ".pack"); err != nil {
		t.Fatal("a live pack was deleted")
	}
	// Referred to by nothing.
	s.mu.Lock()
	s.cache = nil
	s.enforce()
	s.mu.Unlock()
	if got := s.objs.packs(); len(got) != 0 {
		cps, _ := s.List()
		t.Errorf("a dead pack was kept: %v %v %d", got, packs, len(cps))
	}
	if _, err := os.Stat(packs[0] + ".pack"); err == nil {
		t.Error("a dead pack's index was deleted, not the pack")
	}
}
