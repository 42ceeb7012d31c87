package effect

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/internal/testtime"
	"github.com/qsh-shell/qsh/shell/eval"
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

// shellAfter is a user's shell, in dir, after it ran setup, as the
// preview gets it: a dry copy, made by dry.
func shellAfter(t testing.TB, dir, setup string) Expander {
	t.Helper()
	r := newShell(t, dir, setup)
	return dry(r.Dry())
}

func newShell(t testing.TB, dir, setup string) *eval.Runner {
	t.Helper()
	var stderr strings.Builder
	r, err := eval.New(eval.Env([]string{"HOME=/nonexistent", "PATH=/usr/bin:/bin"}), eval.Dir(dir),
		eval.Stdio(strings.NewReader(""), io.Discard, &stderr))
	if err != nil {
		t.Fatal(err)
	}
	if st := r.RunString(context.Background(), setup, "setup"); st != 0 {
		t.Fatalf("%s: status %d\n%s", setup, st, stderr.String())
	}
	return r
}

// dry is a dry copy of the shell as an Expander, as cmd/qsh's expander
// makes it.
func dry(d *eval.Runner) Expander {
	return Expander{
		Fields:   d.ExpandFields,
		Literal:  d.ExpandLiteral,
		Set:      d.Set,
		Unset:    d.Unset,
		IsFunc:   func(name string) bool { return d.Func(name) != nil },
		Subshell: func() Expander { return dry(d.Dry()) },
	}
}

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
	session := newShell(t, dir, "B=build; SPACED='my dir'; F=deploy; deploy() { :; }")
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
		got := preview(context.Background(), tc.cmd, dir, dry(session.Dry()), roomy)
		if got != tc.want {
			t.Errorf("%s\n got %q\nwant %q", tc.cmd, got, tc.want)
		}
	}
}

// TestPreviewSession checks that the words expand in the user's shell as
// it is — its options, arrays and references — and that what the line
// itself assigns, reads, loops over or does in a subshell is followed as
// the shell would, or left out when it cannot be known.
func TestPreviewSession(t *testing.T) {
	dir := t.TempDir()
	tree(t, dir, map[string]string{
		"build/a.o": "aaaa",
		"dist/x.js": "xx",
		"a.txt":     "hello",
		"my dir/f":  "ff",
		"list":      "build\n",
	})
	for _, tc := range []struct {
		setup, cmd, want string
	}{
		// The session's shell: arrays, references, options, readonly.
		{"DIRS=(build dist)", `rm -r "${DIRS[@]}"`, "deletes 2 files, 6 B in build/, dist/"},
		{"B=build; declare -n REF=B", "rm -r $REF", "deletes 1 file, 4 B in build/"},
		{"B=build; declare -n REF=B", "REF=dist; rm -r $B", "deletes 1 file, 2 B in dist/"},
		{"", "rm -r build/*.none build/a.o", "deletes 1 file, 4 B: build/a.o; build/*.none is not there"},
		{"shopt -s nullglob", "rm -r build/*.none build/a.o", "deletes 1 file, 4 B: build/a.o"},
		{"set -f", "rm build/*", "build/* is not there"},
		{"readonly R=build", "R=$(echo dist); rm -r $R", "deletes 1 file, 4 B in build/"},
		{"declare -i N=1", "N=$(echo 2); rm -r dist$N", ""},
		{"", "rm -r $UNSET/build", "/build is not there"},
		{"set -u", "rm -r $UNSET/build", ""},
		// Declarations assign as plain assignments do.
		{"D=dist", "export D=build; rm -r $D", "deletes 1 file, 4 B in build/"},
		{"D=dist", "declare -r D=build; rm -r $D", ""},
		{"D=dist", "local D=build; rm -r $D", "deletes 1 file, 2 B in dist/"},
		// What the preview cannot follow is unknown, not the old value.
		{"D=dist", "D=(build); rm -r $D", ""},
		{"D=dist", "D+=x; rm -r $D", ""},
		{"D=dist", "read -r D < list; rm -r $D", ""},
		{"D=dist", "while read D; do rm -r $D; done < list", ""},
		{"f=a.txt", "for f in *; do rm $f; done", ""},
		{"i=0", "for ((i = 0; i < 2; i++)); do rm -r dist$i; done", ""},
		// A subshell's cd and assignments stay in it.
		{"B=build", "(B=dist); rm -r $B", "deletes 1 file, 4 B in build/"},
		{"", "cd build | cat; rm a.txt", "deletes 1 file, 5 B: a.txt"},
		{"", "cd build & rm a.txt", "deletes 1 file, 5 B: a.txt"},
		// cd sets PWD and OLDPWD.
		{"", `cd build && rm "$PWD/a.o"`, "deletes 1 file, 4 B: " + dir + "/build/a.o"},
		{"", "cd build; cd -; rm a.txt", "deletes 1 file, 5 B: a.txt"},
		// A redirection's word expands as the shell's: one name, or none.
		{"S='my dir'", "echo hi > $S", ""},
		{"S='my dir'", `echo hi > "$S/new"`, "creates my dir/new"},
		{"", "echo hi > a.*", "overwrites a.txt (5 B)"},
		// Functions, also those named like commands.
		{"cd() { :; }", "cd build; rm a.o", "runs your function cd; a.o is not there"},
	} {
		x := shellAfter(t, dir, tc.setup)
		if got := preview(context.Background(), tc.cmd, dir, x, roomy); got != tc.want {
			t.Errorf("%s; %s\n got %q\nwant %q", tc.setup, tc.cmd, got, tc.want)
		}
	}
}

// TestBraceWords checks the count of words a brace expansion makes, which
// keeps the preview from making billions: never fewer than bash makes
// (an empty word vanishes, and is counted).
func TestBraceWords(t *testing.T) {
	const limit = 100
	_, err := exec.LookPath("bash")
	hasBash := err == nil
	for _, tc := range []struct {
		word string
		want int
	}{
		{"a", 1}, {"{a,b}", 2}, {"{a,b}{c,d,e}", 6}, {"x{a,b{1..3}}y", 4}, {"x{a,,b}", 3}, {"{a,,b}", 3},
		{"{1..10}", 10}, {"{10..1}", 10}, {"{1..10..3}", 4}, {"{-5..5}", 11}, {"{a..e}", 5}, {"{1..3..0}", 3},
		{"{a}", 1}, {"'{a,b}'", 1}, {"$x{a,b}", 2}, {"{1..x}", 1},
		{"{1..1000}", limit + 1}, {"{1..1000000000000}", limit + 1}, {"{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}", limit + 1},
		{"{-9223372036854775808..9223372036854775807}", limit + 1},
	} {
		f, err := syntax.NewParser().Parse(strings.NewReader("echo "+tc.word), "")
		if err != nil {
			t.Fatal(err)
		}
		w := f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1]
		if got := braceWords(w, limit); got != tc.want {
			t.Errorf("%s: %d words, want %d", tc.word, got, tc.want)
		}
		if tc.want > limit || !hasBash {
			continue
		}
		out, err := exec.Command("bash", "-c", "set -- "+tc.word+"; echo $#").Output()
		if n, _ := strconv.Atoi(strings.TrimSpace(string(out))); err != nil || n > tc.want {
			t.Errorf("%s: bash makes %s words (%v), more than counted", tc.word, out, err)
		}
	}
}

// TestPreviewShadowed checks that a function named like a command whose
// effect the preview knows is the function: what it does is the user's.
func TestPreviewShadowed(t *testing.T) {
	dir := t.TempDir()
	tree(t, dir, map[string]string{"build/a.o": "a"})
	x := shellAfter(t, dir, "rm() { :; }")
	if got := preview(context.Background(), "rm -r build", dir, x, roomy); got != "runs your function rm" {
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
	got := preview(context.Background(), "rm -rf big", dir, shellAfter(t, dir, ""), time.Nanosecond)
	if !strings.HasPrefix(got, "deletes at least ") && got != "deletes an uncounted number of files in big/" {
		t.Errorf("got %q", got)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v", d)
	}
	// With time enough, all of it.
	if got := preview(context.Background(), "rm -rf big", dir, shellAfter(t, dir, ""), roomy); got != "deletes 2000 files and 50 directories, 2.0 kB in big/" {
		t.Errorf("with time enough: %q", got)
	}
}

// repo makes a git repository in dir with two commits on main, a side
// branch with a commit of its own, and returns a function that runs git
// there.
func repo(t testing.TB, dir string) func(args ...string) string {
	t.Helper()
	needs.Tool(t, "git")
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
		got := preview(context.Background(), tc.cmd, dir, shellAfter(t, dir, ""), roomy)
		if !regexp.MustCompile(tc.want).MatchString(got) {
			t.Errorf("%s\n got %q\nwant %s", tc.cmd, got, tc.want)
		}
	}
	// The side commit on no other ref: deleting the branch loses it.
	git("update-ref", "-d", "refs/remotes/origin/main")
	if got := preview(context.Background(), "git branch -D side", dir, shellAfter(t, dir, ""), roomy); !regexp.MustCompile(`^deletes the branch side and 1 commit \([0-9a-f]{7} on the side only\) on no other branch$`).MatchString(got) {
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
	session := newShell(b, dir, "")
	for _, cmd := range []string{"rm -rf build", "git push --force origin main", "git reset --hard HEAD~1", "go test ./..."} {
		b.Run(strings.Fields(cmd)[0]+"_"+strings.Fields(cmd)[1], func(b *testing.B) {
			for b.Loop() {
				// The copy is made for each preview, as the shell makes it.
				Preview(context.Background(), cmd, dir, dry(session.Dry()))
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
	session := newShell(f, dir, "HOME="+dir)
	f.Fuzz(func(t *testing.T, cmd string) {
		done := make(chan string, 1)
		x := dry(session.Dry())
		go func() { done <- preview(context.Background(), cmd, dir, x, 20*time.Millisecond) }()
		select {
		case got := <-done:
			if strings.Contains(got, "\n") || len([]rune(got)) > maxLine {
				t.Errorf("%q: %q", cmd, got)
			}
		case <-time.After(testtime.Scaled(2 * time.Second)):
			t.Fatalf("%q: no preview after 2 s (scaled)", cmd)
		}
	})
}
