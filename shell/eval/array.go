package eval

import "slices"

// indexed is a bash indexed array: sparse, its elements in ascending order of
// index. Arrays are mostly dense and appended to, which both stay cheap.
type indexed struct {
	keys []int // ascending
	vals []string
}

func (a *indexed) find(i int) (int, bool) {
	if i >= 0 && i < len(a.keys) && a.keys[i] == i {
		return i, true // dense
	}
	return slices.BinarySearch(a.keys, i)
}

func (a *indexed) get(i int) (string, bool) {
	if k, ok := a.find(i); ok {
		return a.vals[k], true
	}
	return "", false
}

func (a *indexed) set(i int, v string) {
	if n := len(a.keys); n == 0 || a.keys[n-1] < i {
		a.keys = append(a.keys, i)
		a.vals = append(a.vals, v)
		return
	}
	k, ok := a.find(i)
	if ok {
		a.vals[k] = v
		return
	}
	a.keys = slices.Insert(a.keys, k, i)
	a.vals = slices.Insert(a.vals, k, v)
}

func (a *indexed) unset(i int) {
	if k, ok := a.find(i); ok {
		a.keys = slices.Delete(a.keys, k, k+1)
		a.vals = slices.Delete(a.vals, k, k+1)
	}
}

func (a *indexed) len() int { return len(a.keys) }

// max is the highest index, -1 when empty.
func (a *indexed) max() int {
	if len(a.keys) == 0 {
		return -1
	}
	return a.keys[len(a.keys)-1]
}

func (a *indexed) append(v string) { a.set(a.max()+1, v) }

func (a *indexed) clone() *indexed {
	return &indexed{keys: slices.Clone(a.keys), vals: slices.Clone(a.vals)}
}

// assoc is a bash associative array. Bash lists the keys in the order of its
// hash table — FNV-1 hashes into 1024 buckets to start, four times as many
// when the entries reach twice the buckets, each bucket newest first — and
// scripts print them in that order, so qsh keeps the same table beside a
// map for lookups.
type assoc struct {
	vals    map[string]string
	buckets [][]string // each bucket oldest first
}

const assocBuckets = 1024

func newAssoc() *assoc { return &assoc{vals: map[string]string{}} }

func fnv1(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h *= 16777619
		h ^= uint32(s[i])
	}
	return h
}

func (m *assoc) get(k string) (string, bool) {
	v, ok := m.vals[k]
	return v, ok
}

func (m *assoc) set(k, v string) {
	if _, ok := m.vals[k]; ok {
		m.vals[k] = v
		return
	}
	if len(m.buckets) == 0 {
		m.buckets = make([][]string, assocBuckets)
	}
	if len(m.vals) >= 2*len(m.buckets) {
		m.grow()
	}
	m.vals[k] = v
	b := fnv1(k) & uint32(len(m.buckets)-1)
	m.buckets[b] = append(m.buckets[b], k)
}

// grow rehashes as bash does: old buckets in order, each from its head
// (newest), every key pushed onto the head of its new bucket.
func (m *assoc) grow() {
	nb := make([][]string, 4*len(m.buckets))
	mask := uint32(len(nb) - 1)
	for _, b := range m.buckets {
		for i := len(b) - 1; i >= 0; i-- {
			k := b[i]
			j := fnv1(k) & mask
			nb[j] = append(nb[j], k)
		}
	}
	m.buckets = nb
}

func (m *assoc) unset(k string) {
	if _, ok := m.vals[k]; !ok {
		return
	}
	delete(m.vals, k)
	b := fnv1(k) & uint32(len(m.buckets)-1)
	if i := slices.Index(m.buckets[b], k); i >= 0 {
		m.buckets[b] = slices.Delete(m.buckets[b], i, i+1)
	}
}

func (m *assoc) len() int { return len(m.vals) }

// keys are in bash's order.
func (m *assoc) keys() []string {
	ks := make([]string, 0, len(m.vals))
	for _, b := range m.buckets {
		for i := len(b) - 1; i >= 0; i-- {
			ks = append(ks, b[i])
		}
	}
	return ks
}

func (m *assoc) clone() *assoc {
	c := &assoc{vals: make(map[string]string, len(m.vals)), buckets: make([][]string, len(m.buckets))}
	for k, v := range m.vals {
		c.vals[k] = v
	}
	for i, b := range m.buckets {
		if len(b) > 0 {
			c.buckets[i] = slices.Clone(b)
		}
	}
	return c
}
