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
