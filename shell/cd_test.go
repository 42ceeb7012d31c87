package shell

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolveDir(t *testing.T) {
	t.Parallel()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"real/sub", "cdp/foo", "cdp/real"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "real"), filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "file"), nil, 0o644)
	tests := []struct {
		cwd, dir, cdpath string
		physical         bool
		want             string // "" means an error
		viaCDPath        bool
	}{
		{root, "link/sub", "", false, root + "/link/sub", false},
		{root + "/link/sub", "..", "", false, root + "/link", false},
		{root + "/link/sub", "..", "", true, root + "/real", false},
		{root, "link", "", true, root + "/real", false},
		{root, "/" + root[1:] + "//real/./sub/", "", false, root + "/real/sub", false},
		{root, "nope/..", "", false, "", false},
		{root, "file", "", false, "", false},
		{root, "missing", "", false, "", false},
		{root, "foo", root + "/cdp", false, root + "/cdp/foo", true},
		{root, "real", root + "/cdp", false, root + "/cdp/real", true},
		{root, "real", ":" + root + "/cdp", false, root + "/real", false},
		{root, "./real", root + "/cdp", false, root + "/real", false},
		{root, "sub", "nowhere:" + root + "/real", false, root + "/real/sub", true},
	}
	for _, tt := range tests {
		got, via, err := resolveDir(tt.cwd, tt.dir, tt.cdpath, tt.physical)
		if tt.want == "" {
			if err == nil {
				t.Errorf("resolveDir(%q, %q) = %q; want an error", tt.cwd, tt.dir, got)
			}
			continue
		}
		if err != nil || got != tt.want || via != tt.viaCDPath {
			t.Errorf("resolveDir(%q, %q, %q, %v) = %q, %v, %v; want %q, %v", tt.cwd, tt.dir, tt.cdpath, tt.physical, got, via, err, tt.want, tt.viaCDPath)
		}
	}
	if err := isDir(filepath.Join(root, "file")); err == nil || err.Error() != "Not a directory" {
		t.Errorf("isDir(file) = %v", err)
	}
}

// TestCdMovesTheProcess checks cd end to end: what it prints, $PWD and
// $OLDPWD, pwd, and that the process's own cwd follows (see syncDir).
func TestCdMovesTheProcess(t *testing.T) {
	s, _, out := newTestShell(t, nil)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(root, "real", "sub"), 0o755)
	os.Symlink(filepath.Join(root, "real"), filepath.Join(root, "link"))
	s.RunString(t.Context(), `
cd `+root+`/link/sub && echo "PWD=$PWD"
cd .. && pwd && pwd -P
cd - && echo "OLDPWD=$OLDPWD"
env 2>/dev/null | grep -c '^OLDPWD=' 2>/dev/null # stderr to a file: no copying goroutine to race on out
PWD=lie; pwd
CDPATH=`+root+`; cd real; echo status=$?
cd -P `+root+`/link; echo "PWD=$PWD"
cd nowhere; echo status=$?
cd a b; echo status=$?
unset OLDPWD; cd -; echo status=$?
builtin cd /; pwd
cd `+root+`/real
`)
	want := strings.ReplaceAll(`PWD=R/link/sub
R/link
R/real
R/link/sub
OLDPWD=R/link
1
R/link/sub
R/real
status=0
PWD=R/real
qsh: cd: nowhere: No such file or directory
status=1
qsh: cd: too many arguments
status=1
qsh: cd: OLDPWD not set
status=1
/
`, "R", root)
	if got := out.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
	if wd, _ := os.Getwd(); wd != root+"/real" {
		t.Errorf("process cwd %q; want %q", wd, root+"/real")
	}
	if s.Dir() != root+"/real" {
		t.Errorf("Dir() = %q", s.Dir())
	}
}
