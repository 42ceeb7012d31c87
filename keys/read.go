package keys

import (
	"context"
	"io"
	"os"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// Read reads one key from the terminal in raw mode, polling so that a
// cancelled context never leaves a read behind that would eat the user's
// next key. Ctrl-C gives context.Canceled; a Ctrl-D typed before the
// terminal was made raw gives io.EOF.
func Read(ctx context.Context, in *os.File) (rune, error) {
	fd := int(in.Fd())
	old, err := term.MakeRaw(fd)
	if err != nil {
		return 0, err
	}
	defer term.Restore(fd, old)
	var buf []byte
	for {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int((50 * time.Millisecond).Milliseconds()))
		if err == unix.EINTR || n == 0 {
			continue
		}
		if err != nil {
			return 0, err
		}
		var b [1]byte
		got, err := unix.Read(fd, b[:])
		if err != nil {
			return 0, err
		}
		if got == 0 { // hung up (macOS; Linux says EIO)
			return 0, io.EOF
		}
		if b[0] == 0 {
			// A Ctrl-D typed while the terminal was still cooked: the
			// line discipline keeps it as a NUL (so is Ctrl-Space).
			return 0, io.EOF
		}
		buf = append(buf, b[0])
		if !utf8.FullRune(buf) {
			continue
		}
		r, _ := utf8.DecodeRune(buf)
		if r == 3 {
			return 0, context.Canceled
		}
		return r, nil
	}
}
