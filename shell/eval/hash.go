package eval

import (
	"maps"
	"slices"
	"sync/atomic"
)

// hashTable remembers where commands were found, as bash's hash.
type hashTable struct {
	m      map[string]hashEntry
	seq    int // insertions so far, for the order hash lists them in
	shared atomic.Bool
}

type hashEntry struct {
	path string
	hits int
	seq  int
}

func newHashTable() *hashTable { return &hashTable{m: map[string]hashEntry{}} }

func (h *hashTable) writable() map[string]hashEntry {
	if h.shared.Load() {
		h.m = maps.Clone(h.m)
		h.shared.Store(false)
	}
	return h.m
}

func (h *hashTable) fork() *hashTable {
	h.shared.Store(true)
	c := &hashTable{m: h.m, seq: h.seq}
	c.shared.Store(true)
	return c
}

// get is where name was found, counted as a hit as bash counts every
// look-up (running it, type, hash -t).
func (h *hashTable) get(name string) (string, bool) {
	e, ok := h.m[name]
	if ok {
		e.hits++
		h.writable()[name] = e
	}
	return e.path, ok
}

func (h *hashTable) put(name, path string) { h.putHits(name, path, 0) }
func (h *hashTable) putHits(name, path string, hits int) {
	e, ok := h.m[name]
	if !ok {
		h.seq++
		e.seq = h.seq
	}
	e.path, e.hits = path, hits
	h.writable()[name] = e
}
func (h *hashTable) remove(name string) { delete(h.writable(), name) }
func (h *hashTable) clear() {
	h.m = map[string]hashEntry{}
	h.shared.Store(false)
}

// names are the names in the order bash lists its table: by bucket of
// its string hash (FNV-1, 256 buckets), the latest insertion first within
// a bucket.
func (h *hashTable) names() []string {
	names := slices.Collect(maps.Keys(h.m))
	slices.SortFunc(names, func(a, b string) int {
		if ba, bb := hashBucket(a), hashBucket(b); ba != bb {
			return int(ba) - int(bb)
		}
		return h.m[b].seq - h.m[a].seq
	})
	return names
}

func hashBucket(s string) uint32 {
	i := uint32(2166136261)
	for k := 0; k < len(s); k++ {
		i *= 16777619
		i ^= uint32(s[k])
	}
	return i & 255
}
