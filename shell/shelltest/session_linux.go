package shelltest

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
)

// endDescendants kills every process whose environment holds tag (what
// the program started, in its session or in sessions of their own: the
// capture proxy's shell, the assistant, background jobs, orphans among
// them) and waits until they are gone, so that nothing writes in a
// test's directories while they are removed. It returns those still
// alive when within has passed.
func endDescendants(tag string, within time.Duration) (survivors []int) {
	deadline := time.Now().Add(within)
	for {
		left := tagged([]byte(tag + "\x00")) // not a prefix of another tag
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		for _, pid := range left {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(5 * time.Millisecond) // reaping has no event to wait for
	}
}

// tagged lists the live processes whose environment holds tag; zombies
// have stopped writing and are not counted.
func tagged(tag []byte) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !holds(env, tag) {
			continue
		}
		// A zombie's environ reads empty, so what is left is alive.
		pids = append(pids, pid)
	}
	return pids
}

// holds reports whether environ, NUL-separated entries, has tag as one
// whole entry (tag ends in NUL): not the end of another (X_TAG=…).
func holds(environ, tag []byte) bool {
	return bytes.HasPrefix(environ, tag) || bytes.Contains(environ, append([]byte{0}, tag...))
}
