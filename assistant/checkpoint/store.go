package checkpoint

import (
	"bufio"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Limits are a store's size policy (see the package's doc).
type Limits struct {
	MaxFile  int64 // bytes of one file whose content is kept
	MaxFiles int   // files of a workspace that is checkpointed
	Keep     Keep
}

// DefaultLimits are 16 MiB a file, 100,000 files, and DefaultKeep.
var DefaultLimits = Limits{MaxFile: 16 << 20, MaxFiles: 100_000, Keep: DefaultKeep}

// Store is the checkpoints of one workspace. Its methods are safe for
// concurrent use; several processes may share a store.
type Store struct {
	// Root is the workspace: absolute, its links resolved.
	Root string
	dir  string // the store's own directory
	base string // the directory of all stores, left out of scans
	objs objects
	git  *repo
	lim  Limits
	now  func() time.Time

	mu     sync.Mutex
	cache  Snapshot // the last whole scan's, for its stat data
	dirs   listing  // and what its directories held
	loaded bool
	pruned bool

	// watch tells a walk what changed since the last (outside git; nil
	// without one). gen counts the walks that took its word, cacheGen is
	// the one cache is from, and links are the files it found with more
	// than one name.
	watch    *watcher
	gen      int
	cacheGen int
	links    map[string]bool
	gitList  *gitList  // in a git work tree
	savedAt  time.Time // when the cache file was last written
	// afterTake, if set, runs when a walk has read the watcher's events:
	// tests make changes there that the walk may miss, the next must not.
	afterTake func()
}

// Checkpoint is one run the assistant made, as the store keeps it.
type Checkpoint struct {
	ID    string    `json:"id"`
	Time  time.Time `json:"time"`
	Label string    `json:"label"` // the command line, or "write PATH"
	// Changes are the paths the run changed, sorted.
	Changes []Change `json:"changes"`
}

// Change is a path a run changed: its entry before and after (nil when
// absent).
type Change struct {
	Path   string `json:"path"`
	Before *Entry `json:"before,omitempty"`
	After  *Entry `json:"after,omitempty"`
}

// Open returns the store of the workspace root (absolute, resolved)
// under base, made if need be. Opening reads nothing but asks git whether
// root is a work tree.
func Open(base, root string, lim Limits) (*Store, error) {
	if lim.MaxFile <= 0 {
		lim.MaxFile = DefaultLimits.MaxFile
	}
	if lim.MaxFiles <= 0 {
		lim.MaxFiles = DefaultLimits.MaxFiles
	}
	sum := sha256.Sum256([]byte(root))
	dir := filepath.Join(base, hex.EncodeToString(sum[:8]))
	s := &Store{Root: root, dir: dir, base: base, objs: objects{filepath.Join(dir, "objects")}, lim: lim, now: time.Now}
	if err := os.MkdirAll(filepath.Join(dir, "records"), 0o700); err != nil {
		return nil, fmt.Errorf("checkpoints: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "root")); err != nil || string(b) != root+"\n" {
		writeAtomic(filepath.Join(dir, "root"), []byte(root+"\n"))
	}
	s.git = findRepo(root)
	return s, nil
}

// Dir is where the store keeps its files.
func (s *Store) Dir() string { return s.dir }

// Git reports whether the workspace is a git work tree.
func (s *Store) Git() bool { return s.git != nil }

// Pending is a checkpoint begun before a run: Commit it after the run.
type Pending struct {
	s      *Store
	label  string
	keys   []string // the paths scanned; nil: the whole workspace
	before Snapshot
	dirs   listing
	gen    int // the walk before is from
	time   time.Time
}

// Begin takes the snapshot before a run of label: the whole workspace.
// ErrTooLarge means the workspace is not checkpointed.
func (s *Store) Begin(label string) (*Pending, error) {
	return s.begin(label, nil)
}

// BeginPaths takes the snapshot before a change of the absolute paths
// only, such as the filesystem tool's write of one file.
func (s *Store) BeginPaths(label string, paths ...string) (*Pending, error) {
	keys := make([]string, len(paths))
	for i, p := range paths {
		keys[i] = s.key(p)
	}
	return s.begin(label, keys)
}

func (s *Store) begin(label string, keys []string) (*Pending, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.prepare()
	p := &Pending{s: s, label: label, keys: keys, time: s.now()}
	sc := newScanner(s, s.cache, s.dirs, s.cacheGen, p.time, true)
	var err error
	if keys == nil {
		p.before, p.dirs, err = sc.all()
		if err == nil {
			p.gen = s.walked(sc)
			s.cache, s.dirs, s.cacheGen = p.before, p.dirs, p.gen
		}
	} else {
		p.before, err = sc.paths(keys)
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Commit takes the snapshot after the run and keeps what changed as a
// checkpoint; nil when nothing did (but git's index, which is not worth
// one).
func (p *Pending) Commit() (*Checkpoint, error) {
	s := p.s
	s.mu.Lock()
	defer s.mu.Unlock()
	sc := newScanner(s, p.before, p.dirs, p.gen, s.now(), true)
	var after Snapshot
	var dirs listing
	var err error
	if p.keys == nil {
		after, dirs, err = sc.all()
	} else {
		after, err = sc.paths(p.keys)
	}
	if err != nil {
		return nil, err
	}
	if p.keys == nil {
		s.cache, s.dirs, s.cacheGen = after, dirs, s.walked(sc)
		// The file serves the next process only (this one has the
		// watcher): an older one costs it a few files hashed again, and
		// writing 10,000 lines costs each run here.
		if s.watch == nil || !s.watch.live() || time.Since(s.savedAt) > cacheEvery {
			s.saveCache()
			s.savedAt = time.Now()
		}
	}
	cp := &Checkpoint{Time: p.time, Label: p.label, Changes: diff(p.before, after)}
	hard := false
	for _, c := range cp.Changes {
		hard = hard || !(c.Before != nil && c.Before.Soft || c.After != nil && c.After.Soft)
	}
	if !hard {
		return nil, nil
	}
	cp.ID = p.time.UTC().Format("20060102T150405.000000000Z") + "-" + randHex(3)
	b, err := json.Marshal(cp)
	if err != nil {
		return nil, err
	}
	unlock, err := s.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := writeAtomic(filepath.Join(s.dir, "records", cp.ID+".json"), b); err != nil {
		return nil, fmt.Errorf("checkpoints: saving: %v", err)
	}
	s.enforce()
	return cp, nil
}

// cacheEvery is how often a process with a watcher writes the cache
// file.
const cacheEvery = time.Minute

// walked keeps what the walk of sc found out for the next: the files
// with more than one name; and returns the walk's generation (0 when it
// took no watcher's word); s.mu is held.
func (s *Store) walked(sc *scanner) int {
	if sc.made == 0 {
		return 0
	}
	s.links = make(map[string]bool, len(sc.links))
	for _, k := range sc.links {
		s.links[k] = true
	}
	return sc.made
}

// diff is the changes from a to b, sorted by path.
func diff(a, b Snapshot) []Change {
	var out []Change
	for k, e := range a {
		if f := b[k]; !Same(e, f) {
			out = append(out, Change{Path: k, Before: e, After: f})
		}
	}
	for k, f := range b {
		if a[k] == nil {
			out = append(out, Change{Path: k, After: f})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// List returns the checkpoints, newest first, and one line for records
// that could not be read (a damaged store), "" when all could.
func (s *Store) List() ([]Checkpoint, string) {
	ents, err := os.ReadDir(filepath.Join(s.dir, "records"))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, ""
		}
		return nil, fmt.Sprintf("checkpoints: cannot read %s: %v", s.dir, err)
	}
	var out []Checkpoint
	bad := 0
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") {
			continue
		}
		cp, err := readRecord(filepath.Join(s.dir, "records", name))
		if err != nil {
			bad++
			continue
		}
		out = append(out, cp)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID > out[j].ID })
	problem := ""
	if bad > 0 {
		problem = fmt.Sprintf("checkpoints: %d damaged %s in %s left out (delete it to start afresh)",
			bad, map[bool]string{true: "record", false: "records"}[bad == 1], filepath.Join(s.dir, "records"))
	}
	return out, problem
}

func readRecord(path string) (Checkpoint, error) {
	var cp Checkpoint
	b, err := os.ReadFile(path)
	if err != nil {
		return cp, err
	}
	if err := json.Unmarshal(b, &cp); err != nil {
		return cp, err
	}
	if cp.ID+".json" != filepath.Base(path) || cp.Time.IsZero() {
		return cp, errors.New("not a checkpoint")
	}
	for _, c := range cp.Changes {
		if c.Path == "" || !valid(c.Before) || !valid(c.After) {
			return cp, errors.New("not a checkpoint")
		}
	}
	return cp, nil
}

// valid reports whether e, read from a record, could have been written
// by a scan.
func valid(e *Entry) bool {
	if e == nil {
		return true
	}
	switch e.Kind {
	case File:
		return e.Blob == "" || len(e.Blob) == 40 && strings.Trim(e.Blob, "0123456789abcdef") == ""
	case Link, Dir:
		return true
	}
	return false
}

// remove deletes the records of cps.
func (s *Store) remove(cps []Checkpoint) {
	for _, cp := range cps {
		os.Remove(filepath.Join(s.dir, "records", cp.ID+".json"))
	}
}

// Content is a file entry's content from the store.
func (s *Store) Content(e *Entry) ([]byte, error) {
	if e == nil || e.Kind != File || e.Blob == "" {
		return nil, errors.New("no content kept")
	}
	return s.objs.get(e.Blob)
}

// Abs is where a change's path is.
func (s *Store) Abs(key string) string { return s.abs(key) }

// lock takes the store's lock, shared with other processes.
func (s *Store) lock() (func(), error) {
	f, err := os.OpenFile(filepath.Join(s.dir, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("checkpoints: %v", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("checkpoints: lock: %v", err)
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}

// prepare reads the cache and prunes, once a process; s.mu is held.
func (s *Store) prepare() {
	if !s.loaded {
		s.loaded = true
		var walked bool
		s.cache, walked = s.loadCache()
		if walked && s.git == nil {
			s.dirs = listOf(s.cache)
		}
		s.watch = newWatcher(s.Root)
	}
	if !s.pruned {
		s.pruned = true
		if unlock, err := s.lock(); err == nil {
			s.enforce()
			unlock()
		}
	}
}

// enforce drops the checkpoints older than the age limit, then the
// oldest while the store is over its size, and the contents nothing
// refers to any more; the lock is held.
func (s *Store) enforce() {
	cps, _ := s.List()
	now := s.now()
	keep := cps[:0:0]
	for _, cp := range cps {
		if s.lim.Keep.Age > 0 && now.Sub(cp.Time) > s.lim.Keep.Age {
			s.remove([]Checkpoint{cp})
			continue
		}
		keep = append(keep, cp)
	}
	for {
		size := s.collect(keep)
		if s.lim.Keep.Bytes <= 0 || size <= s.lim.Keep.Bytes || len(keep) == 0 {
			return
		}
		s.remove(keep[len(keep)-1:])
		keep = keep[:len(keep)-1]
	}
}

// collect deletes the objects neither cps nor the cache refer to (but
// those of the last hour: a run under way in another process may not
// have written its record yet) and returns the size of the rest.
func (s *Store) collect(cps []Checkpoint) int64 {
	live := map[string]bool{}
	for _, e := range s.cache {
		live[e.Blob] = true
	}
	for _, cp := range cps {
		for _, c := range cp.Changes {
			if c.Before != nil {
				live[c.Before.Blob] = true
			}
			if c.After != nil {
				live[c.After.Blob] = true
			}
		}
	}
	var size int64
	recent := s.now().Add(-time.Hour)
	dirs, _ := os.ReadDir(s.objs.dir)
	for _, d := range dirs {
		if d.Name() == "pack" {
			size += s.collectPacks(live, recent)
			continue
		}
		files, _ := os.ReadDir(filepath.Join(s.objs.dir, d.Name()))
		for _, f := range files {
			fi, err := f.Info()
			if err != nil {
				continue
			}
			if !live[d.Name()+f.Name()] && fi.ModTime().Before(recent) {
				os.Remove(filepath.Join(s.objs.dir, d.Name(), f.Name()))
				continue
			}
			size += fi.Size()
		}
	}
	return size
}

// collectPacks deletes the packs none of whose objects is live (but
// those made since recent), and what a pack's writer left (since then
// too), and returns the size of the rest. A pack is kept whole while any
// of its objects is live.
func (s *Store) collectPacks(live map[string]bool, recent time.Time) int64 {
	dir := filepath.Join(s.objs.dir, "pack")
	files, _ := os.ReadDir(dir)
	var size int64
	for _, f := range files {
		fi, err := f.Info()
		if err != nil {
			continue
		}
		name := f.Name()
		base, isIdx := strings.CutSuffix(name, ".idx")
		if !isIdx {
			// A pack counts with its index; a pack without one, or a
			// temp file, is a writer's that failed or is under way.
			if base, ok := strings.CutSuffix(name, ".pack"); ok {
				if _, err := os.Stat(filepath.Join(dir, base+".idx")); err == nil {
					continue
				}
			}
			if fi.ModTime().Before(recent) {
				os.Remove(filepath.Join(dir, name))
			}
			continue
		}
		idx, err := os.ReadFile(filepath.Join(dir, name))
		ids, _, perr := packIDs(idx)
		used := err != nil || perr != nil // unreadable: not ours to judge
		var h [40]byte
		for _, id := range ids {
			hex.Encode(h[:], id)
			if live[string(h[:])] {
				used = true
				break
			}
		}
		if used || !fi.ModTime().Before(recent) {
			size += fi.Size()
			if pi, err := os.Stat(filepath.Join(dir, base+".pack")); err == nil {
				size += pi.Size()
			}
			continue
		}
		// The index first: a pack is found by its index.
		os.Remove(filepath.Join(dir, name))
		os.Remove(filepath.Join(dir, base+".pack"))
	}
	return size
}

// The cache file: a line a path, tab-separated: key (quoted), kind, mode,
// size, blob, target (quoted), mtime, ctime, inode, device, racy. The
// header of a walk's (outside git) says so: what its directories held
// can be told from it, as no other scan's, if it is whole (the last line
// is cacheEnd).
const (
	cacheHeader     = "qsh checkpoint cache 1\n"
	walkCacheHeader = "qsh checkpoint cache 1 walk\n"
	cacheEnd        = "end\n"
)

// loadCache reads the cache, and whether a walk made it.
func (s *Store) loadCache() (Snapshot, bool) {
	f, err := os.Open(filepath.Join(s.dir, "cache"))
	if err != nil {
		return nil, false
	}
	defer f.Close()
	r := bufio.NewReader(f)
	h, _ := r.ReadString('\n')
	if h != cacheHeader && h != walkCacheHeader {
		return nil, false
	}
	snap := Snapshot{}
	whole := false
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			break
		}
		if line == cacheEnd {
			whole = true
			break
		}
		f := strings.Split(strings.TrimSuffix(line, "\n"), "\t")
		if len(f) != 11 {
			return nil, false // damaged: it is only a cache
		}
		key, err1 := strconv.Unquote(f[0])
		target, err2 := strconv.Unquote(f[5])
		mode, err3 := strconv.ParseUint(f[2], 8, 32)
		n := make([]int64, 5)
		var errn error
		for i, j := range []int{3, 6, 7, 8, 9} {
			if n[i], err = strconv.ParseInt(f[j], 10, 64); err != nil {
				errn = err
			}
		}
		if err1 != nil || err2 != nil || err3 != nil || errn != nil || len(f[1]) != 1 {
			return nil, false
		}
		e := &Entry{Kind: Kind(f[1][0]), Mode: fs.FileMode(mode), Blob: f[4], Target: target}
		if e.Kind == File {
			e.Size, e.MTime = n[0], n[1]
		}
		if !valid(e) {
			return nil, false
		}
		e.stat = statData{mtime: n[1], ctime: n[2], ino: uint64(n[3]), dev: uint64(n[4]), size: n[0], racy: f[10] == "1"}
		snap[key] = e
	}
	return snap, whole && h == walkCacheHeader
}

// saveCache writes the cache; s.mu is held. Failing costs only time.
func (s *Store) saveCache() {
	b := make([]byte, 0, 128*len(s.cache)+len(walkCacheHeader))
	if s.git == nil {
		b = append(b, walkCacheHeader...)
	} else {
		b = append(b, cacheHeader...)
	}
	for k, e := range s.cache {
		b = strconv.AppendQuote(b, k)
		b = append(b, '\t', byte(e.Kind), '\t')
		b = strconv.AppendUint(b, uint64(e.Mode), 8)
		b = append(b, '\t')
		b = strconv.AppendInt(b, e.stat.size, 10)
		b = append(b, '\t')
		b = append(b, e.Blob...)
		b = append(b, '\t')
		b = strconv.AppendQuote(b, e.Target)
		for _, n := range []int64{e.stat.mtime, e.stat.ctime, int64(e.stat.ino), int64(e.stat.dev)} {
			b = append(b, '\t')
			b = strconv.AppendInt(b, n, 10)
		}
		if e.stat.racy {
			b = append(b, "\t1\n"...)
		} else {
			b = append(b, "\t0\n"...)
		}
	}
	b = append(b, cacheEnd...)
	writeAtomic(filepath.Join(s.dir, "cache"), b)
}

// listOf is what a walk that found snap found in each directory.
func listOf(snap Snapshot) listing {
	dirs := listing{}
	for k := range snap {
		if filepath.IsAbs(k) {
			continue
		}
		d := path.Dir(k)
		if d == "." {
			d = ""
		}
		dirs[d] = append(dirs[d], k)
	}
	return dirs
}

// writeAtomic writes data to a temp file beside path and renames it over
// path: a reader sees the old file or the new one, never half.
func writeAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

func randHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
