package main

// End-to-end tests of checkpoints and `? /undo` through the real binary on
// a pseudo-terminal, the scripted model running the commands: each run is
// undone exactly (content byte for byte, modes, links, files created and
// deleted, git's refs, index and reflog), in a git work tree and outside
// one; a file the user changed since is not overwritten; checkpoints
// survive a restart.

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// gitIdentity lets git commit in a test's fresh HOME, reading no
// configuration of the machine's.
var gitIdentity = []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
	"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1"}

// undoSetup makes the workspace every case starts from.
const undoSetup = `
printf 'one\ntwo\n' > a.txt
printf 'alpha\nbeta\n' > b.txt
mkdir -p src/deep
printf 'package x\n// foo\n' > src/x.go
printf 'deep\n' > src/deep/d.txt
printf 'bin\000\377' > src/deep/blob.bin
printf '#!/bin/sh\necho hi\n' > run.sh
chmod 755 run.sh
chmod 600 b.txt
ln -s src/x.go link
`

// gitSetup makes it a repository with two commits, a staged file and a
// stash.
const gitSetup = `git init -q -b main && git add -A && git commit -q -m one && echo three >> a.txt &&
git commit -qam two && echo stashed >> b.txt && git stash -q && echo staged > st.txt && git add st.txt`

// undoScript is the script a run makes and runs: it creates, deletes and
// chmods.
const undoScript = `printf 'echo made > new.txt\nmkdir -p gen/sub && echo g > gen/sub/g.txt\nrm b.txt src/deep/blob.bin\nchmod 700 run.sh\nchmod 640 a.txt\nln -sf b.txt link\n' > tidy.sh && sh tidy.sh`

// undoCases are the runs undone.
var undoCases = []struct {
	name, command string
	git           bool // only in a git work tree
}{
	{"sed -i over three files", `sed -i 's/o/0/g' a.txt b.txt src/x.go`, false},
	{"rm -r of a directory", `rm -r src`, false},
	{"script creates deletes chmods", undoScript, false},
	{"git commit --amend", `echo amended >> a.txt && git commit -qa --amend -m amended`, true},
}

// shIn runs script in dir with sh and env, failing the test if it fails.
func shIn(t *testing.T, dir, script string, env ...string) {
	t.Helper()
	cmd := exec.Command("sh", "-ec", script)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "HOME="+dir), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
}

// workspaceTree is every path under dir (but git's objects and hooks):
// kind, mode, content or target; git's HEAD, index, refs and reflogs
// included.
func workspaceTree(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == ".git/objects" || rel == ".git/hooks" {
			return filepath.SkipDir
		}
		if rel == "." {
			return nil
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			lines = append(lines, rel+" -> "+target)
		case fi.IsDir():
			lines = append(lines, fmt.Sprintf("%s/ %v", rel, fi.Mode().Perm()))
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			lines = append(lines, fmt.Sprintf("%s %v %q", rel, fi.Mode(), b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// treeDiff is the lines one tree has and the other lacks, each clipped.
func treeDiff(got, want string) string {
	set := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	g, w := set(got), set(want)
	var out []string
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			out = append(out, "+ "+l[:min(len(l), 200)])
		}
	}
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			out = append(out, "- "+l[:min(len(l), 200)])
		}
	}
	return strings.Join(out, "\n")
}

// runAndUndo has the model run command in dir (the user says y), then
// undoes it with `? /undo` (the user says y again), and checks that the
// workspace is as before, byte for byte.
func runAndUndo(t *testing.T, dir, command string) {
	t.Helper()
	want := workspaceTree(t, dir)
	srv := aitest.NewOpenAI(t, execCall(command), aitest.Say("Done.", 2))
	tm := startIn(t, dir, aiEnv(t, srv, append(gitIdentity, "QSH_AI_TOOLS_CONFIRM=all")...))
	tm.Line("? do it")
	tm.WaitFor("run? [")
	if !strings.Contains(tm.Output(), "undo: ") {
		t.Errorf("the confirmation line does not say whether it can be undone:\n%s", shelltest.Tail(tm.Output()))
	}
	tm.Type("y")
	tm.WaitFor("Done.")
	tm.WaitFor(ps1)
	if got := workspaceTree(t, dir); got == want {
		t.Fatalf("the command changed nothing:\n%s", shelltest.Tail(tm.Output()))
	}
	res := toolResults(t, srv)
	if len(res) != 1 || !strings.Contains(res[0], "[checkpoint: this changed") || !strings.Contains(res[0], "? /undo") {
		t.Errorf("the model is not told of the checkpoint: %q", res)
	}
	tm.Mark()
	tm.Line("? /undo")
	out := tm.WaitFor("restore? [y/n]")
	if !strings.Contains(out, "undo `"+command[:min(len(command), 20)]) {
		t.Errorf("the summary does not name the run:\n%s", shelltest.Tail(out))
	}
	tm.Type("y")
	tm.WaitFor("restored ")
	tm.WaitFor(ps1)
	if got := workspaceTree(t, dir); got != want {
		t.Errorf("after ? /undo:\n%s\n\nscreen:\n%s", treeDiff(got, want), shelltest.Tail(tm.Output()))
	}
}

func TestUndoEachRun(t *testing.T) {
	t.Parallel()
	for _, git := range []bool{false, true} {
		for _, c := range undoCases {
			if c.git && !git {
				continue
			}
			name := c.name
			if git {
				name = "git/" + name
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				shIn(t, dir, undoSetup, gitIdentity...)
				if git {
					shIn(t, dir, gitSetup, gitIdentity...)
				}
				runAndUndo(t, dir, c.command)
				if git {
					// git agrees that all is as before.
					cmd := exec.Command("git", "stash", "list")
					cmd.Dir = dir
					if out, err := cmd.Output(); err != nil || !strings.Contains(string(out), "stash@{0}") {
						t.Errorf("git stash list: %q, %v", out, err)
					}
				}
			})
		}
	}
}

// TestUndoRefusesTheUsersChange: the user edits a file the run changed;
// `? /undo` refuses, changes nothing, and shows the difference when asked.
func TestUndoRefusesTheUsersChange(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	shIn(t, dir, undoSetup)
	srv := aitest.NewOpenAI(t, execCall(`sed -i 's/one/ONE/' a.txt b.txt`), aitest.Say("Done.", 2))
	tm := startIn(t, dir, aiEnv(t, srv, "QSH_AI_TOOLS_CONFIRM=all"))
	tm.Line("? do it")
	tm.WaitFor("run? [")
	tm.Type("y")
	tm.WaitFor("Done.")
	tm.WaitFor(ps1)
	tm.Line("echo mine-7 >> a.txt")
	tm.WaitFor(ps1)
	before := workspaceTree(t, dir)
	tm.Mark()
	tm.Line("? /undo")
	out := tm.WaitFor("show what changed since? [y/n]")
	if !strings.Contains(out, "undo refused: 1 path changed since `sed -i") || !strings.Contains(out, "a.txt") {
		t.Errorf("no refusal:\n%s", shelltest.Tail(out))
	}
	tm.Type("y")
	out = tm.WaitFor(ps1)
	if !strings.Contains(out, "+mine-7") {
		t.Errorf("the difference is not shown:\n%s", shelltest.Tail(out))
	}
	if got := workspaceTree(t, dir); got != before {
		t.Errorf("a refused undo changed files:\n%s", treeDiff(got, before))
	}
}

// TestUndoCheckpointsSurviveARestart: a second shell in the same
// workspace lists the first one's checkpoint and undoes it; nothing of
// the user's git state moves while checkpoints are taken.
func TestUndoCheckpointsSurviveARestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	shIn(t, dir, undoSetup+gitSetup, gitIdentity...)
	want := workspaceTree(t, dir)
	gitState := func() string {
		var b strings.Builder
		for _, f := range []string{"HEAD", "index", "logs/HEAD", "refs/heads/main", "refs/stash", "logs/refs/stash"} {
			c, _ := os.ReadFile(filepath.Join(dir, ".git", f))
			fmt.Fprintf(&b, "%s %q\n", f, c)
		}
		return b.String()
	}
	git0 := gitState()
	srv := aitest.NewOpenAI(t, execCall(`echo changed > a.txt`), aitest.Say("Done.", 2))
	env := aiEnv(t, srv, append(gitIdentity, "QSH_AI_TOOLS_CONFIRM=all")...)
	tm := startIn(t, dir, env)
	tm.Line("? change a")
	tm.WaitFor("run? [")
	tm.Type("y")
	tm.WaitFor("Done.")
	tm.WaitFor(ps1)
	if g := gitState(); g != git0 {
		t.Errorf("a checkpoint changed the user's git state:\n%s\nwas:\n%s", g, git0)
	}
	tm.Line("exit")
	tm.WaitExit()

	tm = startIn(t, dir, env)
	tm.Line("? /checkpoints")
	out := tm.WaitFor(ps1)
	if !strings.Contains(out, "  1  just now  echo changed > a.txt  (1 path)") {
		t.Errorf("? /checkpoints after a restart:\n%s", shelltest.Tail(out))
	}
	tm.Mark()
	tm.Line("? /undo")
	tm.WaitFor("restore? [y/n]")
	tm.Type("y")
	tm.WaitFor("restored 1 path")
	tm.WaitFor(ps1)
	if got := workspaceTree(t, dir); got != want {
		t.Errorf("after ? /undo:\n%s", treeDiff(got, want))
	}
	tm.Mark()
	tm.Line("? /undo")
	if out := tm.WaitFor(ps1); !strings.Contains(out, "nothing to undo") {
		t.Errorf("a second ? /undo:\n%s", shelltest.Tail(out))
	}
}
