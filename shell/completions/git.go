package completions

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// gitCommands are the subcommands offered after "git ".
var gitCommands = []string{
	"add", "am", "apply", "archive", "bisect", "blame", "branch", "bundle",
	"checkout", "cherry-pick", "clean", "clone", "commit", "config", "describe",
	"diff", "difftool", "fetch", "format-patch", "gc", "grep", "help", "init",
	"log", "ls-files", "ls-remote", "merge", "mergetool", "mv", "notes", "pull",
	"push", "range-diff", "rebase", "reflog", "remote", "reset", "restore",
	"revert", "rm", "shortlog", "show", "sparse-checkout", "stash", "status",
	"submodule", "switch", "tag", "worktree",
}

// gitBranchCommands take branch names; gitRemoteCommands take a remote,
// then branches.
var (
	gitBranchCommands = []string{"branch", "checkout", "cherry-pick", "diff", "log", "merge", "rebase", "reset", "show", "switch"}
	gitRemoteCommands = []string{"fetch", "pull", "push"}
)

// completeGit completes the word after "git": a subcommand, a branch or a
// remote. ok is false when the word is a path or an option, left to the
// caller.
func completeGit(w word, args []string, env Env) (cands []string, ok bool) {
	if w.quote != 0 || w.raw != w.value || strings.HasPrefix(w.value, "-") {
		return nil, false
	}
	sub, rest := "", []string(nil)
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-C" || a == "-c" {
			i++
			continue
		}
		if !strings.HasPrefix(a, "-") {
			sub, rest = a, args[i+1:]
			break
		}
	}
	if sub == "" {
		return finish(gitCommands, w.value, Env{}), true
	}
	if slices.Contains(rest, "--") {
		return nil, false // paths
	}
	branchy := slices.Contains(gitBranchCommands, sub)
	remoty := slices.Contains(gitRemoteCommands, sub)
	if !branchy && !remoty {
		return nil, false
	}
	refs := readRefs(gitDir(env.Dir))
	var names []string
	if remoty && countArgs(rest) == 0 {
		names = refs.remotes
	} else {
		names = refs.heads
		if sub == "checkout" || sub == "switch" {
			names = append(slices.Clone(names), refs.tracking...) // git creates the local branch
		}
	}
	slices.Sort(names)
	return finish(slices.Compact(names), w.value, Env{}), true
}

// countArgs counts the words that are not options.
func countArgs(words []string) int {
	n := 0
	for _, w := range words {
		if !strings.HasPrefix(w, "-") {
			n++
		}
	}
	return n
}

// gitDir finds the git directory for dir: the first .git walking up, either
// a directory or a "gitdir: PATH" file (worktrees, submodules).
func gitDir(dir string) string {
	if dir == "" {
		return ""
	}
	dir = filepath.Clean(dir)
	for {
		p := filepath.Join(dir, ".git")
		if fi, err := os.Stat(p); err == nil {
			if fi.IsDir() {
				return p
			}
			if data, err := os.ReadFile(p); err == nil {
				line, _, _ := strings.Cut(string(data), "\n")
				if g, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:"); ok && strings.TrimSpace(g) != "" {
					g = strings.TrimSpace(g)
					if !filepath.IsAbs(g) {
						g = filepath.Join(dir, g)
					}
					return g
				}
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

type refs struct {
	heads    []string // local branches
	tracking []string // remote-tracking branches without their remote, HEAD left out
	remotes  []string
}

// readRefs reads branch and remote names from the files of a git directory:
// loose refs, packed-refs and config. A worktree's refs live in the common
// directory its "commondir" file names.
func readRefs(dir string) refs {
	var r refs
	if dir == "" {
		return r
	}
	if data, err := os.ReadFile(filepath.Join(dir, "commondir")); err == nil {
		c := strings.TrimSpace(string(data))
		if !filepath.IsAbs(c) {
			c = filepath.Join(dir, c)
		}
		dir = c
	}
	addRef := func(ref string) {
		if b, ok := strings.CutPrefix(ref, "refs/heads/"); ok {
			r.heads = append(r.heads, b)
		} else if rb, ok := strings.CutPrefix(ref, "refs/remotes/"); ok {
			if _, b, ok := strings.Cut(rb, "/"); ok && b != "HEAD" {
				r.tracking = append(r.tracking, b)
			}
		}
	}
	for _, sub := range []string{"refs/heads", "refs/remotes"} {
		root := filepath.Join(dir, sub)
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if rel, err := filepath.Rel(dir, p); err == nil {
					addRef(filepath.ToSlash(rel))
				}
			}
			return nil
		})
	}
	if f, err := os.Open(filepath.Join(dir, "packed-refs")); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if _, ref, ok := strings.Cut(sc.Text(), " "); ok {
				addRef(ref)
			}
		}
		f.Close()
	}
	if f, err := os.Open(filepath.Join(dir, "config")); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if name, ok := strings.CutPrefix(line, `[remote "`); ok {
				if name, ok := strings.CutSuffix(name, `"]`); ok {
					r.remotes = append(r.remotes, name)
				}
			}
		}
		f.Close()
	}
	slices.Sort(r.heads)
	r.heads = slices.Compact(r.heads)
	return r
}
