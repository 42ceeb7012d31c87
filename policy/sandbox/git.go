package sandbox

import (
	"os"
	"path/filepath"
	"strings"
)

// gitProtected are the files and directories of the repository at ws
// that make git run code: its configuration and hooks, those of its
// submodules, and the .git entry itself (made a mount point, it can be
// neither replaced nor moved away for another). Hooks directories are
// listed whether they exist or not: a jail makes them first.
func gitProtected(ws string) []string {
	dotgit := filepath.Join(ws, ".git")
	fi, err := os.Lstat(dotgit)
	if err != nil {
		return nil
	}
	out := []string{dotgit}
	gitdir := dotgit
	if fi.Mode().IsRegular() {
		// A worktree or a submodule: "gitdir: PATH".
		b, err := os.ReadFile(dotgit)
		if err != nil {
			return out
		}
		d, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
		if !ok {
			return out
		}
		gitdir = strings.TrimSpace(d)
		if !filepath.IsAbs(gitdir) {
			gitdir = filepath.Join(ws, gitdir)
		}
		gitdir = Resolve("/", gitdir)
	} else if !fi.IsDir() {
		return nil
	}
	dirs := []string{gitdir}
	if b, err := os.ReadFile(filepath.Join(gitdir, "commondir")); err == nil {
		c := strings.TrimSpace(string(b))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitdir, c)
		}
		dirs = append(dirs, Resolve("/", c))
	}
	for i := 0; i < len(dirs) && i < 64; i++ {
		if mods, err := os.ReadDir(filepath.Join(dirs[i], "modules")); err == nil {
			for _, m := range mods {
				if m.IsDir() {
					dirs = append(dirs, filepath.Join(dirs[i], "modules", m.Name()))
				}
			}
		}
	}
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "config")); err != nil {
			continue // not a git directory
		}
		out = append(out, filepath.Join(d, "config"), filepath.Join(d, "hooks"))
		if _, err := os.Lstat(filepath.Join(d, "config.worktree")); err == nil {
			out = append(out, filepath.Join(d, "config.worktree"))
		}
	}
	return out
}
