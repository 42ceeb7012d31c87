package keys

import (
	"context"
	"testing"

	"golang.org/x/sys/unix"
)

// TestQuiet: a key typed while a question is shown, before Read makes the
// terminal raw, is not echoed (the question prints it once), and the
// terminal echoes again after.
func TestQuiet(t *testing.T) {
	ptmx, tty := openPTY(t, false)
	restore := Quiet(tty)
	ptmx.Write([]byte("y"))
	if r, err := Read(context.Background(), tty); r != 'y' || err != nil {
		t.Fatalf("Read = %q, %v", r, err)
	}
	restore()
	if tio, err := unix.IoctlGetTermios(int(tty.Fd()), getTermios); err != nil || tio.Lflag&unix.ECHO == 0 {
		t.Fatalf("echo is not back on (%v)", err)
	}
	ptmx.Write([]byte("z"))
	waitReadable(t, ptmx)
	b := make([]byte, 8)
	n, _ := ptmx.Read(b)
	if got := string(b[:n]); got != "z" {
		t.Errorf("the terminal echoed %q; want only the z typed after", got)
	}
}
