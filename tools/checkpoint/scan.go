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
	"sort"
	"strings"
	"sync"
	"sync/atomic"
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
	start time.Time
	store bool  // put contents into the store (false: only hash them)
	kept  int64 // bytes of content the snapshot refers to
}

// all scans the whole workspace.
func (sc *scanner) all() (Snapshot, error) {
	keys, err := sc.s.list()
	if err != nil {
		return nil, err
	}
	if len(keys) > sc.s.lim.MaxFiles {
		return nil, fmt.Errorf("%w: over %d files", ErrTooLarge, sc.s.lim.MaxFiles)
	}
	if sc.s.git != nil {
		// git lists files; their directories count too (made or removed
		// along with them).
		dirs := map[string]bool{}
		for _, k := range keys {
			if filepath.IsAbs(k) {
				continue
			}
			for d := path.Dir(k); d != "." && !dirs[d]; d = path.Dir(d) {
				dirs[d] = true
			}
		}
		for d := range dirs {
			keys = append(keys, d)
		}
	}
	return sc.paths(keys)
}

// paths scans only keys, on a few goroutines: a scan waits mostly for
// the file system.
func (sc *scanner) paths(keys []string) (Snapshot, error) {
	ents := make([]*Entry, len(keys))
	errs := make([]error, len(keys))
	workers := min(4, max(1, len(keys)/256))
	var wg sync.WaitGroup
	var kept atomic.Int64
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(keys); i += workers {
				ents[i], errs[i] = sc.entry(keys[i], &kept)
			}
		}()
	}
	wg.Wait()
	sc.kept += kept.Load()
	snap := make(Snapshot, len(keys))
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

// entry is key's entry; nil when there is nothing at key.
func (sc *scanner) entry(key string, kept *atomic.Int64) (*Entry, error) {
	abs := sc.s.abs(key)
	fi, err := os.Lstat(abs)
	if err != nil {
		return nil, nil // gone since it was listed, or never there
	}
	e, ok := entryOf(abs, fi)
	if !ok {
		return nil, nil
	}
	if key == ".git/index" || sc.s.git != nil && abs == filepath.Join(sc.s.git.gitDir, "index") {
		e.Soft = true
	}
	e.stat.racy = e.stat.mtime >= sc.start.Add(-racyWindow).UnixNano() || e.stat.ctime >= sc.start.Add(-racyWindow).UnixNano()
	if e.Kind == File {
		if err := sc.content(key, abs, e, kept); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// racyWindow is how close to a scan a change must be for the scan's stat
// data not to be trusted the next time: more than any file system's
// timestamp granularity (FAT's 2 s).
const racyWindow = 3 * time.Second

// content sets e.Blob: from the cache when the file's stat data did not
// move, else read, hashed and stored.
func (sc *scanner) content(key, abs string, e *Entry, kept *atomic.Int64) error {
	if e.Size > sc.s.lim.MaxFile {
		return nil // noted in the record, not kept
	}
	if n := kept.Add(e.Size); sc.s.lim.Keep.Bytes > 0 && sc.kept+n > sc.s.lim.Keep.Bytes {
		return fmt.Errorf("%w: over %s of files (QSH_AI_CHECKPOINT_KEEP)", ErrTooLarge, FormatSize(sc.s.lim.Keep.Bytes))
	}
	if c := sc.cache[key]; c != nil && c.Kind == File && c.Blob != "" && c.stat.unchanged(e.stat) {
		e.Blob = c.Blob
		return nil
	}
	b, err := os.ReadFile(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
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
	if sc.store {
		if _, err := sc.s.objs.put(e.Blob, b); err != nil {
			return fmt.Errorf("storing %s: %w", key, err)
		}
	}
	return nil
}

// list is the keys a scan covers, sorted.
func (s *Store) list() ([]string, error) {
	var keys []string
	var err error
	if s.git != nil {
		keys, err = s.gitFiles()
	} else {
		keys, err = s.walk()
	}
	if err != nil {
		return nil, err
	}
	sort.Strings(keys)
	return keys, nil
}

// gitFiles are the files git sees in the work tree, and the git state.
func (s *Store) gitFiles() ([]string, error) {
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
	return keys, nil
}

// walk lists everything under the workspace but skipDirs and the store.
func (s *Store) walk() ([]string, error) {
	var keys []string
	var rec func(dir, prefix string) error
	rec = func(dir, prefix string) error {
		ents, err := os.ReadDir(dir)
		if err != nil {
			if prefix == "" {
				return err
			}
			return nil // unreadable below: left out
		}
		for _, d := range ents {
			name := d.Name()
			key := prefix + name
			abs := filepath.Join(dir, name)
			if d.IsDir() {
				if skipDirs[name] || abs == s.base {
					continue
				}
				keys = append(keys, key)
				if len(keys) > s.lim.MaxFiles {
					return nil
				}
				if err := rec(abs, key+"/"); err != nil {
					return err
				}
				continue
			}
			keys = append(keys, key)
			if len(keys) > s.lim.MaxFiles {
				return nil
			}
		}
		return nil
	}
	if err := rec(s.Root, ""); err != nil {
		return nil, err
	}
	return keys, nil
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
