package tools

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// matchGlob matches a slash-separated relative path against a glob. A
// pattern without a slash matches the base name at any depth ("*.go"); one
// with a slash matches the whole path, where "**" stands for any number of
// directories ("cmd/**/*.go").
func matchGlob(pattern, rel string) bool {
	pattern = strings.TrimPrefix(pattern, "./")
	if !strings.Contains(pattern, "/") {
		ok, _ := path.Match(pattern, path.Base(rel))
		return ok
	}
	return matchParts(strings.Split(pattern, "/"), strings.Split(rel, "/"))
}

func matchParts(pat, parts []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(parts); i++ {
				if matchParts(pat[1:], parts[i:]) {
					return true
				}
			}
			return false
		}
		if len(parts) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], parts[0]); !ok {
			return false
		}
		pat, parts = pat[1:], parts[1:]
	}
	return len(parts) == 0
}

// ignoreRule is one line of a .gitignore file.
type ignoreRule struct {
	base    string // the directory of the .gitignore, relative to the root, "" at the root
	pattern []string
	negate  bool
	dirOnly bool
}

// gitignore is the rules of the .gitignore files met so far on a walk.
// It covers what most projects write: comments, negation, directory-only
// and anchored patterns, and "**"; not the escapes of rare file names.
type gitignore struct {
	rules []ignoreRule
}

// load reads the .gitignore in dir (relative to root; "" is the root).
func (g *gitignore) load(root, dir string) {
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(dir), ".gitignore"))
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimRight(line, "\r")
		line = strings.TrimRight(line, " ")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r := ignoreRule{base: dir}
		if strings.HasPrefix(line, "!") {
			r.negate, line = true, line[1:]
		}
		line = strings.TrimPrefix(line, `\`)
		if strings.HasSuffix(line, "/") {
			r.dirOnly, line = true, strings.TrimSuffix(line, "/")
		}
		if line == "" {
			continue
		}
		// A slash at the start or in the middle anchors the pattern to the
		// .gitignore's directory; otherwise it matches at any depth.
		if strings.Contains(line, "/") {
			line = strings.TrimPrefix(line, "/")
		} else {
			line = "**/" + line
		}
		r.pattern = strings.Split(line, "/")
		g.rules = append(g.rules, r)
	}
}

// ignored reports whether the path rel (slash-separated, relative to the
// root) is ignored. The last matching rule wins, as in git.
func (g *gitignore) ignored(rel string, dir bool) bool {
	ign := false
	for _, r := range g.rules {
		if r.dirOnly && !dir {
			continue
		}
		sub := rel
		if r.base != "" {
			if !strings.HasPrefix(rel, r.base+"/") {
				continue
			}
			sub = rel[len(r.base)+1:]
		}
		if matchParts(r.pattern, strings.Split(sub, "/")) {
			ign = !r.negate
		}
	}
	return ign
}
