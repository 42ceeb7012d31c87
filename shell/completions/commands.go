package completions

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Commands caches the names of the executables on a PATH. It scans the
// directories once and then only checks their modification times, so it is
// cheap to ask on every key press; it rescans when PATH changes or a
// directory on it does. The zero value is ready to use and safe for
// concurrent use.
type Commands struct {
	mu    sync.Mutex
	path  string
	dirs  []stamp
	names []string
}

type stamp struct {
	dir   string
	mtime time.Time
}

// Names returns the sorted names of the executables in the directories of
// path (a colon-separated list, as $PATH). Empty and relative entries are
// skipped: they name the current directory, which changes under the cache.
// The result is shared: do not modify it.
func (c *Commands) Names(path string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if path != c.path || c.changed() {
		c.scan(path)
	}
	return c.names
}

func (c *Commands) changed() bool {
	for _, s := range c.dirs {
		if mtime(s.dir) != s.mtime {
			return true
		}
	}
	return false
}

func (c *Commands) scan(path string) {
	c.path, c.dirs = path, c.dirs[:0]
	var names []string
	for _, dir := range filepath.SplitList(path) {
		if dir == "" || !filepath.IsAbs(dir) || slices.ContainsFunc(c.dirs, func(s stamp) bool { return s.dir == dir }) {
			continue
		}
		// Stamp before reading: a change during the read shows up next time.
		c.dirs = append(c.dirs, stamp{dir, mtime(dir)})
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			if _, isExec := kindOf(dir, e); isExec {
				names = append(names, e.Name())
			}
		}
	}
	slices.Sort(names)
	c.names = slices.Compact(names)
}

// mtime is the directory's modification time, zero when it is missing.
func mtime(dir string) time.Time {
	fi, err := os.Stat(dir)
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}
