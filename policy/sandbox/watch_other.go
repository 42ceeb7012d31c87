//go:build !linux && !darwin

package sandbox

import "os"

// changeStamp is a file's modification time, where there is no change time.
func changeStamp(fi os.FileInfo) (ino uint64, sec, nsec int64) {
	return 0, fi.ModTime().Unix(), int64(fi.ModTime().Nanosecond())
}
