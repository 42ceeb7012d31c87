package early

import "testing"

func TestWanted(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, tc := range []struct {
		args []string
		env  func(string) string
		want bool
	}{
		{[]string{"qsh"}, env(), true},
		{[]string{"-qsh"}, env(), true},
		{[]string{"qsh", "-l"}, env(), true},
		{[]string{"qsh", "-il"}, env(), true},
		{[]string{"qsh", "--login", "-i"}, env(), true},
		{[]string{"qsh", "--interactive"}, env(), true},
		{[]string{"qsh"}, env("QSH_CAPTURE", "on"), true},
		{[]string{"qsh"}, env("QSH_CAPTURE", "bogus"), true}, // the default stays on, as in the configuration
		{[]string{"qsh"}, env("QSH_CAPTURE", "off"), false},
		{[]string{"qsh"}, env("QSH_CAPTURE", "No"), false},
		{[]string{"qsh"}, env("QSH_CAPTURE_FD", "3"), false}, // an inner shell
		{[]string{}, env(), false},
		{[]string{"qsh", "-c", "true"}, env(), false},
		{[]string{"qsh", "-lc", "true"}, env(), false},
		{[]string{"qsh", "script.sh"}, env(), false},
		{[]string{"qsh", "-s"}, env(), false}, // left to main
		{[]string{"qsh", "-"}, env(), false},
		{[]string{"qsh", "--"}, env(), false},
		{[]string{"qsh", "--help"}, env(), false},
		{[]string{"qsh", "--version"}, env(), false},
		{[]string{"qsh", "--config"}, env(), false},
		{[]string{"qsh", "-l", "--classify"}, env(), false},
		{[]string{"qsh", ""}, env(), false},
	} {
		if got := wanted(tc.args, tc.env); got != tc.want {
			t.Errorf("wanted(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

func TestInnerOnce(t *testing.T) {
	// The test binary's arguments are not an interactive qsh's: init
	// started nothing.
	if in := Inner(); in != nil {
		t.Fatalf("Inner() = %+v in a test binary", in)
	}
}
