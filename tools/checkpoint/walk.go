package checkpoint

import (
	"fmt"
	"path"
	"sync"
)

// walk scans everything under the workspace but skipDirs and the store,
// directory by directory on a few goroutines. A directory whose entry
// the cache vouches for (its stat data did not move, and was not racy)
// holds the children it held then — adding, removing or renaming one
// changes its mtime — so it is not read again: its children are only
// stat'd, and those the cache vouches for are taken from it whole.
func (sc *scanner) walk() (Snapshot, listing, error) {
	w := &walker{sc: sc, snap: make(Snapshot, len(sc.cache)+64), dirs: make(listing, len(sc.dirs)+8)}
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
		return nil, nil, w.err
	}
	return w.snap, w.dirs, nil
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
		kids, ents, subs, err := w.dir(t)
		w.mu.Lock()
		w.active--
		if err != nil && w.err == nil {
			w.err = err
		}
		for i, k := range kids {
			w.snap[k] = ents[i]
		}
		w.dirs[t.key] = kids
		w.queue = append(w.queue, subs...)
		w.cond.Broadcast()
	}
}

// dir scans the directory of t: its children's keys and entries, and
// the directories among them to scan next.
func (w *walker) dir(t dirTask) (kids []string, ents []*Entry, subs []dirTask, err error) {
	sc := w.sc
	// Children are looked up relative to their directory: fewer path
	// components for the kernel to resolve.
	dirfd, prefix := sc.rootfd, 0
	if t.key != "" {
		fd, closer, err := openDirAt(sc.rootfd, sc.s.Root, t.key)
		if err != nil {
			return nil, nil, nil, nil // unreadable, or gone: left out
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
				return nil, nil, nil, err
			}
			return nil, nil, nil, nil // unreadable below: left out
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
			return nil, nil, nil, fmt.Errorf("%w: over %d files", ErrTooLarge, sc.s.lim.MaxFiles)
		}
		e, err := sc.entryOf(key, m, st)
		if err != nil {
			return nil, nil, nil, err
		}
		if e == nil {
			continue
		}
		kids = append(kids, key)
		ents = append(ents, e)
		if e.Kind == Dir {
			_, listed := sc.dirs[key]
			subs = append(subs, dirTask{key, !listed || e != sc.cache[key]})
		}
	}
	return kids, ents, subs, nil
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
