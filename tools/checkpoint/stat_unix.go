//go:build linux || darwin

package checkpoint

import (
	"io/fs"

	"golang.org/x/sys/unix"
)

// atCWD is the dirfd of paths not relative to a directory of ours.
const atCWD = unix.AT_FDCWD

// openDir opens dir to look names up relative to it, and the closer.
func openDir(dir string) (int, func(), error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, func() {}, err
	}
	return fd, func() { unix.Close(fd) }, nil
}

// modeOf is the fs.FileMode of a stat's st_mode, as os.Lstat would say.
func modeOf(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	switch m & unix.S_IFMT {
	case unix.S_IFREG:
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	default:
		mode |= fs.ModeIrregular // not kept
	}
	if m&unix.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if m&unix.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if m&unix.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}
