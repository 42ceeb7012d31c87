package effect

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/expand"
)

// tree writes name → content under dir; a name ending in / is a directory.
func tree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func vars(kv ...string) expand.Environ { return expand.ListEnviron(kv...) }

// roomy is the budget of the table tests, which check what is said, not
// how fast: Budget is for an idle machine, and tests run on busy ones.
const roomy = time.Minute

func TestPreviewFiles(t *testing.T) {
	dir := t.TempDir()
	tree(t, dir, map[string]string{
		"build/a.o":      strings.Repeat("a", 1000),
		"build/b.o":      strings.Repeat("b", 1000),
		"build/c.txt":    strings.Repeat("c", 900),
		"dist/x/y/z.js":  "12345",
		"empty/":         "",
		"a.txt":          "hello",
		"b.txt":          "world!!",
		"sub/a.txt":      "old",
		"out.txt":        "12345",
		"zero.txt":       "",
		"my dir/f":       "ff",
		"src/keep.go":    "package x",
		"src/gen_pb.go":  "package x // generated",
		"src/sub/gen.go": "package x // generated too",
	})
	env := vars("HOME=/nonexistent", "B=build", "SPACED=my dir", "F=deploy")
	isFunc := func(name string) bool { return name == "deploy" }
	for _, tc := range []struct {
		cmd  string
		want string
	}{
		// Deletions: what is there, counted.
		{"rm -r build", "deletes 3 files, 2.9 kB in build/"},
		{"rm -rf build/", "deletes 3 files, 2.9 kB in build/"},
		{"rm -rf build dist gone", "deletes 4 files and 2 directories, 2.9 kB in build/, dist/; gone is not there"},
		{"rm --recursive --force -- dist", "deletes 1 file and 2 directories, 5 B in dist/"},
		{"rm a.txt b.txt", "deletes 2 files, 12 B: a.txt, b.txt"},
		{"rm build", "not build/ (a directory, without -r)"},
		{"rm -d empty", "deletes empty/ (empty)"},
		{"rm -r build/*.o", "deletes 2 files, 2.0 kB: build/a.o, build/b.o"},
		{"rm -r $B", "deletes 3 files, 2.9 kB in build/"},
		{`rm -r "$SPACED"`, "deletes 1 file, 2 B in my dir/"},
		{"X=build; rm -r $X", "deletes 3 files, 2.9 kB in build/"},
		{"cd build && rm *.o", "deletes 2 files, 2.0 kB: a.o, b.o"},
		{"cd build; cd ..; rm a.txt", "deletes 1 file, 5 B: a.txt"},
		{"sudo rm -rf build", "deletes 3 files, 2.9 kB in build/"},
		{"env FOO=1 rm -r build", "deletes 3 files, 2.9 kB in build/"},
		{"(cd build && rm a.o); rm b.txt", "deletes 1 file, 1.0 kB: a.o; deletes 1 file, 7 B: b.txt"},
		{"if true; then rm -r dist; fi", "deletes 1 file and 2 directories, 5 B in dist/"},
		// Nothing of the command runs: a substitution leaves its command out.
		{"rm -r $(echo build)", ""},
		{"D=$(echo build); rm -r $D", ""},
		{"rm -r `echo build`", ""},
		{"rm -r <(echo build)", ""},
		// find -delete
		{"find build -name '*.o' -delete", "deletes 2 files, 2.0 kB under build"},
		{"find src -name 'gen*.go' -type f -delete", "deletes 2 files, 48 B under src"},
		{"find src -maxdepth 1 -name 'gen*' -delete", "deletes 1 file, 22 B under src"},
		{"find build -mtime +7 -delete", "deletes up to 3 files and 1 directory, 2.9 kB under build"},
		{"find build -name '*.nothing' -delete", "deletes nothing under build"},
		{"find build -name '*.o'", ""},
		// Writes through redirections, and tee.
		{"echo hi > out.txt", "overwrites out.txt (5 B)"},
		{"echo hi > zero.txt", "overwrites zero.txt (empty)"},
		{"echo hi > new.txt", "creates new.txt"},
		{"echo hi >> out.txt", ""},
		{"echo hi >> new.txt", "creates new.txt"},
		{"make 2>/dev/null &> build.log", "creates build.log"},
		{"echo x | tee out.txt new2.txt", "overwrites out.txt (5 B); creates new2.txt"},
		{"echo x | tee -a out.txt", ""},
		{"cat <<EOF > out.txt\nx\nEOF", "overwrites out.txt (5 B)"},
		// mv and cp onto what exists.
		{"cp a.txt b.txt", "replaces b.txt (7 B)"},
		{"mv a.txt sub", "replaces sub/a.txt (3 B)"},
		{"cp a.txt b.txt sub/", "replaces sub/a.txt (3 B)"},
		{"cp -t sub a.txt", "replaces sub/a.txt (3 B)"},
		{"cp -n a.txt b.txt", ""},
		{"mv --backup a.txt b.txt", ""},
		{"mv a.txt a.txt", ""},
		{"cp a.txt fresh.txt", ""},
		// Nothing to say.
		{"ls -la", ""},
		{"go test ./...", ""},
		{"rm -r 'unterminated", ""},
		{"rm -r build{1..1000000000}", ""},
		{"rm -r {a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}", ""},
		{"rm -r bui{l,x}d", "deletes 3 files, 2.9 kB in build/; buixd is not there"},
		// The session's functions run instead of programs.
		{"deploy prod", "runs your function deploy"},
		{"deploy && rm -r build", "runs your function deploy; deletes 3 files, 2.9 kB in build/"},
		{`\deploy; "$F" x`, "runs your function deploy"},
		{"sudo deploy", ""},
		{"command deploy", ""},
	} {
		got := preview(context.Background(), tc.cmd, dir, env, isFunc, roomy)
		if got != tc.want {
			t.Errorf("%s\n got %q\nwant %q", tc.cmd, got, tc.want)
		}
	}
}

// TestPreviewShadowed checks that a function named like a command whose
// effect the preview knows is the function: what it does is the user's.
func TestPreviewShadowed(t *testing.T) {
	dir := t.TempDir()
	tree(t, dir, map[string]string{"build/a.o": "a"})
	isFunc := func(name string) bool { return name == "rm" }
	if got := preview(context.Background(), "rm -r build", dir, nil, isFunc, roomy); got != "runs your function rm" {
		t.Errorf("got %q", got)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 999: "999 B", 1000: "1.0 kB", 2900: "2.9 kB", 9949: "9.9 kB", 9950: "10 kB",
		123456: "123 kB", 999499: "999 kB", 999500: "1.0 MB", 5e9: "5.0 GB"} {
		if got := size(n); got != want {
			t.Errorf("size(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestPreviewBudget checks that a tree too big to count in the budget is
// said to hold "at least" what was counted, and the preview returns.
func TestPreviewBudget(t *testing.T) {
	dir := t.TempDir()
	for i := range 2000 {
		tree(t, dir, map[string]string{fmt.Sprintf("big/d%d/f%d", i%50, i): "x"})
	}
	start := time.Now()
	got := preview(context.Background(), "rm -rf big", dir, nil, nil, time.Nanosecond)
	if !strings.HasPrefix(got, "deletes at least ") && got != "deletes an uncounted number of files in big/" {
		t.Errorf("got %q", got)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v", d)
	}
	// With time enough, all of it.
	if got := preview(context.Background(), "rm -rf big", dir, nil, nil, roomy); got != "deletes 2000 files and 50 directories, 2.0 kB in big/" {
		t.Errorf("with time enough: %q", got)
	}
}

// repo makes a git repository in dir with two commits on main, a side
// branch with a commit of its own, and returns a function that runs git
// there.
func repo(t testing.TB, dir string) func(args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t",
			"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "-b", "main")
	tree(t, dir, map[string]string{"a.go": "package a\n", "b.go": "package b\n"})
	git("add", ".")
	git("commit", "-qm", "first")
	tree(t, dir, map[string]string{"a.go": "package a // two\n"})
	git("commit", "-qam", "second")
	git("checkout", "-qb", "side")
	tree(t, dir, map[string]string{"c.go": "package c\n"})
	git("add", "c.go")
	git("commit", "-qm", "on the side only")
	git("checkout", "-q", "main")
	return git
}

func TestPreviewGit(t *testing.T) {
	dir := t.TempDir()
	git := repo(t, dir)
	// The remote's main has the side commit, which a forced push of main
	// drops.
	git("update-ref", "refs/remotes/origin/main", git("rev-parse", "side"))
	tree(t, dir, map[string]string{"a.go": "package a // changed\n", "untracked.txt": "12345", "tmp/x.o": "xx"})
	git("stash", "push", "-q", "-m", "my wip", "a.go")
	tree(t, dir, map[string]string{"b.go": "package b // changed\n"})
	for _, tc := range []struct {
		cmd  string
		want string // a regular expression
	}{
		{"git clean -fd", `^deletes 2 files, 7 B untracked: tmp/, untracked\.txt$`},
		{"git clean -f", `^deletes 1 file, 5 B untracked: untracked\.txt$`},
		{"git clean -n", `^$`},
		{"git clean -fdx -e tmp", `^deletes 1 file, 5 B untracked: untracked\.txt$`},
		{"git push --force origin main", `^force-pushes main to origin/main: drops 1 commit \([0-9a-f]{7} on the side only\) there$`},
		{"git push -f", `^force-pushes main to origin/main: drops 1 commit \([0-9a-f]{7} on the side only\) there$`},
		{"git push origin +main", `^force-pushes main to origin/main: drops 1 commit`},
		{"git push --force-with-lease origin side:main", `^force-pushes side to origin/main: drops nothing there, as of the last fetch$`},
		{"git push origin --delete side", `^deletes the branch origin/side$`},
		{"git push origin :side", `^deletes the branch origin/side$`},
		{"git push origin main", `^$`},
		{"git push --force upstream main", `^force-pushes main to upstream/main \(not fetched: what it drops there is unknown\)$`},
		{"git reset --hard", `^discards uncommitted changes to 1 file: b\.go$`},
		{"git reset --hard HEAD~1", `^discards uncommitted changes to 1 file: b\.go; moves main off 1 commit \([0-9a-f]{7} second\)$`},
		{"git reset --soft HEAD~1", `^$`},
		{"git checkout -- .", `^discards changes to 1 file: b\.go$`},
		{"git checkout .", `^discards changes to 1 file: b\.go$`},
		{"git checkout b.go", `^discards changes to 1 file: b\.go$`},
		{"git checkout side", `^$`},
		{"git checkout -f side", `^discards changes to 1 file: b\.go$`},
		{"git restore b.go", `^discards changes to 1 file: b\.go$`},
		{"git restore --staged b.go", `^$`},
		{"git -C " + dir + " restore .", `^discards changes to 1 file: b\.go$`},
		{"git branch -D side", `^deletes the branch side \(its commits are on other branches\)$`},
		{"git branch -d side", `^$`},
		{"git stash drop", `^drops stash@\{0\} \(On main: my wip\)$`},
		{"git stash clear", `^drops 1 stash: stash@\{0\}…$`},
		{"git status", `^$`},
	} {
		got := preview(context.Background(), tc.cmd, dir, nil, nil, roomy)
		if !regexp.MustCompile(tc.want).MatchString(got) {
			t.Errorf("%s\n got %q\nwant %s", tc.cmd, got, tc.want)
		}
	}
	// The side commit on no other ref: deleting the branch loses it.
	git("update-ref", "-d", "refs/remotes/origin/main")
	if got := preview(context.Background(), "git branch -D side", dir, nil, nil, roomy); !regexp.MustCompile(`^deletes the branch side and 1 commit \([0-9a-f]{7} on the side only\) on no other branch$`).MatchString(got) {
		t.Errorf("git branch -D side: %q", got)
	}
}

// BenchmarkPreview measures previews on the confirmation line's path: a
// deletion of a thousand files, a forced push and a command with nothing
// to say. Each must stay well under 50 ms (docs/PERFORMANCE.md).
func BenchmarkPreview(b *testing.B) {
	dir := b.TempDir()
	for i := range 1000 {
		tree(b, dir, map[string]string{fmt.Sprintf("build/d%d/f%d.o", i%20, i): "object"})
	}
	git := repo(b, dir)
	git("update-ref", "refs/remotes/origin/main", git("rev-parse", "side"))
	for _, cmd := range []string{"rm -rf build", "git push --force origin main", "git reset --hard HEAD~1", "go test ./..."} {
		b.Run(strings.Fields(cmd)[0]+"_"+strings.Fields(cmd)[1], func(b *testing.B) {
			for b.Loop() {
				Preview(context.Background(), cmd, dir, nil, nil)
			}
		})
	}
}

// FuzzPreview checks that no command line makes the preview panic (it runs
// in the shell's process) or say more than one line.
func FuzzPreview(f *testing.F) {
	dir := f.TempDir()
	tree(f, dir, map[string]string{"build/a.o": "x", "a.txt": "hello", "sub/": ""})
	for _, s := range []string{"rm -rf build", "rm -r $X/*", "find . -name '*.o' -delete", "cp a.txt sub", "echo > a.txt",
		"X=$(ls); rm $X", "cd sub && mv ../a.txt .", "git clean -fdx", "git push -f origin +main:x", "tee -a a b", "rm -- -r",
		"cd; rm x", "for f in *; do rm $f; done", "find -delete -maxdepth", "${x:=build}; rm -r $x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		done := make(chan string, 1)
		go func() { done <- preview(context.Background(), cmd, dir, vars("HOME="+dir), nil, 20*time.Millisecond) }()
		select {
		case got := <-done:
			if strings.Contains(got, "\n") || len([]rune(got)) > maxLine {
				t.Errorf("%q: %q", cmd, got)
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("%q: no preview after 2 s", cmd)
		}
	})
}
