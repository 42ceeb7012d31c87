package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// tree is what a test compares: every path under dir but .git's objects,
// with its kind, mode and content or target.
func tree(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return nil
		}
		if rel == ".git/objects" || rel == ".git/hooks" || strings.HasPrefix(rel, ".git/logs") && false {
			return filepath.SkipDir
		}
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			lines = append(lines, fmt.Sprintf("%s -> %s", rel, target))
		case fi.IsDir():
			lines = append(lines, fmt.Sprintf("%s/ %v", rel, fi.Mode().Perm()))
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, fmt.Sprintf("%s %v %q", rel, perm(fi.Mode()), b))
		}
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// sh runs script in dir with sh.
func sh(t *testing.T, dir, script string) {
	t.Helper()
	cmdSh(t, dir, script)
}

func cmdSh(t testing.TB, dir, script string) {
	t.Helper()
	cmd := exec.Command("sh", "-ec", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
}

func open(t *testing.T, root string, lim Limits) *Store {
	t.Helper()
	s, err := Open(t.TempDir(), root, lim)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const setup = `
printf 'one\ntwo\n' > a.txt
printf 'binary\000\377\001' > bin.dat
mkdir -p src/deep
printf 'package x\n' > src/x.go
printf 'deep\n' > src/deep/d.txt
printf '#!/bin/sh\necho hi\n' > run.sh
chmod 755 run.sh
chmod 600 a.txt
ln -s src/x.go link
ln -s nowhere dangling
`

var runs = []struct {
	name, script string
	git          bool // only in a git work tree
}{
	{"sed over files", `sed -i 's/o/0/g' a.txt src/x.go src/deep/d.txt`, false},
	{"rm -r a directory", `rm -r src`, false},
	{"create delete chmod", `echo new > new.txt; mkdir -p made/sub; echo x > made/sub/f; rm bin.dat; chmod 640 run.sh; chmod 700 src`, false},
	{"binary rewrite", `printf '\000\000' > bin.dat; truncate -s 0 a.txt`, false},
	{"links", `rm link; ln -s a.txt link; rm dangling; echo file > dangling; ln -s run.sh newlink`, false},
	{"file becomes directory", `rm a.txt; mkdir a.txt; echo in > a.txt/f; rm -r src/deep; echo flat > src/deep`, false},
	{"setuid and sticky", `chmod 4755 run.sh; chmod 1777 src/deep`, false},
	{"commit --amend", `echo amended >> a.txt; git add a.txt; git commit -q --amend -m amended`, true},
	{"reset --hard and stash", `echo dirty >> src/x.go; git stash -q; git reset -q --hard HEAD~1`, true},
	{"new branch and checkout", `git checkout -q -b other; echo b > b.txt; git add b.txt; git commit -q -m b`, true},
}

// TestUndo runs each script between a checkpoint's two scans, then
// undoes it: the tree must be as before, byte for byte, in a git work
// tree and outside one.
func TestUndo(t *testing.T) {
	for _, git := range []bool{false, true} {
		for _, r := range runs {
			if r.git && !git {
				continue
			}
			name := r.name
			if git {
				name = "git/" + name
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				sh(t, dir, setup)
				if git {
					sh(t, dir, "git init -q; git add -A; git commit -q -m one; echo two >> a.txt; git commit -qam two; echo staged > st.txt; git add st.txt")
				}
				want := tree(t, dir)
				s := open(t, dir, DefaultLimits)
				if s.Git() != git {
					t.Fatalf("Git() = %v", s.Git())
				}
				p, err := s.Begin(r.script)
				if err != nil {
					t.Fatal(err)
				}
				sh(t, dir, r.script)
				changed := tree(t, dir)
				if changed == want {
					t.Fatal("the script changed nothing")
				}
				cp, err := p.Commit()
				if err != nil || cp == nil {
					t.Fatalf("Commit: %v, %v", cp, err)
				}
				plan, err := s.Plan(1)
				if err != nil {
					t.Fatal(err)
				}
				if len(plan.Conflicts) > 0 || len(plan.Lost) > 0 || len(plan.Steps) == 0 {
					t.Fatalf("plan: %+v", plan)
				}
				if err := s.Restore(plan); err != nil {
					t.Fatal(err)
				}
				if got := tree(t, dir); got != want {
					t.Errorf("after undo:\n%s", lineDiff(got, want))
				}
				if cps, _ := s.List(); len(cps) != 0 {
					t.Errorf("%d checkpoints left after the undo", len(cps))
				}
				if git {
					// git agrees: nothing to fsck, the same HEAD and status.
					sh(t, dir, "git fsck --no-dangling 2>&1 && git status --porcelain >/dev/null")
				}
			})
		}
	}
}

// TestUndoRefusesWhatTheUserChanged checks that a path changed since the
// run is a conflict, that nothing is restored then, and that other paths
// do not matter.
func TestUndoRefusesWhatTheUserChanged(t *testing.T) {
	for _, tc := range []struct {
		name, after string
		conflict    string // "" for none
	}{
		{"edited the same file", "echo mine >> a.txt", "a.txt"},
		{"chmod the same file", "chmod 644 a.txt", "a.txt"},
		{"recreated a deleted file", "echo back > gone.txt", "gone.txt"},
		{"deleted a created file", "rm new.txt", "new.txt"},
		{"touched only the time", "touch a.txt", ""},
		{"changed another file", "echo other >> src/x.go", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			sh(t, dir, setup+"echo g > gone.txt")
			s := open(t, dir, DefaultLimits)
			p, _ := s.Begin("x")
			sh(t, dir, "echo run >> a.txt; rm gone.txt; echo n > new.txt")
			if _, err := p.Commit(); err != nil {
				t.Fatal(err)
			}
			sh(t, dir, tc.after)
			before := tree(t, dir)
			plan, err := s.Plan(1)
			if err != nil {
				t.Fatal(err)
			}
			if tc.conflict == "" {
				if len(plan.Conflicts) > 0 {
					t.Fatalf("conflicts: %+v", plan.Conflicts)
				}
				if err := s.Restore(plan); err != nil {
					t.Fatal(err)
				}
				return
			}
			if len(plan.Conflicts) != 1 || plan.Conflicts[0].Path != tc.conflict {
				t.Fatalf("conflicts: %+v", plan.Conflicts)
			}
			if err := s.Restore(plan); err == nil {
				t.Fatal("restored despite a conflict")
			}
			if tree(t, dir) != before {
				t.Error("a refused undo changed files")
			}
		})
	}
}

// TestUndoSteps undoes two runs at once, and refuses when the user
// changed a file between them.
func TestUndoSteps(t *testing.T) {
	dir := t.TempDir()
	sh(t, dir, setup)
	want := tree(t, dir)
	s := open(t, dir, DefaultLimits)
	// A clock a second further at each reading: the runs' IDs order as
	// they ran, however fast the machine is.
	clock := time.Now()
	s.now = func() time.Time { clock = clock.Add(time.Second); return clock }
	for _, script := range []string{"echo 1 >> a.txt; rm bin.dat", "echo 2 >> a.txt; echo n > new"} {
		p, _ := s.Begin(script)
		sh(t, dir, script)
		if cp, err := p.Commit(); err != nil || cp == nil {
			t.Fatal(cp, err)
		}
	}
	cps, _ := s.List()
	if len(cps) != 2 || cps[0].Label != "echo 2 >> a.txt; echo n > new" {
		t.Fatalf("list: %+v", cps)
	}
	if _, err := s.Plan(3); err == nil {
		t.Error("Plan(3) of 2 checkpoints")
	}
	plan, err := s.Plan(2)
	if err != nil || len(plan.Conflicts) > 0 {
		t.Fatal(plan, err)
	}
	if err := s.Restore(plan); err != nil {
		t.Fatal(err)
	}
	if got := tree(t, dir); got != want {
		t.Errorf("after undo 2:\n%s\nwant:\n%s", got, want)
	}
}

// TestNoChangeNoCheckpoint: a run that changes nothing leaves none; nor
// does a git command that only refreshes the index.
func TestNoChangeNoCheckpoint(t *testing.T) {
	dir := t.TempDir()
	sh(t, dir, setup+"git init -q; git add -A; git commit -q -m one")
	s := open(t, dir, DefaultLimits)
	for _, script := range []string{"true", "touch a.txt; git status >/dev/null"} {
		p, err := s.Begin(script)
		if err != nil {
			t.Fatal(err)
		}
		sh(t, dir, script)
		if cp, err := p.Commit(); cp != nil || err != nil {
			t.Errorf("%s: checkpoint %+v, %v", script, cp, err)
		}
	}
}

// TestSizePolicy: a file over the limit is not kept and undo says so; a
// workspace over the file count is not checkpointed.
func TestSizePolicy(t *testing.T) {
	dir := t.TempDir()
	sh(t, dir, setup+"head -c 5000 /dev/zero > big")
	s := open(t, dir, Limits{MaxFile: 4096, MaxFiles: 100})
	p, _ := s.Begin("x")
	sh(t, dir, "rm big; echo x >> a.txt")
	if _, err := p.Commit(); err != nil {
		t.Fatal(err)
	}
	plan, err := s.Plan(1)
	if err != nil || len(plan.Lost) != 1 || plan.Lost[0] != "big" {
		t.Fatalf("plan %+v, %v", plan, err)
	}
	s = open(t, dir, Limits{MaxFiles: 3})
	if _, err := s.Begin("x"); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Begin of a workspace over MaxFiles: %v", err)
	}
	s = open(t, dir, Limits{Keep: Keep{Bytes: 20}})
	if _, err := s.Begin("x"); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Begin of a workspace over Keep.Bytes: %v", err)
	}
}

// TestDamagedStore: a record that is not one, and a content missing from
// the store, each give one clear error and no panic.
func TestDamagedStore(t *testing.T) {
	dir := t.TempDir()
	sh(t, dir, setup)
	s := open(t, dir, DefaultLimits)
	p, _ := s.Begin("x")
	sh(t, dir, "echo x >> a.txt")
	cp, err := p.Commit()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(s.Dir(), "records", "zzz.json"), []byte("{not json"), 0o600)
	cps, problem := s.List()
	if len(cps) != 1 || !strings.Contains(problem, "1 damaged record") {
		t.Errorf("list: %d, %q", len(cps), problem)
	}
	plan, err := s.Plan(1)
	if err != nil {
		t.Fatal(err)
	}
	blob := cp.Changes[0].Before.Blob
	os.WriteFile(s.objs.path(blob), []byte("garbage"), 0o600)
	if err := s.Restore(plan); err == nil || !strings.Contains(err.Error(), "damaged") || !strings.Contains(err.Error(), "nothing was restored") {
		t.Errorf("restore from a damaged store: %v", err)
	}
	os.WriteFile(filepath.Join(s.Dir(), "cache"), []byte("qsh checkpoint cache 1\nbad\n"), 0o600)
	s2, _ := Open(filepath.Dir(s.Dir()), dir, DefaultLimits)
	if _, err := s2.Begin("y"); err != nil {
		t.Errorf("a damaged cache: %v", err)
	}
}

// TestPersistAndExpire: checkpoints survive a new Store (a restart); the
// age limit drops old ones, the size limit the oldest.
func TestPersistAndExpire(t *testing.T) {
	dir := t.TempDir()
	base := t.TempDir()
	sh(t, dir, setup)
	s, _ := Open(base, dir, DefaultLimits)
	clock := time.Now().Add(-9 * 24 * time.Hour)
	s.now = func() time.Time { return clock }
	for i := range 3 {
		p, _ := s.Begin(fmt.Sprint("run ", i))
		sh(t, dir, fmt.Sprintf("head -c %d /dev/urandom > r%d", 3000, i))
		if _, err := p.Commit(); err != nil {
			t.Fatal(err)
		}
		clock = clock.Add(3 * 24 * time.Hour)
	}
	s2, _ := Open(base, dir, DefaultLimits)
	if cps, _ := s2.List(); len(cps) != 3 {
		t.Fatalf("after a restart: %d checkpoints", len(cps))
	}
	// Now: 9 days after the first, which is over 7 days old.
	s2.now = time.Now
	s2.Begin("y")
	cps, _ := s2.List()
	if len(cps) != 2 || cps[1].Label != "run 1" {
		t.Fatalf("after expiry: %+v", cps)
	}
	s3, _ := Open(base, dir, Limits{Keep: Keep{Age: 0, Bytes: 1 << 20}})
	s3.now = s2.now
	s3.mu.Lock()
	s3.prepare()
	s3.mu.Unlock()
	if cps, _ := s3.List(); len(cps) != 2 {
		t.Errorf("under the size limit, %d left", len(cps))
	}
}

func TestKeep(t *testing.T) {
	for in, want := range map[string]Keep{
		"7d,1GB":      {7 * 24 * time.Hour, 1 << 30},
		"30d":         {30 * 24 * time.Hour, 1 << 30},
		"500MB":       {7 * 24 * time.Hour, 500 << 20},
		" 12h , 2gb ": {12 * time.Hour, 2 << 30},
		"0,0":         {0, 0},
		"":            DefaultKeep,
	} {
		var k Keep
		if err := k.UnmarshalText([]byte(in)); err != nil || k != want {
			t.Errorf("%q: %v, %v", in, k, err)
		}
	}
	for _, bad := range []string{"7", "1d,2d", "x", "1GB,2MB", "-1d"} {
		var k Keep
		if err := k.UnmarshalText([]byte(bad)); err == nil {
			t.Errorf("%q parsed as %v", bad, k)
		}
	}
}

// lineDiff is the lines of got and want that the other lacks, clipped.
func lineDiff(got, want string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	g, w := in(got), in(want)
	var out []string
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			out = append(out, "+ "+l[:min(len(l), 300)])
		}
	}
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			out = append(out, "- "+l[:min(len(l), 300)])
		}
	}
	return strings.Join(out, "\n")
}
