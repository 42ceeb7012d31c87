package checkpoint

import (
	"fmt"
	"path"
	"path/filepath"
	"sync"
)

// walk scans everything under the workspace but skipDirs and the store,
// directory by directory on a few goroutines. A directory whose entry
// the cache vouches for (its stat data did not move, and was not racy)
// holds the children it held then — adding, removing or renaming one
// changes its mtime — so it is not read again: its children are only
// stat'd, and those the cache vouches for are taken from it whole.
//
// With a watcher, a walk that follows the last one (its cache is that
// walk's snapshot) reads only the directories on the way to what changed
// since: the others' subtrees are the cache's.
func (sc *scanner) walk() (Snapshot, listing, error) {
	w := &walker{sc: sc, snap: make(Snapshot, len(sc.cache)+64), dirs: make(listing, len(sc.dirs)+8)}
	if wt := sc.s.watch; wt != nil {
		// What the watcher heard since the walk of generation s.gen: of
		// use only to a walk from that walk's snapshot. A new generation
		// either way (this walk may yet fail).
		dirty, _ := wt.take()
		if dirty != nil && sc.gen != 0 && sc.gen == sc.s.gen && sc.dirs != nil {
			w.touched = sc.touched(dirty)
		}
		sc.s.gen++
		sc.made = sc.s.gen
		if sc.s.afterTake != nil {
			sc.s.afterTake()
		}
	}
	w.cond.L = &w.mu
	w.queue = append(w.queue, dirTask{"", true})
	workers := 4
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.work()
		}()
	}
	wg.Wait()
	if w.err != nil {
		if sc.s.watch != nil {
			sc.s.watch.fail() // what it took is lost
		}
		return nil, nil, w.err
	}
	return w.snap, w.dirs, nil
}

// touched is the directories a walk after the cache's must read: those
// of the paths the watcher saw change, and of the paths it cannot see —
// those the cache does not trust (racy), and files with other names
// (written through one, only its directory hears of it) — and all their
// parents.
func (sc *scanner) touched(dirty map[string]bool) map[string]bool {
	for k := range sc.s.links {
		dirty[k] = true
	}
	for k, e := range sc.cache {
		// A file without its content kept is read each time.
		if e.stat.racy || e.Kind == File && e.Blob == "" {
			dirty[k] = true
		}
	}
	touched := map[string]bool{"": true}
	for k := range dirty {
		if filepath.IsAbs(k) {
			continue
		}
		for ; k != "." && !touched[k]; k = path.Dir(k) {
			touched[k] = true
		}
	}
	return touched
}

// subtree is the cache's entries under the directory key, and its
// directories' keys (key's own among them); ok is false when the cache
// lacks one.
func (sc *scanner) subtree(key string, keys []string, ents []*Entry, dirs []string) ([]string, []*Entry, []string, bool) {
	kids, listed := sc.dirs[key]
	if !listed {
		return keys, ents, dirs, false
	}
	dirs = append(dirs, key)
	for _, k := range kids {
		e := sc.cache[k]
		if e == nil {
			return keys, ents, dirs, false
		}
		keys, ents = append(keys, k), append(ents, e)
		if e.Kind == Dir {
			var ok bool
			if keys, ents, dirs, ok = sc.subtree(k, keys, ents, dirs); !ok {
				return keys, ents, dirs, false
			}
		}
	}
	return keys, ents, dirs, true
}

type walker struct {
	sc     *scanner
	mu     sync.Mutex
	cond   sync.Cond
	queue  []dirTask
	active int // directories being read
	snap   Snapshot
	dirs   listing
	err    error
	// touched are the directories to read, nil for all; the others'
	// subtrees are the cache's.
	touched map[string]bool
}

// dirTask is a directory to scan; read: list it (else the cache's list).
type dirTask struct {
	key  string
	read bool
}

// work scans directories from the queue until there are none left and
// none being scanned (which could add more).
func (w *walker) work() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for {
		for len(w.queue) == 0 && w.active > 0 && w.err == nil {
			w.cond.Wait()
		}
		if len(w.queue) == 0 || w.err != nil {
			w.cond.Broadcast()
			return
		}
		t := w.queue[len(w.queue)-1]
		w.queue = w.queue[:len(w.queue)-1]
		w.active++
		w.mu.Unlock()
		kids, ents, subs, kept, err := w.dir(t)
		w.mu.Lock()
		w.active--
		if err != nil && w.err == nil {
			w.err = err
		}
		for i, k := range kids {
			w.snap[k] = ents[i]
		}
		w.dirs[t.key] = kids
		for i, k := range kept.keys {
			w.snap[k] = kept.ents[i]
		}
		for _, d := range kept.dirs {
			w.dirs[d] = w.sc.dirs[d]
		}
		w.queue = append(w.queue, subs...)
		w.cond.Broadcast()
	}
}

// kept are subtrees taken from the cache whole: their paths' keys and
// entries, and their directories.
type kept struct {
	keys []string
	ents []*Entry
	dirs []string
}

// dir scans the directory of t: its children's keys and entries, the
// directories among them to scan next, and the subtrees kept whole.
func (w *walker) dir(t dirTask) (kids []string, ents []*Entry, subs []dirTask, kp kept, err error) {
	sc := w.sc
	if wt := sc.s.watch; wt != nil && (w.touched == nil || t.read || !wt.watched(t.key)) {
		// Before it is read: a change from then on is heard of.
		wt.add(t.key, sc.s.abs(t.key))
	}
	// Children are looked up relative to their directory: fewer path
	// components for the kernel to resolve.
	dirfd, prefix := sc.rootfd, 0
	if t.key != "" {
		fd, closer, err := openDirAt(sc.rootfd, sc.s.Root, t.key)
		if err != nil {
			return nil, nil, nil, kp, nil // unreadable, or gone: left out
		}
		defer closer()
		dirfd, prefix = fd, len(t.key)+1
	}
	abs := sc.s.abs(t.key)
	names := sc.dirs[t.key]
	if t.read {
		names, err = readNames(dirfd, abs, t.key)
		if err != nil {
			if t.key == "" {
				return nil, nil, nil, kp, err
			}
			return nil, nil, nil, kp, nil // unreadable below: left out
		}
	}
	kids = make([]string, 0, len(names))
	ents = make([]*Entry, 0, len(names))
	for _, key := range names {
		m, st, err := lstatAt(dirfd, abs, key[prefix:])
		if err != nil {
			continue // gone since it was listed
		}
		if m.IsDir() && (skipDirs[path.Base(key)] || key == sc.baseKey) {
			continue
		}
		if sc.found.Add(1) > int64(sc.s.lim.MaxFiles) {
			return nil, nil, nil, kp, fmt.Errorf("%w: over %d files", ErrTooLarge, sc.s.lim.MaxFiles)
		}
		e, err := sc.entryOf(key, m, st)
		if err != nil {
			return nil, nil, nil, kp, err
		}
		if e == nil {
			continue
		}
		kids = append(kids, key)
		ents = append(ents, e)
		if e.Kind == Dir {
			_, listed := sc.dirs[key]
			if w.touched != nil && !w.touched[key] && listed && e == sc.cache[key] {
				var whole bool
				if kp, whole, err = w.keep(key, kp); err != nil {
					return nil, nil, nil, kp, err
				}
				if whole {
					continue
				}
			}
			subs = append(subs, dirTask{key, !listed || e != sc.cache[key]})
		}
	}
	return kids, ents, subs, kp, nil
}

// keep takes the cache's subtree under the directory key into kp;
// false when the cache lacks part of it (which is then read).
func (w *walker) keep(key string, kp kept) (kept, bool, error) {
	sc := w.sc
	n, nd := len(kp.keys), len(kp.dirs)
	var ok bool
	kp.keys, kp.ents, kp.dirs, ok = sc.subtree(key, kp.keys, kp.ents, kp.dirs)
	if !ok {
		kp.keys, kp.ents, kp.dirs = kp.keys[:n], kp.ents[:n], kp.dirs[:nd]
		return kp, false, nil
	}
	if sc.found.Add(int64(len(kp.keys)-n)) > int64(sc.s.lim.MaxFiles) {
		return kp, false, fmt.Errorf("%w: over %d files", ErrTooLarge, sc.s.lim.MaxFiles)
	}
	var size int64
	for _, e := range kp.ents[n:] {
		if e.Kind == File {
			size += e.Size
		}
	}
	return kp, true, sc.keep(size)
}

// readNames is the keys of the children of the directory key, open as
// dirfd (at abs).
func readNames(dirfd int, abs, key string) ([]string, error) {
	names, err := dirNames(dirfd, abs)
	if err != nil {
		return nil, err
	}
	if key != "" {
		for i, n := range names {
			names[i] = key + "/" + n
		}
	}
	return names, nil
}
