package tools

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// writeAtomic replaces the file at p with data: a temp file in the same
// directory, written, synced and renamed over p, so that a crash or a
// failed write leaves either the old file or the new one, never half.
// write does the writing (tests make it fail).
func writeAtomic(p string, data []byte, mode fs.FileMode, write func(io.Writer, []byte) error) (err error) {
	dir := filepath.Dir(p)
	f, err := os.CreateTemp(dir, "."+filepath.Base(p)+".qsh-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err := write(f, data); err != nil {
		return err
	}
	if err := f.Chmod(mode); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, p); err != nil {
		return err
	}
	// Make the rename itself durable; a failure here loses nothing now.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// backup keeps a copy of the content a write or edit is about to replace,
// under dir/<time>/<absolute path>, and returns where it went.
func backup(dir, abs string, old []byte, mode fs.FileMode, now time.Time) (string, error) {
	if dir == "" {
		return "", fmt.Errorf("no backup directory")
	}
	dst := filepath.Join(dir, now.UTC().Format("20060102T150405.000000000"), abs)
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return "", err
	}
	if err := os.WriteFile(dst, old, mode&0o700|0o600); err != nil {
		return "", err
	}
	return dst, nil
}
