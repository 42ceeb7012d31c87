package sandbox

import (
	"reflect"
	"testing"
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
