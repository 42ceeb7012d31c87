package tools

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/qsh-shell/qsh/policy/secret"
)

// place is a path the model named, resolved.
type place struct {
	given   string // as the model wrote it
	abs     string // absolute, symlinks resolved (as far as the path exists)
	rel     string // relative to the workspace when inside it
	inside  bool   // under the workspace
	secret  string // why it may hold secrets; "" when it does not
	missing bool   // nothing exists at abs yet
}

// resolve makes p absolute against dir (the workspace), expands a leading
// ~, and resolves symlinks, so that a link cannot lead a call out of the
// workspace or around the sensitive list unseen.
func resolve(dir, p string) (place, error) {
	pl := place{given: p}
	if p == "" {
		return pl, errors.New("empty path")
	}
	if strings.ContainsRune(p, 0) {
		return pl, errors.New("the path contains a NUL byte")
	}
	if dir == "" {
		dir, _ = os.Getwd()
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return pl, errors.New("cannot expand ~: no home directory")
		}
		p = filepath.Join(home, p[1:])
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	p = filepath.Clean(p)
	ws := realPath(dir)
	abs, missing := realPathMissing(p)
	pl.abs, pl.missing = abs, missing
	if rel, err := filepath.Rel(ws, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		pl.inside, pl.rel = true, rel
	}
	// Judge both the name given and the file it leads to: a link called
	// notes.txt to ~/.ssh/id_rsa is as secret as the key.
	if s := sensitive(abs); s != "" {
		pl.secret = s
	} else if s := sensitive(p); s != "" {
		pl.secret = s
	}
	return pl, nil
}

// realPath resolves the symlinks of p, or returns p cleaned.
func realPath(p string) string {
	r, _ := realPathMissing(p)
	return r
}

// realPathMissing resolves symlinks in the longest existing prefix of p and
// appends the rest, so a file about to be created is judged by where it
// will really land. missing reports that p itself does not exist.
func realPathMissing(p string) (string, bool) {
	p = filepath.Clean(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r, false
	}
	var rest []string
	cur := p
	for {
		parent := filepath.Dir(cur)
		rest = append([]string{filepath.Base(cur)}, rest...)
		if parent == cur {
			return p, true
		}
		if r, err := filepath.EvalSymlinks(parent); err == nil {
			return filepath.Join(append([]string{r}, rest...)...), true
		}
		cur = parent
	}
}

// sensitive says why the file at p may hold secrets, or "": package secret
// decides, for the user's home and environment.
func sensitive(p string) string {
	home, _ := os.UserHomeDir()
	return secret.Places{Home: home, Getenv: os.Getenv}.Why(filepath.ToSlash(filepath.Clean(p)))
}

// fileMode returns the permission bits of the file at p, or def when there
// is none.
func fileMode(p string, def fs.FileMode) fs.FileMode {
	if fi, err := os.Stat(p); err == nil {
		return fi.Mode().Perm()
	}
	return def
}
