package confine

import "testing"

// The confined start itself is tested through package sandbox, whose
// tests start programs with this package's Main.
func TestWanted(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"qsh", Arg, "0", "/bin/true", "true"}, true},
		{[]string{"qsh", Arg, "0", "/bin/ls", "ls", "-l"}, true},
		{[]string{"qsh", Arg, "0", "/bin/true"}, false},
		{[]string{"qsh", "-c", Arg, "0", "x"}, false},
		{[]string{"qsh"}, false},
		{nil, false},
	} {
		if got := Wanted(tc.args); got != tc.want {
			t.Errorf("Wanted(%q) = %v", tc.args, got)
		}
	}
}
