package sandbox

import (
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestReadGrants(t *testing.T) {
	fsys := fstest.MapFS{
		"bin":                      {Mode: fs.ModeSymlink},
		"usr/bin/ls":               {},
		"etc/passwd":               {},
		"etc/shadow":               {},
		"etc/ssl/certs/ca.pem":     {},
		"home/al/.bashrc":          {},
		"home/al/.ssh/id_rsa":      {},
		"home/al/.config/gh/hosts": {},
		"home/al/.config/git/cfg":  {},
		"home/al/proj/main.go":     {},
		"home/al/keys":             {Mode: fs.ModeSymlink}, // may lead to a secret: left to its target's rule
		"home/bo/notes":            {},
		"tmp/":                     {Mode: fs.ModeDir},
	}
	readDir := func(dir string) ([]fs.DirEntry, error) {
		name := strings.TrimPrefix(dir, "/")
		if name == "" {
			name = "."
		}
		return fs.ReadDir(fsys, name)
	}
	dirs, files := readGrants([]string{"/etc/shadow", "/home/al/.ssh", "/home/al/.config/gh"}, readDir)
	wantDirs := []string{"/etc/ssl", "/home/al/.config/git", "/home/al/proj", "/home/bo", "/tmp", "/usr"}
	wantFiles := []string{"/etc/passwd", "/home/al/.bashrc"}
	slices.Sort(dirs)
	slices.Sort(files)
	if !slices.Equal(dirs, wantDirs) {
		t.Errorf("dirs:\n got %q\nwant %q", dirs, wantDirs)
	}
	if !slices.Equal(files, wantFiles) {
		t.Errorf("files:\n got %q\nwant %q", files, wantFiles)
	}
	if d, f := readGrants(nil, readDir); !slices.Equal(d, []string{"/"}) || f != nil {
		t.Errorf("nothing denied: %q %q", d, f)
	}
}
