//go:build linux

package checkpoint

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// watchedStore is a store of dir whose first walk is done, its watcher
// in place; the test is skipped where there is no watcher.
func watchedStore(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(t.TempDir(), dir, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	s.now = func() time.Time { return time.Now().Add(time.Minute) } // nothing racy
	if _, err := s.Begin("first"); err != nil {
		t.Fatal(err)
	}
	if s.watch == nil {
		t.Skip("no inotify watcher for", dir)
	}
	return s
}

// sameAsFresh fails unless s's next walk finds what a store without a
// cache or a watcher finds.
func sameAsFresh(t *testing.T, s *Store, dir string) {
	t.Helper()
	p, err := s.Begin("next")
	if err != nil {
		t.Fatal(err)
	}
	fresh, _ := Open(t.TempDir(), dir, DefaultLimits)
	q, err := fresh.Begin("fresh")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dump(p.before), dump(q.before); got != want {
		t.Errorf("watched walk:\n%s", lineDiff(got, want))
	}
}

// TestWatchedWalk changes the workspace between two walks, the second of
// which reads only what the watcher names.
func TestWatchedWalk(t *testing.T) {
	for _, script := range []string{
		"echo more >> src/x.go",
		// Same size and mtime: only the event tells.
		"touch -r src/deep/d.txt ref; printf 'DEEP\\n' > src/deep/d.txt; touch -r ref src/deep/d.txt; rm ref",
		"mkdir -p src/deep/a/b/c && echo n > src/deep/a/b/c/f",
		"mv src/deep src/deeper && echo more >> src/deeper/d.txt", // its watch keeps the old key
		"rm -r src/deep && mkdir src/deep && echo again > src/deep/d.txt",
		"chmod 700 src/deep",
		"ln src/deep/d.txt hard", // a second name
	} {
		t.Run(script, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			sh(t, dir, setup)
			s := watchedStore(t, dir)
			sh(t, dir, script)
			sameAsFresh(t, s, dir)
			// And again, from that walk.
			sh(t, dir, "echo last >> src/x.go")
			sameAsFresh(t, s, dir)
		})
	}
}

// TestWatchedHardLink writes a file through a name in another directory:
// only that directory hears of it, yet the walk sees the change.
func TestWatchedHardLink(t *testing.T) {
	dir := t.TempDir()
	sh(t, dir, setup+"mkdir other && ln src/deep/d.txt other/d.txt")
	s := watchedStore(t, dir)
	sameAsFresh(t, s, dir)
	// The same size, and the mtime put back: the event is other's.
	sh(t, dir, "touch -r other/d.txt ref; printf 'DEEP\\n' > other/d.txt; touch -r ref other/d.txt; rm ref")
	if d, _ := s.watch.take(); d == nil { // a walk would have taken these
		t.Fatal("the watcher gave up")
	}
	// The events are gone: only the links rule finds the change.
	sameAsFresh(t, s, dir)
}

// TestWatchWindow changes files right before a walk, and while one is
// under way (after it read the events): the first walk sees the former,
// and the next the latter.
func TestWatchWindow(t *testing.T) {
	dir := t.TempDir()
	sh(t, dir, setup)
	s := watchedStore(t, dir)
	for i := range 20 {
		// Same size each time, mtime put back: no stat data moves but ctime.
		name := filepath.Join(dir, "src", "deep", "d.txt")
		fi, _ := os.Stat(name)
		os.WriteFile(name, []byte(fmt.Sprintf("d%03d\n", i)), 0o644)
		os.Chtimes(name, fi.ModTime(), fi.ModTime())
		p, err := s.Begin("x")
		if err != nil {
			t.Fatal(err)
		}
		if e := p.before["src/deep/d.txt"]; e == nil || e.Blob != blobID([]byte(fmt.Sprintf("d%03d\n", i))) {
			t.Fatalf("step %d: the change before the walk was missed: %v", i, e)
		}
	}
	changed := false
	s.afterTake = func() {
		if !changed {
			changed = true
			os.WriteFile(filepath.Join(dir, "a.txt"), []byte("during\n"), 0o600)
			os.Mkdir(filepath.Join(dir, "src", "new"), 0o755)
		}
	}
	if _, err := s.Begin("during"); err != nil {
		t.Fatal(err)
	}
	s.afterTake = nil
	sameAsFresh(t, s, dir)
}

// TestWatchOverflow fills the kernel's queue of events before a change:
// its event is lost, and the walk, told of the overflow, is whole.
func TestWatchOverflow(t *testing.T) {
	b, err := os.ReadFile("/proc/sys/fs/inotify/max_queued_events")
	if err != nil {
		t.Skip(err)
	}
	max, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || max > 200_000 {
		t.Skip("queue too long to fill:", max)
	}
	dir := t.TempDir()
	sh(t, dir, setup)
	s := watchedStore(t, dir)
	a, c := filepath.Join(dir, "a.txt"), filepath.Join(dir, "run.sh")
	then := time.Now().Add(-time.Hour)
	for i := range max + 10 {
		// Two names in turn: the kernel merges an event like the last.
		os.Chtimes([]string{a, c}[i%2], then, then)
	}
	name := filepath.Join(dir, "src", "deep", "d.txt")
	fi, _ := os.Stat(name)
	os.WriteFile(name, []byte("DEEP\n"), 0o644)
	os.Chtimes(name, fi.ModTime(), fi.ModTime())
	sameAsFresh(t, s, dir)
	if e := s.cache["src/deep/d.txt"]; e == nil || e.Blob != blobID([]byte("DEEP\n")) {
		t.Errorf("the change after the overflow was missed: %v", e)
	}
}

// TestWatchedGit changes a git work tree between two scans, the second
// of which runs git only if what it lists may have changed, and stats
// only what the watcher names.
func TestWatchedGit(t *testing.T) {
	for _, script := range []string{
		"echo more >> src/x.go",
		"touch -r src/deep/d.txt ref; printf 'DEEP\\n' > src/deep/d.txt; touch -r ref src/deep/d.txt; rm ref",
		"echo new > untracked.txt",
		"echo new > empty/now", // in a directory that held nothing git lists
		"mkdir -p src/a/b && echo n > src/a/b/f",
		"echo '*.txt' >> .gitignore",
		"echo 'a.txt' >> .git/info/exclude",
		"git rm -q --cached a.txt",
		"git add -f build/out.log", // tracked now, no name made
		"mv src/deep src/deeper && echo more >> src/deeper/d.txt",
		"rm -r src/deep",
		"git -c user.name=t -c user.email=t@e commit -qam two --allow-empty",
		"chmod 755 src/x.go",
	} {
		t.Run(script, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			sh(t, dir, setup+`mkdir empty build && echo '*.log' > .gitignore && echo x > build/out.log
git init -q && git add -A && git -c user.name=t -c user.email=t@e commit -qm one
echo u > loose.txt`)
			s := watchedStore(t, dir)
			if !s.Git() {
				t.Fatal("not a git work tree")
			}
			sameAsFresh(t, s, dir) // a scan that trusts the watcher
			sh(t, dir, script)
			sameAsFresh(t, s, dir)
			sh(t, dir, "echo last >> src/x.go; echo more > new.txt")
			sameAsFresh(t, s, dir)
		})
	}
}

// TestWatchWindowGit makes changes in a git work tree while a scan is
// under way (after it read the events): the next scan sees them.
func TestWatchWindowGit(t *testing.T) {
	dir := t.TempDir()
	sh(t, dir, setup+"git init -q && git add -A && git -c user.name=t -c user.email=t@e commit -qm one")
	s := watchedStore(t, dir)
	sameAsFresh(t, s, dir)
	changed := false
	s.afterTake = func() {
		if !changed {
			changed = true
			os.WriteFile(filepath.Join(dir, "a.txt"), []byte("during\n"), 0o600)
			os.WriteFile(filepath.Join(dir, "src", "new.go"), []byte("package x\n"), 0o644)
		}
	}
	if _, err := s.Begin("during"); err != nil {
		t.Fatal(err)
	}
	s.afterTake = nil
	sameAsFresh(t, s, dir)
}
