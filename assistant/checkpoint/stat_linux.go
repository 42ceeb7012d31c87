package checkpoint

import (
	"io/fs"

	"golang.org/x/sys/unix"
)

// lstatAt is the mode and stat data of name, relative to the directory
// open as dirfd (or absolute): one system call, and no FileInfo to make.
func lstatAt(dirfd int, dir, name string) (fs.FileMode, statData, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return 0, statData{}, err
	}
	return modeOf(uint32(st.Mode)), statData{mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(), ino: st.Ino,
		dev: uint64(st.Dev), size: st.Size, links: uint64(st.Nlink)}, nil
}
