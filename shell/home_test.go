package shell

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"mvdan.cc/sh/v3/expand"
)

func TestPasswdHome(t *testing.T) {
	for _, tc := range []struct{ line, name, want string }{
		{"bob:x:1001:1001:Bob,,,:/home/bob:/bin/bash\n", "bob", "/home/bob"},
		{"bob:*:1001:1001::/net/home/bob:/usr/bin/qsh", "bob", "/net/home/bob"},
		{"alice:x:1002:1002::/home/alice:/bin/sh\n", "bob", ""}, // someone else
		{"bob:x:1001:1001::relative:/bin/sh\n", "bob", ""},      // not a path
		{"bob:x:1001\n", "bob", ""},                             // cut short
		{"", "bob", ""},
		{"bob:x:1:1::/home/bob:/bin/sh\nbob:x:2:2::/other:/bin/sh\n", "bob", "/home/bob"}, // first line only
	} {
		if got := passwdHome(tc.line, tc.name); got != tc.want {
			t.Errorf("passwdHome(%q, %q) = %q, want %q", tc.line, tc.name, got, tc.want)
		}
	}
}

// TestLookupHomeGetent: a user the password file does not list is asked of
// getent, with nothing that could pass for an option.
func TestLookupHomeGetent(t *testing.T) {
	bin := t.TempDir()
	getent := "#!/bin/sh\n[ \"$1\" = passwd ] && [ \"$2\" = ldapuser-qsh ] && echo 'ldapuser-qsh:*:5000:5000::/net/ldapuser:/bin/sh' && exit 0\nexit 2\n"
	if err := os.WriteFile(filepath.Join(bin, "getent"), []byte(getent), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	ctx := context.Background()
	for name, want := range map[string]string{
		"ldapuser-qsh": "/net/ldapuser", "nosuchuser-qsh": "", "-s": "", "a:b": "", "": "",
	} {
		if got := lookupHome(ctx, name); got != want {
			t.Errorf("lookupHome(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestUserHomes(t *testing.T) {
	asked := map[string]int{}
	env := newUserHomes(expand.ListEnviron("HOME=/home/me", "X=1"))
	env.lookup = func(_ context.Context, name string) string {
		asked[name]++
		if name == "bob" {
			return "/home/bob"
		}
		return ""
	}
	if v := env.Get("HOME bob"); !v.IsSet() || v.Str != "/home/bob" {
		t.Errorf("~bob: %+v", v)
	}
	if v := env.Get("HOME nobody-qsh"); v.IsSet() {
		t.Errorf("~nobody-qsh is set: %+v", v)
	}
	env.Get("HOME bob")
	env.Get("HOME nobody-qsh")
	if asked["bob"] != 1 || asked["nobody-qsh"] != 1 {
		t.Errorf("each user should be looked up once: %v", asked)
	}
	if v := env.Get("X"); v.Str != "1" {
		t.Errorf("X = %+v", v)
	}
	if v := env.Get("HOME"); v.Str != "/home/me" {
		t.Errorf("HOME = %+v", v)
	}
}
