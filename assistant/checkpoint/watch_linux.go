package checkpoint

import (
	"runtime"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A watcher is told by the kernel (inotify) which paths of a walked
// workspace changed, so that a walk stats only those and takes the rest
// from its cache. The kernel queues an event before the system call that
// made the change returns, so the events read at the start of a walk
// cover every change made before it; one made during the walk is read at
// the next. What it cannot vouch for makes the next walk a whole one:
// the start, a queue that overflowed, a directory renamed (its watched
// subtree changed keys), a watch the kernel refused.
type watcher struct {
	mu    sync.Mutex
	fd    int
	wds   map[int32]string // watch → its directory's key
	keys  map[string]int32 // and back
	dirty map[string]bool  // keys changed since the last walk took them
	// names: a name was made, removed or moved since (git may list
	// other files).
	names bool
	// whole: the next walk must be whole (nothing vouched for).
	whole bool
	// closed: the watcher gave up (no inotify, or its watches' limit).
	closed bool
	buf    []byte
}

// watchMask is what a directory's watch reports: its children's
// content, attributes, names, and its own.
const watchMask = unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CLOSE_WRITE | unix.IN_CREATE | unix.IN_DELETE |
	unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF |
	unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW | unix.IN_EXCL_UNLINK

// localFS are the file systems whose every change the kernel sees: on
// a network's or FUSE's, another machine's or a daemon's go unheard.
var localFS = map[int64]bool{
	unix.EXT4_SUPER_MAGIC: true, unix.XFS_SUPER_MAGIC: true, unix.BTRFS_SUPER_MAGIC: true,
	unix.TMPFS_MAGIC: true, unix.OVERLAYFS_SUPER_MAGIC: true, unix.F2FS_SUPER_MAGIC: true,
}

// newWatcher is a watcher of the workspace root, nil when the kernel
// gives none or cannot see every change there.
func newWatcher(root string) *watcher {
	var fs unix.Statfs_t
	if unix.Statfs(root, &fs) != nil || !localFS[int64(fs.Type)] {
		return nil
	}
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil
	}
	w := &watcher{fd: fd, wds: map[int32]string{}, keys: map[string]int32{}, dirty: map[string]bool{},
		whole: true, buf: make([]byte, 64<<10)}
	// A store has no Close: the descriptor goes with the watcher.
	runtime.AddCleanup(w, func(fd int) { unix.Close(fd) }, fd)
	return w
}

// take reads the events queued so far and returns the keys changed
// since the last take, or nil when the walk must be whole, and whether
// a name was made, removed or moved; it starts a new period either way.
func (w *watcher) take() (map[string]bool, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil, true
	}
	w.read()
	dirty, whole, names := w.dirty, w.whole, w.names
	w.dirty, w.whole, w.names = map[string]bool{}, false, false
	if whole {
		// What a whole walk finds it watches afresh.
		for wd := range w.wds {
			unix.InotifyRmWatch(w.fd, uint32(wd))
		}
		w.wds, w.keys = map[int32]string{}, map[string]int32{}
		return nil, true
	}
	return dirty, names
}

// live reports whether the watcher has not given up.
func (w *watcher) live() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return !w.closed
}

// fail makes the next walk whole: this one could not watch all it saw.
func (w *watcher) fail() {
	w.mu.Lock()
	w.whole = true
	w.mu.Unlock()
}

// watched reports whether the directory key is watched.
func (w *watcher) watched(key string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, ok := w.keys[key]
	return ok
}

// add watches the directory key at abs, before the walk reads it: a
// change after the read is then reported.
func (w *watcher) add(key, abs string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	wd, err := unix.InotifyAddWatch(w.fd, abs, watchMask)
	if err == unix.EACCES {
		// Unreadable: the walk leaves it out too, and its parent hears
		// of a chmod that changes that.
		return
	}
	if err != nil {
		w.whole = true
		if err == unix.ENOSPC {
			// The user's limit of watches: walk whole from now on, and
			// leave the watches to others.
			w.closed = true
			for wd := range w.wds {
				unix.InotifyRmWatch(w.fd, uint32(wd))
			}
			w.wds, w.keys = nil, nil
		}
		return
	}
	if old, ok := w.wds[int32(wd)]; ok && old != key {
		delete(w.keys, old) // the same directory under a new name
	}
	w.wds[int32(wd)] = key
	w.keys[key] = int32(wd)
}

// read takes the queued events into dirty; w.mu is held.
func (w *watcher) read() {
	for {
		n, err := unix.Read(w.fd, w.buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			if err != unix.EAGAIN {
				w.whole = true
			}
			return
		}
		w.events(w.buf[:n])
	}
}

// events takes a buffer of events into dirty.
func (w *watcher) events(b []byte) {
	for len(b) >= unix.SizeofInotifyEvent {
		ev := (*unix.InotifyEvent)(unsafe.Pointer(&b[0]))
		end := unix.SizeofInotifyEvent + int(ev.Len)
		if end > len(b) {
			w.whole = true
			return
		}
		name := b[unix.SizeofInotifyEvent:end]
		for len(name) > 0 && name[len(name)-1] == 0 {
			name = name[:len(name)-1]
		}
		b = b[end:]
		if ev.Mask&unix.IN_Q_OVERFLOW != 0 {
			w.whole = true
			continue
		}
		dir, ok := w.wds[ev.Wd]
		if !ok {
			continue // a watch removed since
		}
		if ev.Mask&unix.IN_IGNORED != 0 {
			delete(w.wds, ev.Wd)
			if w.keys[dir] == ev.Wd {
				delete(w.keys, dir)
			}
			w.dirty[dir] = true
			continue
		}
		if ev.Mask&(unix.IN_MOVE_SELF) != 0 ||
			ev.Mask&unix.IN_ISDIR != 0 && ev.Mask&(unix.IN_MOVED_FROM|unix.IN_MOVED_TO) != 0 {
			// Watches below keep their old keys.
			w.whole = true
		}
		if ev.Mask&(unix.IN_CREATE|unix.IN_DELETE|unix.IN_MOVED_FROM|unix.IN_MOVED_TO) != 0 {
			w.names = true
		}
		key := dir
		if len(name) > 0 {
			if dir == "" {
				key = string(name)
			} else {
				key = dir + "/" + string(name)
			}
		}
		w.dirty[key] = true
	}
}
