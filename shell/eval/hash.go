package eval

import (
	"maps"
	"slices"
	"sync/atomic"
)

// hashTable remembers where commands were found, as bash's hash.
type hashTable struct {
	m      map[string]hashEntry
	shared atomic.Bool
}

type hashEntry struct {
	path string
	hits int
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
	c := &hashTable{m: h.m}
	c.shared.Store(true)
	return c
}

func (h *hashTable) get(name string) (string, bool) {
	e, ok := h.m[name]
	if ok {
		e.hits++
		h.writable()[name] = e
	}
	return e.path, ok
}

func (h *hashTable) put(name, path string) { h.writable()[name] = hashEntry{path: path} }
func (h *hashTable) putHits(name, path string, hits int) {
	h.writable()[name] = hashEntry{path: path, hits: hits}
}
func (h *hashTable) remove(name string) { delete(h.writable(), name) }
func (h *hashTable) clear() {
	h.m = map[string]hashEntry{}
	h.shared.Store(false)
}
func (h *hashTable) names() []string { return slices.Sorted(maps.Keys(h.m)) }
