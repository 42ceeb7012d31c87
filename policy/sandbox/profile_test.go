package sandbox

import "testing"

// The profile is only run on macOS; its text is checked everywhere.
func TestProfile(t *testing.T) {
	p := Policy{Mode: Workspace, Write: []string{"/Users/al/proj", "/private/tmp", "/dev/null"},
		Deny: []string{"/Users/al/.ssh", `/Users/al/odd "name"`}}
	want := `(version 1)
(allow default)
(deny file-write*)
(allow file-write* (subpath "/Users/al/proj"))
(allow file-write* (subpath "/private/tmp"))
(allow file-write* (subpath "/dev/null"))
(deny file-read* file-write* (subpath "/Users/al/.ssh"))
(deny file-read* file-write* (subpath "/Users/al/odd \"name\""))
(deny network-outbound (remote tcp))
(deny network-bind (local tcp))
`
	if got := profile(p); got != want {
		t.Errorf("profile:\n%s\nwant:\n%s", got, want)
	}
}
