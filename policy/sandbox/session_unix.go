//go:build unix

package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// SessionDir makes a directory of this process's named for what it holds
// ("qsh-sandbox"): name-PID-random, the user's alone, under
// $XDG_RUNTIME_DIR when it is the user's, else the temp dir. Those of
// the same name that processes of the user's left behind when they died
// (killed, crashed) are removed first: a private /tmp must not pile up.
func SessionDir(name string) (string, error) {
	base := os.TempDir()
	if d := os.Getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(d) {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() && owned(fi) {
			base = d
		}
	}
	if ents, err := os.ReadDir(base); err == nil {
		for _, e := range ents {
			rest, ok := strings.CutPrefix(e.Name(), name+"-")
			pid, _, ok2 := strings.Cut(rest, "-")
			n, err := strconv.Atoi(pid)
			if !ok || !ok2 || err != nil || n <= 0 || !e.IsDir() {
				continue
			}
			if fi, err := e.Info(); err == nil && owned(fi) && syscall.Kill(n, 0) == syscall.ESRCH {
				os.RemoveAll(filepath.Join(base, e.Name()))
			}
		}
	}
	dir, err := os.MkdirTemp(base, name+"-"+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", fmt.Errorf("sandbox: %v", err)
	}
	if dir, err = filepath.EvalSymlinks(dir); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("sandbox: %v", err)
	}
	return dir, nil
}

func owned(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
