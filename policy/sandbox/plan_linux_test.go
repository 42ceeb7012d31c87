package sandbox

import (
	"reflect"
	"slices"
	"testing"

	"github.com/qsh-shell/qsh/policy/sandbox/confine"
)

func TestOverlayPath(t *testing.T) {
	for in, want := range map[string]string{
		"/home/u/.cache":  "/home/u/.cache",
		`/a,b:c\d`:        `/a\,b\:c\\d`,
		"/ü,/x":           `/ü\,/x`,
		"":                "",
		`\\`:              `\\\\`,
		"/tmp/a:b/c,d/e:": `/tmp/a\:b/c\,d/e\:`,
	} {
		if got := overlayPath(in); got != want {
			t.Errorf("overlayPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestClonePolicy checks that a jail's policy, kept to compare the next
// ones with, shares no slice with the caller's: one changed in place
// would otherwise hand it a jail made for another policy.
func TestClonePolicy(t *testing.T) {
	var p Policy
	v := reflect.ValueOf(&p).Elem()
	fill := func(f reflect.Value, s string) {
		switch f.Kind() {
		case reflect.String:
			f.SetString(s)
		case reflect.Struct:
			for i := range f.NumField() {
				if f.Field(i).Kind() == reflect.String {
					f.Field(i).SetString(s)
				}
			}
		}
	}
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.Slice {
			f.Set(reflect.MakeSlice(f.Type(), 1, 1))
			fill(f.Index(0), "before")
		}
	}
	c := clonePolicy(p)
	if !reflect.DeepEqual(p, c) {
		t.Fatalf("the copy differs: %#v", c)
	}
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.Slice {
			fill(f.Index(0), "after")
			if reflect.DeepEqual(p, c) {
				t.Errorf("%s is shared", v.Type().Field(i).Name)
			}
			fill(f.Index(0), "before")
		}
	}
}

// TestBeyond checks which rules of a ruleset a jail adds to the one it
// prebuilt: none of the prebuilt's again but those on a place the plan
// mounts over; and that a prebuilt ruleset with a rule the policy's lacks,
// or other rights handled, is not used.
func TestBeyond(t *testing.T) {
	rule := func(path string, access uint64) confine.PathRule { return confine.PathRule{Path: path, Access: access} }
	pre := confine.Ruleset{HandledFS: 7, Paths: []confine.PathRule{rule("/etc/passwd", 1), rule("/etc/ssl/certs", 3),
		rule("/etc/x", 3)}}
	full := confine.Ruleset{HandledFS: 7, Paths: []confine.PathRule{rule("/", 2), rule("/etc/passwd", 1),
		rule("/etc/ssl/certs", 3), rule("/etc/x", 3), rule("/home/al/src", 7)}}
	mountX := []step{{kind: confine.StepMount, args: []string{"tmpfs", "/etc/x", "tmpfs", "0", ""}}}
	paths := func(r confine.Ruleset) (out []string) {
		for _, p := range r.Paths {
			out = append(out, p.Path)
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		r     confine.Ruleset
		pre   *confine.Ruleset
		steps []step
		ok    bool
		more  []string
	}{
		{"none prebuilt", full, nil, nil, false, nil},
		{"all prebuilt used", full, &pre, nil, true, []string{"/", "/home/al/src"}},
		{"a mount over one", full, &pre, mountX, true, []string{"/", "/etc/x", "/home/al/src"}},
		{"a rule the policy lacks", confine.Ruleset{HandledFS: 7, Paths: full.Paths[:3]}, &pre, nil, false, nil},
		{"other rights on a path", confine.Ruleset{HandledFS: 7, Paths: append(slices.Clone(full.Paths[:3]),
			rule("/etc/x", 1))}, &pre, nil, false, nil},
		{"other rights handled", confine.Ruleset{HandledFS: 7, HandledNet: 3, Paths: full.Paths}, &pre, nil, false, nil},
	} {
		more, ok := beyond(tc.r, tc.pre, tc.steps)
		if ok != tc.ok || ok && !slices.Equal(paths(more), tc.more) {
			t.Errorf("%s: %v %q, want %v %q", tc.name, ok, paths(more), tc.ok, tc.more)
		}
		if !ok && !slices.Equal(paths(more), paths(tc.r)) {
			t.Errorf("%s: not used, yet the rules are %q", tc.name, paths(more))
		}
	}
}
