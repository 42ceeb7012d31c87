package sandbox

import "testing"

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
