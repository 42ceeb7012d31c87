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

// readAt is the content of name, relative to the directory open as dirfd
// (or absolute), whose size was size when it was stat'd: open, read
// (size+1 bytes, to see it ended), close, where os.ReadFile needs six
// system calls. A link put there since is not followed.
func readAt(dirfd int, dir, name string, size int64) ([]byte, error) {
	fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer unix.Close(fd)
	b := make([]byte, 0, max(size, 0)+1)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := unix.Read(fd, b[len(b):cap(b)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		if n == 0 {
			return b, nil
		}
		b = b[:len(b)+n]
	}
}

// openDirAt opens the directory name, relative to dirfd, to look names
// up relative to it, and the closer.
func openDirAt(dirfd int, dir, name string) (int, func(), error) {
	fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, func() {}, err
	}
	return fd, func() { unix.Close(fd) }, nil
}

// dirNames is the names in the directory open as dirfd.
func dirNames(dirfd int, dir string) ([]string, error) {
	// The offset is the descriptor's: read from its start, whoever read it before.
	if _, err := unix.Seek(dirfd, 0, 0); err != nil {
		return nil, err
	}
	var names []string
	buf := make([]byte, 32<<10)
	for {
		n, err := unix.ReadDirent(dirfd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return names, nil
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
	}
}
