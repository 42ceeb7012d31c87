package sandbox

import (
	"os"
	"syscall"
)

// changeStamp is a file's inode and change time.
func changeStamp(fi os.FileInfo) (ino uint64, sec, nsec int64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino, st.Ctim.Sec, st.Ctim.Nsec
	}
	return 0, fi.ModTime().Unix(), 0
}
