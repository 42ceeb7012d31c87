package capture

import (
	"bytes"
	"strings"
	"testing"
)

func TestRingKeepsTail(t *testing.T) {
	t.Parallel()
	tests := []struct {
		size   int
		writes []string
		want   string
	}{
		{4, nil, ""},
		{4, []string{"ab"}, "ab"},
		{4, []string{"abcd"}, "abcd"},
		{4, []string{"abcdef"}, "cdef"},
		{4, []string{"ab", "cd", "ef"}, "cdef"},
		{4, []string{"abc", "defgh", "i"}, "fghi"},
		{4, []string{"a", "b", "c", "d", "e", "f", "g"}, "defg"},
		{3, []string{"ab", "cdefgh", "ij"}, "hij"},
		{1, []string{"xyz", "w"}, "w"},
	}
	for _, tc := range tests {
		r := NewRing(tc.size)
		var total int64
		for _, w := range tc.writes {
			n, err := r.Write([]byte(w))
			if n != len(w) || err != nil {
				t.Fatalf("Write(%q) = %d, %v", w, n, err)
			}
			total += int64(len(w))
		}
		if got := string(r.Bytes()); got != tc.want {
			t.Errorf("size %d, writes %q: kept %q, want %q", tc.size, tc.writes, got, tc.want)
		}
		if r.Total() != total || r.Len() != len(tc.want) {
			t.Errorf("writes %q: Total %d Len %d, want %d %d", tc.writes, r.Total(), r.Len(), total, len(tc.want))
		}
	}
}

// TestRingBounded writes 50 MB in uneven chunks and checks that the ring
// never holds, or allocates, more than its size.
func TestRingBounded(t *testing.T) {
	t.Parallel()
	const size = 16 << 10
	r := NewRing(size)
	chunk := bytes.Repeat([]byte("0123456789abcdef"), 4097) // not a divisor of size
	var written int
	for i := 0; written < 50<<20; i++ {
		p := chunk[:1+(i*7919)%len(chunk)]
		r.Write(p)
		written += len(p)
		if cap(r.buf) > size {
			t.Fatalf("after %d bytes the ring holds %d bytes of memory, want ≤ %d", written, cap(r.buf), size)
		}
	}
	r.Write([]byte("THE END"))
	got := string(r.Bytes())
	if len(got) != size || !strings.HasSuffix(got, "THE END") {
		t.Fatalf("kept %d bytes ending %q", len(got), got[len(got)-10:])
	}
	if r.Total() != int64(written+7) {
		t.Fatalf("Total = %d, want %d", r.Total(), written+7)
	}
}

func TestRingMatchesNaive(t *testing.T) {
	t.Parallel()
	for _, size := range []int{1, 7, 64, 1000} {
		r := NewRing(size)
		var all []byte
		for i := range 500 {
			p := bytes.Repeat([]byte{byte('a' + i%26)}, (i*31)%(2*size+3))
			r.Write(p)
			all = append(all, p...)
			want := all[max(0, len(all)-size):]
			if got := r.Bytes(); !bytes.Equal(got, want) {
				t.Fatalf("size %d after write %d: kept %q, want %q", size, i, got, want)
			}
		}
	}
}
