package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// laterFiles are the files of a workspace whose contents run code later,
// outside the sandbox, with no one running them by name: when the user
// enters the directory (direnv, mise), builds (make, a package manager's
// scripts and hooks), commits (git's hooks, pre-commit, husky) or opens
// the folder in an editor (VS Code's tasks and settings).
var laterFiles = []string{
	".envrc", ".env.local.sh", "Makefile", "makefile", "GNUmakefile", "justfile", "Justfile",
	"Taskfile.yml", "Taskfile.yaml", "package.json", ".npmrc", ".yarnrc", ".yarnrc.yml", ".pnpmfile.cjs",
	".pre-commit-config.yaml", ".tool-versions", ".mise.toml", "mise.toml", ".cargo/config", ".cargo/config.toml",
	".gitmodules", "setup.py", "conftest.py", "build.rs", ".bazelrc",
}

// laterDirs are directories of a workspace whose every file runs later.
var laterDirs = []string{".vscode", ".husky", ".githooks", ".devcontainer", ".idea/runConfigurations"}

// watchDepth is how deep nested .envrc files and repositories are looked
// for: a directory a user may cd into, where direnv or git would run them.
const watchDepth = 3

// skipDirs are not looked into: what a build writes and downloads.
var skipDirs = []string{".git", "node_modules", "vendor", "target", "dist", "build", ".cache", "__pycache__", ".venv"}

// stamp is what tells a file changed: its inode and the change time,
// which a program cannot set back (utimes sets the modification time).
type stamp struct {
	ino, size  uint64
	csec, cnse int64
	mode       fs.FileMode
}

// Watch snapshots the files of the workspace ws that run code later, and
// returns what says, once the run is over, which of them it changed or
// made: one line, or none.
func Watch(ws string) func() []string {
	if ws == "" {
		return func() []string { return nil }
	}
	before := laterStamps(ws)
	return func() []string {
		after := laterStamps(ws)
		var changed []string
		for p, st := range after {
			if old, ok := before[p]; !ok || old != st {
				changed = append(changed, p)
			}
		}
		for p := range before {
			if _, ok := after[p]; !ok {
				changed = append(changed, p+" (removed)")
			}
		}
		if len(changed) == 0 {
			return nil
		}
		slices.Sort(changed)
		if len(changed) > 6 {
			changed = append(changed[:6], "…")
		}
		return []string{"sandbox: the command changed " + strings.Join(changed, ", ") +
			": files that run code when you next build, commit, enter or open the project; look at them before you do"}
	}
}

// laterStamps stamps the workspace's files that run later, by their path
// relative to it.
func laterStamps(ws string) map[string]stamp {
	out := map[string]stamp{}
	add := func(rel string) {
		fi, err := os.Lstat(filepath.Join(ws, rel))
		if err != nil {
			return
		}
		st := stamp{mode: fi.Mode().Type(), size: uint64(fi.Size())}
		st.ino, st.csec, st.cnse = changeStamp(fi)
		out[rel] = st
	}
	for _, f := range laterFiles {
		add(f)
	}
	for _, d := range laterDirs {
		ents, _ := os.ReadDir(filepath.Join(ws, d))
		for _, e := range ents {
			add(filepath.Join(d, e.Name()))
		}
	}
	// A repository or an .envrc made below: git and direnv run them there.
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		ents, err := os.ReadDir(filepath.Join(ws, dir))
		if err != nil {
			return
		}
		for _, e := range ents {
			rel := filepath.Join(dir, e.Name())
			switch {
			case dir != "" && (e.Name() == ".git" || e.Name() == ".envrc"):
				add(rel)
			case e.IsDir() && depth < watchDepth && !slices.Contains(skipDirs, e.Name()):
				walk(rel, depth+1)
			}
		}
	}
	walk("", 1)
	return out
}
