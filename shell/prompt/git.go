package prompt

import (
	"os"
	"path/filepath"
	"strings"
)

// GitBranch returns the branch checked out in the repository containing dir,
// the short commit hash when HEAD is detached, or "" outside a repository. It
// walks up from dir to the first .git — a directory, or a "gitdir:" file as in
// worktrees and submodules — and reads HEAD itself: no git process, so it is
// cheap enough for every prompt.
func GitBranch(dir string) string {
	gitDir := findGitDir(dir)
	if gitDir == "" {
		return ""
	}
	head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return ""
	}
	s := strings.TrimSpace(string(head))
	if ref, ok := strings.CutPrefix(s, "ref:"); ok {
		ref = strings.TrimSpace(ref)
		if b, ok := strings.CutPrefix(ref, "refs/heads/"); ok {
			return b
		}
		return ref
	}
	if len(s) >= 7 && isHex(s) {
		return s[:7]
	}
	return ""
}

// findGitDir returns the git directory for dir, or "".
func findGitDir(dir string) string {
	dir = filepath.Clean(dir)
	for {
		p := filepath.Join(dir, ".git")
		if fi, err := os.Stat(p); err == nil {
			if fi.IsDir() {
				return p
			}
			if g := readGitFile(p); g != "" {
				return g
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// readGitFile follows a ".git" file of the form "gitdir: PATH"; a relative
// PATH is relative to the file's directory.
func readGitFile(p string) string {
	data, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(data), "\n")
	g, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return ""
	}
	g = strings.TrimSpace(g)
	if g == "" {
		return ""
	}
	if !filepath.IsAbs(g) {
		g = filepath.Join(filepath.Dir(p), g)
	}
	return g
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
