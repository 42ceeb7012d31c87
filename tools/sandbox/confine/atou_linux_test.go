package confine

import "testing"

func TestAtou(t *testing.T) {
	for in, want := range map[string]uint32{"0": 0, "7": 7, "123456789": 123456789} {
		if n, ok := atou(in); !ok || n != want {
			t.Errorf("atou(%q) = %d, %v", in, n, ok)
		}
	}
	for _, in := range []string{"", "-1", "1x", "1234567890"} {
		if _, ok := atou(in); ok {
			t.Errorf("atou(%q) accepted", in)
		}
	}
}
