package checkpoint

import (
	"io/fs"
	"syscall"
	"time"
)

// sysStat is fi's change time, inode and device.
func sysStat(fi fs.FileInfo) (ctime int64, ino, dev uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(int64(st.Ctimespec.Sec), int64(st.Ctimespec.Nsec)).UnixNano(), uint64(st.Ino), uint64(st.Dev)
	}
	return 0, 0, 0
}
