//go:build !linux && !darwin

package checkpoint

import (
	"io/fs"
	"os"
	"path/filepath"
)

// lstatAt is the mode and stat data of name under dir (or absolute).
// Change time, inode and device are unknown here, so the cache trusts
// modification time and size alone.
func lstatAt(dirfd int, dir, name string) (fs.FileMode, statData, error) {
	if !filepath.IsAbs(name) {
		name = filepath.Join(dir, filepath.FromSlash(name))
	}
	fi, err := os.Lstat(name)
	if err != nil {
		return 0, statData{}, err
	}
	return fi.Mode(), statData{mtime: fi.ModTime().UnixNano(), size: fi.Size()}, nil
}

const atCWD = -1

// openDir does nothing here: lstatAt takes names under dir.
func openDir(dir string) (int, func(), error) { return -1, func() {}, nil }

// readAt is the content of name under dir (or absolute).
func readAt(dirfd int, dir, name string, size int64) ([]byte, error) {
	if !filepath.IsAbs(name) {
		name = filepath.Join(dir, filepath.FromSlash(name))
	}
	return os.ReadFile(name)
}

// openDirAt does nothing here: lstatAt takes names under dir.
func openDirAt(dirfd int, dir, name string) (int, func(), error) { return -1, func() {}, nil }

// dirNames is the names in the directory dir.
func dirNames(dirfd int, dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}
