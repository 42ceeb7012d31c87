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

// Unknown is the key Read returns for one that sends an escape sequence
// (an arrow, a function key, Alt with a letter): no character.
const Unknown = utf8.RuneError

// escWait is how long the rest of an escape sequence may take to follow
// its Esc, as terminals' own timeouts (vim's ttimeoutlen is 100 ms): the
// bytes of one key press come in one write, so this is seldom waited for
// but after a lone Esc.
const escWait = 50 * time.Millisecond

// Read reads one key from the terminal in raw mode, polling so that a
// cancelled context never leaves a read behind that would eat the user's
// next key. Ctrl-C gives context.Canceled; a Ctrl-D typed before the
// terminal was made raw gives io.EOF; a key that sends a sequence gives
// Unknown, its bytes all read, so that none is taken for the next key.
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
		switch {
		case r == 3:
			return 0, context.Canceled
		case r == 0x1b && ready(fd, escWait):
			drain(fd)
			return Unknown, nil
		}
		return r, nil
	}
}

// Discard drops the keys typed so far, so that a question is answered
// only by keys pressed once it is shown: a key pressed twice, or typed
// while an answer streamed, must not answer a question nobody read.
func Discard(in *os.File) {
	flushInput(int(in.Fd())) // not a terminal: nothing was typed
}

// ready reports whether fd has input within wait.
func ready(fd int, wait time.Duration) bool {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, int(wait.Milliseconds()))
	for err == unix.EINTR {
		n, err = unix.Poll(fds, int(wait.Milliseconds()))
	}
	return n > 0 && fds[0].Revents&unix.POLLIN != 0
}

// drain reads the rest of an escape sequence: what is there already, and
// what follows within a few milliseconds (a slow link may split it), at
// most a sequence's length, so that a paste after it is left alone.
func drain(fd int) {
	var b [32]byte
	for n := 0; n < len(b) && ready(fd, 5*time.Millisecond); {
		got, err := unix.Read(fd, b[n:n+1])
		if err != nil || got == 0 {
			return
		}
		n++
		if c := b[n-1]; n > 1 && c >= 0x40 && c <= 0x7e || n == 1 && c != '[' && c != 'O' {
			return // the final byte of a CSI or SS3 sequence, or Alt's key
		}
	}
}
