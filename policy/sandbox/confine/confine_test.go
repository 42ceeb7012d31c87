package confine

import (
	"slices"
	"testing"
)

// The jail itself is tested through package sandbox, whose tests start
// jails with this package's Main.
func TestWanted(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"qsh", JailArg}, true},
		{[]string{"qsh", JailArg, "x"}, false},
		{[]string{"qsh", "-c", JailArg}, false},
		{[]string{"qsh"}, false},
		{nil, false},
	} {
		if got := Wanted(tc.args); got != tc.want {
			t.Errorf("Wanted(%q) = %v", tc.args, got)
		}
	}
}

func TestLaunchWanted(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		ok, netNS bool
	}{
		{[]string{"qsh", LaunchArg, "1"}, true, true},
		{[]string{"qsh", LaunchArg, "0"}, true, false},
		{[]string{"qsh", LaunchArg}, false, false},
		{[]string{"qsh", LaunchArg, "2"}, false, false},
		{[]string{"qsh", LaunchArg, "1", "x"}, false, false},
		{[]string{"qsh", JailArg, "1"}, false, false},
		{[]string{"qsh", "-c", LaunchArg}, false, false},
	} {
		if ok, netNS := launchWanted(tc.args); ok != tc.ok || netNS != tc.netNS {
			t.Errorf("launchWanted(%q) = %v, %v", tc.args, ok, netNS)
		}
	}
}

func TestMessage(t *testing.T) {
	var b []byte
	b = AppendMessage(b, "start", "", "ünïcode", string([]byte{0, 1, 2}))
	b = AppendMessage(b)
	b = AppendMessage(b, "x")
	var got [][]string
	for len(b) > 0 {
		m, n, ok := ParseMessage(b)
		if !ok || n == 0 {
			t.Fatalf("ParseMessage(%q) = %q, %d, %v", b, m, n, ok)
		}
		got = append(got, m)
		b = b[n:]
	}
	if len(got) != 3 || !slices.Equal(got[0], []string{"start", "", "ünïcode", "\x00\x01\x02"}) || len(got[1]) != 0 ||
		!slices.Equal(got[2], []string{"x"}) {
		t.Errorf("round trip: %q", got)
	}
	whole := AppendMessage(nil, "abc", "def")
	for i := range len(whole) {
		if m, n, ok := ParseMessage(whole[:i]); !ok || n != 0 || m != nil {
			t.Errorf("a message cut at %d: %q %d %v", i, m, n, ok)
		}
	}
	for _, bad := range [][]byte{{5, 0, 0, 0, 9, 0, 0, 0, 1}, {0xff, 0xff, 0xff, 0x7f}, {2, 0, 0, 0, 1, 0}} {
		if _, _, ok := ParseMessage(bad); ok {
			t.Errorf("ParseMessage(%v) accepted", bad)
		}
	}
}

func TestAtoi(t *testing.T) {
	for in, want := range map[string]int{"0": 0, "7": 7, "-12": -12, "123456789012": 123456789012} {
		if n, ok := Atoi(in); !ok || n != want {
			t.Errorf("Atoi(%q) = %d, %v", in, n, ok)
		}
		if s := Itoa(want); s != in {
			t.Errorf("Itoa(%d) = %q", want, s)
		}
	}
	for _, in := range []string{"", "-", "1x", "1234567890123456789", " 1"} {
		if _, ok := Atoi(in); ok {
			t.Errorf("Atoi(%q) accepted", in)
		}
	}
}
