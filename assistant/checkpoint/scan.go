package checkpoint

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Snapshot is the state of a workspace's paths: key → entry. Keys are
// slash-separated paths relative to the workspace, or absolute for what
// lies outside it (the git directory of a linked work tree).
type Snapshot map[string]*Entry

// ErrTooLarge is the error of a workspace too big to checkpoint.
var ErrTooLarge = errors.New("too large to checkpoint")

// skipDirs are directories that hold what tools download or build, left
// out of a scan outside git (in git, what .gitignore says is left out).
var skipDirs = map[string]bool{
	".git": true, "node_modules": true, ".venv": true, "__pycache__": true, ".cache": true, ".tox": true,
	".mypy_cache": true, ".pytest_cache": true, ".gradle": true, ".next": true, ".terraform": true,
}

// repo is the git repository of a workspace that is a git work tree.
type repo struct {
	gitDir, commonDir string // absolute
}

// gitState are the files of a git directory a checkpoint keeps, relative
// to it: what commands that move branches, commit, stash or reset change.
var gitState = []string{"HEAD", "ORIG_HEAD", "index", "logs/HEAD", "COMMIT_EDITMSG"}

// commonState are those of the common directory (the same one outside
// linked work trees); directories are kept whole.
var commonState = []string{"packed-refs", "config", "refs", "logs/refs"}

// findRepo asks git whether root is a work tree's top, and where its git
// directories are; nil when it is not, or git is not installed.
func findRepo(root string) *repo {
	if _, err := os.Lstat(filepath.Join(root, ".git")); err != nil {
		return nil
	}
	out, err := gitCmd(root, "rev-parse", "--show-toplevel", "--absolute-git-dir", "--git-common-dir").Output()
	if err != nil {
		return nil
	}
	f := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(f) != 3 || !sameDir(f[0], root) {
		return nil
	}
	common := f[2]
	if !filepath.IsAbs(common) {
		common = filepath.Join(root, common)
	}
	return &repo{gitDir: f[1], commonDir: filepath.Clean(common)}
}

// sameDir reports whether a and b are the same directory.
func sameDir(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// gitCmd is git run to read only: no optional locks (a `git status` of
// ours must not write the user's index), no fsmonitor hook, no pager.
func gitCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", append([]string{"-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	return cmd
}

// scanner makes a Snapshot: lists the paths, stats them, and hashes and
// stores the contents its cache cannot vouch for.
type scanner struct {
	s     *Store
	cache Snapshot
	// dirs are the cache's directories' children: a directory whose stat
	// data did not move has the same ones, and is not read again.
	dirs  listing
	start time.Time
	store bool         // put contents into the store (false: only hash them)
	kept  atomic.Int64 // bytes of content the snapshot refers to
	found atomic.Int64 // paths a walk found

	// gen is the walk whose snapshot the cache is (0: none, or not a
	// walk's); links are the files found with more than one name.
	gen     int
	made    int // the walk's own generation, once it took the watcher's word
	linksMu sync.Mutex
	links   []string

	loose atomic.Int64 // contents stored loose
	pack  packWriter   // and those stored after them

	rootfd  int    // the workspace, open for lookups relative to it
	racy    int64  // stat times from this one on are too recent to trust
	index   string // the key of git's index, restored only softly
	baseKey string // the key of the directory of stores, left out
}

// listing is what a walk found in each directory, by its key ("" for
// the workspace): its children's keys.
type listing map[string][]string

func newScanner(s *Store, cache Snapshot, dirs listing, gen int, start time.Time, store bool) *scanner {
	sc := &scanner{s: s, cache: cache, dirs: dirs, gen: gen, start: start, store: store, rootfd: -1,
		racy: start.Add(-racyWindow).UnixNano(), index: ".git/index", baseKey: s.key(s.base)}
	sc.pack.dir = filepath.Join(s.objs.dir, "pack")
	if s.git != nil {
		sc.index = s.key(filepath.Join(s.git.gitDir, "index"))
	}
	return sc
}

// open opens the workspace for the scan's lookups; the closer undoes it.
func (sc *scanner) open() func() {
	if sc.rootfd >= 0 {
		return func() {}
	}
	fd, closer, err := openDir(sc.s.Root)
	if err != nil {
		return closer // lookups by absolute path
	}
	sc.rootfd = fd
	return func() { closer(); sc.rootfd = -1 }
}

// all scans the whole workspace, and says what its directories hold
// (nil in git, which lists the files).
func (sc *scanner) all() (snap Snapshot, dirs listing, err error) {
	defer sc.open()()
	defer func() {
		if err = sc.pack.finish(err); err != nil {
			snap, dirs = nil, nil
		}
	}()
	if sc.s.git == nil {
		return sc.walk()
	}
	snap, err = sc.gitAll()
	return snap, nil, err
}

// paths scans only keys, on a few goroutines: a scan waits mostly for
// the file system.
func (sc *scanner) paths(keys []string) (snap Snapshot, err error) {
	defer sc.open()()
	defer func() {
		if err = sc.pack.finish(err); err != nil {
			snap = nil
		}
	}()
	ents := make([]*Entry, len(keys))
	errs := make([]error, len(keys))
	workers := min(4, max(1, len(keys)/256))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(keys); i += workers {
				ents[i], errs[i] = sc.entry(keys[i])
			}
		}()
	}
	wg.Wait()
	snap = make(Snapshot, len(keys))
	for i, k := range keys {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if ents[i] != nil {
			snap[k] = ents[i]
		}
	}
	return snap, nil
}

// lstat is key's mode and stat data.
func (sc *scanner) lstat(key string) (fs.FileMode, statData, error) {
	if sc.rootfd < 0 || filepath.IsAbs(key) {
		return lstatAt(atCWD, "", sc.s.abs(key))
	}
	return lstatAt(sc.rootfd, sc.s.Root, key)
}

// entry is key's entry; nil when there is nothing at key.
func (sc *scanner) entry(key string) (*Entry, error) {
	m, st, err := sc.lstat(key)
	if err != nil {
		return nil, nil // gone since it was listed, or never there
	}
	return sc.entryOf(key, m, st)
}

// entryOf is the entry of key, found with mode m and stat data st: the
// cache's own when its stat data did not move (nothing read, nothing
// made), else a new one, its content hashed and stored.
func (sc *scanner) entryOf(key string, m fs.FileMode, st statData) (*Entry, error) {
	st.racy = st.mtime >= sc.racy || st.ctime >= sc.racy
	if st.links > 1 && m.IsRegular() {
		sc.linksMu.Lock()
		sc.links = append(sc.links, key)
		sc.linksMu.Unlock()
	}
	c := sc.cache[key]
	if c != nil && c.Kind == kindOf(m) && c.Mode == perm(m) && c.stat.unchanged(st) &&
		(c.Kind != File || c.Blob != "") {
		if c.Kind == File {
			if err := sc.keep(c.Size); err != nil {
				return nil, err
			}
		}
		if !st.racy {
			return c, nil // shared by snapshots: never changed once made
		}
		// Too recent to vouch for the next time: a copy that says so.
		e := *c
		e.stat = st
		return &e, nil
	}
	abs := sc.s.abs(key)
	e := newEntry(abs, m, st)
	if e == nil {
		return nil, nil
	}
	e.Soft = key == sc.index
	if e.Kind == File {
		stored := ""
		if c != nil {
			stored = c.Blob
		}
		if err := sc.content(key, abs, e, stored); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// racyWindow is how close to a scan a change must be for the scan's stat
// data not to be trusted the next time: more than any file system's
// timestamp granularity (FAT's 2 s).
const racyWindow = 3 * time.Second

// keep counts n bytes of content the snapshot refers to, against the
// store's size limit.
func (sc *scanner) keep(n int64) error {
	if k := sc.kept.Add(n); sc.s.lim.Keep.Bytes > 0 && k > sc.s.lim.Keep.Bytes {
		return fmt.Errorf("%w: over %s of files (QSH_AI_CHECKPOINT_KEEP)", ErrTooLarge, FormatSize(sc.s.lim.Keep.Bytes))
	}
	return nil
}

// content sets e.Blob: read, hashed and stored (but the content the
// cache has stored already: a racy file is hashed again, mostly to find
// it the same).
func (sc *scanner) content(key, abs string, e *Entry, stored string) error {
	if e.Size > sc.s.lim.MaxFile {
		return nil // noted in the record, not kept
	}
	if err := sc.keep(e.Size); err != nil {
		return err
	}
	var b []byte
	var err error
	if sc.rootfd < 0 || filepath.IsAbs(key) {
		b, err = readAt(atCWD, "", abs, e.Size)
	} else {
		b, err = readAt(sc.rootfd, sc.s.Root, key, e.Size)
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EAGAIN) {
			// Gone, or no longer a file, since it was stat'd: the next
			// scan looks again.
			e.stat.racy = true
			return nil
		}
		if errors.Is(err, fs.ErrPermission) {
			// Unreadable: neither kept nor restorable, like a big one.
			e.Size = -1
			return nil
		}
		return fmt.Errorf("reading %s: %w", key, err)
	}
	if int64(len(b)) != e.Size {
		// Written while read: hash what was read, and trust nothing.
		e.Size, e.stat.racy = int64(len(b)), true
	}
	e.Blob = blobID(b)
	if sc.store && e.Blob != stored {
		if sc.loose.Add(1) <= looseMax {
			_, err = sc.s.objs.put(e.Blob, b)
		} else {
			err = sc.pack.add(e.Blob, b)
		}
		if err != nil {
			return fmt.Errorf("storing %s: %w", key, err)
		}
	}
	return nil
}

// gitListed are the files git sees in the work tree, and their
// directories (made or removed along with them).
func (s *Store) gitListed() ([]string, error) {
	out, err := gitCmd(s.Root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %v", err)
	}
	var keys []string
	seen := map[string]bool{}
	for _, k := range bytes.Split(out, []byte{0}) {
		// A path with a slash at the end is a repository of its own.
		if len(k) == 0 || k[len(k)-1] == '/' || seen[string(k)] {
			continue
		}
		seen[string(k)] = true
		keys = append(keys, string(k))
	}
	if len(keys) > s.lim.MaxFiles {
		return nil, fmt.Errorf("%w: over %d files", ErrTooLarge, s.lim.MaxFiles)
	}
	parents := map[string]bool{}
	for _, k := range keys {
		for d := path.Dir(k); d != "." && !parents[d]; d = path.Dir(d) {
			parents[d] = true
		}
	}
	for d := range parents {
		keys = append(keys, d)
	}
	return keys, nil
}

// gitStateKeys are the git state's files a checkpoint keeps.
func (s *Store) gitStateKeys() []string {
	var keys []string
	for _, f := range gitState {
		keys = append(keys, s.key(filepath.Join(s.git.gitDir, f)))
	}
	for _, f := range commonState {
		p := filepath.Join(s.git.commonDir, f)
		fi, err := os.Lstat(p)
		if err != nil {
			continue
		}
		if !fi.IsDir() {
			keys = append(keys, s.key(p))
			continue
		}
		filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err == nil {
				keys = append(keys, s.key(q))
			}
			return nil
		})
	}
	return keys
}

// abs is where key is.
func (s *Store) abs(key string) string {
	if filepath.IsAbs(key) {
		return key
	}
	return filepath.Join(s.Root, filepath.FromSlash(key))
}

// key is abs's key.
func (s *Store) key(abs string) string {
	rel, err := filepath.Rel(s.Root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return abs
	}
	return filepath.ToSlash(rel)
}
