package checkpoint

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestCacheSeesChanges runs each script between two whole scans whose
// cache is trusted (its stat data old enough not to be racy): the second
// scan must find what a scan without a cache finds — in the same
// process, and in a new one that reads the cache from disk.
func TestCacheSeesChanges(t *testing.T) {
	for _, script := range []string{
		"echo more >> src/x.go",
		"printf 'package y\\n' > src/x.go", // same size
		"touch -r src/x.go ref; printf 'package y\\n' > src/x.go; touch -r ref src/x.go; rm ref", // same size, old mtime
		"echo new > src/deep/new.txt",                            // a new file in a known directory
		"mkdir -p src/deep/more/d && echo n > src/deep/more/d/f", // new directories
		"rm -r src/deep",                       // a directory gone
		"mv src/deep/d.txt src/deep/e.txt",     // renamed
		"chmod 700 src/deep; chmod 600 run.sh", // modes only
		"rm link; ln -s a.txt link",            // a link's target
		"rm src/x.go; mkdir src/x.go",          // a file becomes a directory
		"mkdir -p node_modules/p && echo x > node_modules/p/f; echo y > .cache", // skipped, and not
	} {
		t.Run(script, func(t *testing.T) {
			t.Parallel()
			for _, reopen := range []bool{false, true} {
				dir := t.TempDir()
				sh(t, dir, setup)
				base := t.TempDir()
				later := func() time.Time { return time.Now().Add(time.Minute) }
				s, _ := Open(base, dir, DefaultLimits)
				s.now = later
				for range 2 { // the second trusts the first's cache
					p, err := s.Begin("x")
					if err != nil {
						t.Fatal(err)
					}
					if _, err := p.Commit(); err != nil {
						t.Fatal(err)
					}
				}
				sh(t, dir, script)
				if reopen {
					s, _ = Open(base, dir, DefaultLimits)
					s.now = later
				}
				p, err := s.Begin("y")
				if err != nil {
					t.Fatal(err)
				}
				fresh, _ := Open(t.TempDir(), dir, DefaultLimits)
				q, err := fresh.Begin("z")
				if err != nil {
					t.Fatal(err)
				}
				if got, want := dump(p.before), dump(q.before); got != want {
					t.Errorf("reopen %v: cached scan:\n%s", reopen, lineDiff(got, want))
				}
			}
		})
	}
}

// dump is snap as lines, what a record would keep of each path.
func dump(snap Snapshot) string {
	var lines []string
	for k, e := range snap {
		lines = append(lines, fmt.Sprintf("%s %c %v %d %s %q", k, e.Kind, e.Mode, e.Size, e.Blob, e.Target))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
