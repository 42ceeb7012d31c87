package capture

// Ring keeps the last Cap bytes written to it; older bytes are dropped.
// Memory grows with what is written, up to Cap, never beyond.
type Ring struct {
	buf   []byte
	start int   // index of the oldest byte once buf is full
	total int64 // bytes ever written
	max   int
}

// NewRing returns a ring that keeps the last size bytes (at least 1).
func NewRing(size int) *Ring {
	return &Ring{max: max(size, 1)}
}

// Write appends p, dropping the oldest bytes beyond the ring's size. It
// never fails.
func (r *Ring) Write(p []byte) (int, error) {
	n := len(p)
	r.total += int64(n)
	if len(p) >= r.max {
		// Only the tail of p survives; start over with it.
		r.grow(r.max)
		r.buf = append(r.buf[:0], p[len(p)-r.max:]...)
		r.start = 0
		return n, nil
	}
	if room := r.max - len(r.buf); room > 0 {
		k := min(room, len(p))
		r.grow(len(r.buf) + k)
		r.buf = append(r.buf, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 { // full: overwrite the oldest bytes in place
		k := copy(r.buf[r.start:], p)
		p = p[k:]
		r.start = (r.start + k) % len(r.buf)
	}
	return n, nil
}

// grow makes room for n bytes without ever allocating more than max, as
// append's doubling would.
func (r *Ring) grow(n int) {
	if n <= cap(r.buf) {
		return
	}
	c := min(max(n, 2*cap(r.buf), 512), r.max)
	buf := make([]byte, len(r.buf), c)
	copy(buf, r.buf)
	r.buf = buf
}

// Bytes returns a copy of the kept bytes, oldest first.
func (r *Ring) Bytes() []byte {
	out := make([]byte, 0, len(r.buf))
	out = append(out, r.buf[r.start:]...)
	return append(out, r.buf[:r.start]...)
}

// Len is the number of bytes kept.
func (r *Ring) Len() int { return len(r.buf) }

// Cap is the most bytes the ring keeps.
func (r *Ring) Cap() int { return r.max }

// Total is the number of bytes ever written.
func (r *Ring) Total() int64 { return r.total }

// Reset forgets everything written, keeping the memory.
func (r *Ring) Reset() {
	r.buf = r.buf[:0]
	r.start = 0
	r.total = 0
}
