package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tree makes files (name → content; a name ending in / is a directory, one
// with " -> " a link) under a new temp dir, resolved, and returns it.
func tree(t *testing.T, files ...string) string {
	t.Helper()
	return treeIn(t, t.TempDir(), files...)
}

// treeIn is tree under base.
func treeIn(t testing.TB, base string, files ...string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(base)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name, target, link := strings.Cut(f, " -> ")
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		switch {
		case link:
			err = os.Symlink(strings.ReplaceAll(target, "ROOT", root), p)
		case strings.HasSuffix(name, "/"):
			err = os.MkdirAll(p, 0o755)
		default:
			err = os.WriteFile(p, []byte("x\n"), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestCompute is the table of what a policy grants for a workspace and an
// environment. Paths are written relative to the test's tree; only the
// tree's part of the policy is compared (the machine's /tmp, /dev and
// /etc/shadow come on top).
func TestCompute(t *testing.T) {
	root := tree(t,
		"home/.ssh/id_rsa", "home/.aws/credentials", "home/.bashrc", "home/.env", "home/.netrc",
		"home/.cache/", "home/.npm/", "home/go/pkg/mod/", "home/.m2/repository/", "home/.m2/settings.xml",
		"home/.config/gcloud/creds.json", "home/.config/go/env",
		"home/code/.env.local", "home/code/proj/.git/", "home/code/proj/.env", "home/code/proj/sub/",
		"home/code/loose/", "home/dots/.git/", "home/.git/",
		"tmp/", "gocache/", "modcache/", "keys/id_ed25519", "elsewhere/.env", "elsewhere/proj/",
		"link/.ssh -> ROOT/keys",
	)
	home := filepath.Join(root, "home")
	base := []string{"HOME=" + home, "TMPDIR=" + filepath.Join(root, "tmp")}
	os.WriteFile(filepath.Join(home, ".config/go/env"), []byte("GOMODCACHE="+filepath.Join(root, "modcache")+"\n"), 0o644)
	tests := []struct {
		name    string
		mode    Mode
		dir     string // cwd, under root
		home    string // under root; "home" when empty
		env     []string
		write   []string // under root
		deny    []string // under root
		noteHas string
	}{
		{
			name:  "git root, caches, secrets, .env above",
			mode:  Workspace,
			dir:   "home/code/proj/sub",
			write: []string{"home/.cache", "home/.m2/repository", "home/.npm", "home/code/proj", "modcache", "tmp"},
			deny: []string{"home/.aws", "home/.config/gcloud", "home/.env", "home/.netrc", "home/.ssh",
				"home/code/.env.local"},
		},
		{
			name:  "no git (home's own does not count): the cwd; GOCACHE from the environment",
			mode:  Workspace,
			dir:   "home/code/loose",
			env:   []string{"GOCACHE=" + filepath.Join(root, "gocache")},
			write: []string{"gocache", "home/.cache", "home/.m2/repository", "home/.npm", "home/code/loose", "modcache", "tmp"},
			deny: []string{"home/.aws", "home/.config/gcloud", "home/.env", "home/.netrc", "home/.ssh",
				"home/code/.env.local"},
		},
		{
			name: "GOMODCACHE from the environment beats go's file; GOCACHE off",
			mode: Workspace,
			dir:  "home/code/loose",
			env: []string{"GOCACHE=off", "GOMODCACHE=" + filepath.Join(home, "go/pkg/mod"),
				"XDG_CACHE_HOME=" + filepath.Join(root, "gocache")},
			write: []string{"gocache", "home/.m2/repository", "home/.npm", "home/code/loose", "home/go/pkg/mod", "tmp"},
			deny: []string{"home/.aws", "home/.config/gcloud", "home/.env", "home/.netrc", "home/.ssh",
				"home/code/.env.local"},
		},
		{
			name:    "asked at home: home is not writable",
			mode:    Workspace,
			dir:     "home",
			write:   []string{"home/.cache", "home/.m2/repository", "home/.npm", "modcache", "tmp"},
			deny:    []string{"home/.aws", "home/.config/gcloud", "home/.netrc", "home/.ssh"},
			noteHas: "~ is not writable: it is your home directory",
		},
		{
			name:  "a repository of its own under home",
			mode:  Workspace,
			dir:   "home/dots",
			write: []string{"home/.cache", "home/.m2/repository", "home/.npm", "home/dots", "modcache", "tmp"},
			deny:  []string{"home/.aws", "home/.config/gcloud", "home/.env", "home/.netrc", "home/.ssh"},
		},
		{
			name:  "a workspace outside home: secret files above it are not looked for",
			mode:  Workspace,
			dir:   "elsewhere/proj",
			write: []string{"elsewhere/proj", "home/.cache", "home/.m2/repository", "home/.npm", "modcache", "tmp"},
			deny:  []string{"home/.aws", "home/.config/gcloud", "home/.env", "home/.netrc", "home/.ssh"},
		},
		{
			name:  "readonly: the temp dir only",
			mode:  ReadOnly,
			dir:   "home/code/proj",
			write: []string{"tmp"},
			deny: []string{"home/.aws", "home/.config/gcloud", "home/.env", "home/.netrc", "home/.ssh",
				"home/code/.env.local"},
		},
		{
			name:  "a secret directory that is a link: its target is denied",
			mode:  ReadOnly,
			dir:   "tmp",
			home:  "link",
			write: []string{"tmp"},
			deny:  []string{"keys"},
		},
		{
			name:    "a workspace that holds a secret is not writable",
			mode:    Workspace,
			dir:     "",
			home:    "link",
			write:   []string{"tmp"},
			deny:    []string{"keys"},
			noteHas: "holds your home directory",
		},
		{name: "off", mode: Off, dir: "home/code/proj"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := home
			if tc.home != "" {
				h = filepath.Join(root, tc.home)
			}
			env := append(append([]string{}, base...), tc.env...)
			p, notes := Compute(Settings{Mode: tc.mode, Net: NetOn}, Place{Dir: filepath.Join(root, tc.dir), Home: h, Environ: env})
			if got := inside(root, p.Write); !slices.Equal(got, tc.write) {
				t.Errorf("write:\n got %q\nwant %q", got, tc.write)
			}
			if got := inside(root, p.Deny); !slices.Equal(got, tc.deny) {
				t.Errorf("deny:\n got %q\nwant %q", got, tc.deny)
			}
			if tc.noteHas != "" && !strings.Contains(strings.Join(notes, "\n"), tc.noteHas) {
				t.Errorf("notes %q lack %q", notes, tc.noteHas)
			}
			if tc.mode == Off {
				if len(p.Write)+len(p.Deny) != 0 {
					t.Errorf("off grants %+v", p)
				}
				return
			}
			if !slices.Contains(p.Write, "/dev/null") {
				t.Errorf("/dev/null is not writable: %q", p.Write)
			}
			// The test's tree is under /tmp, with the home directory.
			if slices.Contains(p.Write, "/tmp") && strings.HasPrefix(root, "/tmp/") {
				t.Errorf("/tmp holds the home directory and is writable")
			}
		})
	}
}

// inside lists the paths under root, relative to it.
func inside(root string, paths []string) []string {
	var out []string
	for _, p := range paths {
		if rel, ok := strings.CutPrefix(p, root+"/"); ok {
			out = append(out, rel)
		}
	}
	return out
}

func TestAllows(t *testing.T) {
	p := Policy{Home: "/home/al", Write: []string{"/home/al/proj", "/tmp", "/dev/null"},
		Deny: []string{"/home/al/.ssh", "/home/al/.netrc", "/etc/shadow"}}
	for _, tc := range []struct {
		path  string
		write bool
		want  string // the refusal, "" for allowed
	}{
		{"/home/al/proj/main.go", true, ""},
		{"/home/al/proj", true, ""},
		{"/home/al/project", true, "sandbox: write to ~/project denied"},
		{"/home/al/.bashrc", true, "sandbox: write to ~/.bashrc denied"},
		{"/home/al/.bashrc", false, ""},
		{"/home/al/.ssh/id_rsa", false, "sandbox: access to ~/.ssh/id_rsa denied (it holds secrets)"},
		{"/home/al/.ssh", false, "sandbox: access to ~/.ssh denied (it holds secrets)"},
		{"/home/al/.sshx", false, ""},
		{"/home/al/.netrc", true, "sandbox: access to ~/.netrc denied (it holds secrets)"},
		{"/etc/shadow", false, "sandbox: access to /etc/shadow denied (it holds secrets)"},
		{"/etc/passwd", false, ""},
		{"/etc/passwd", true, "sandbox: write to /etc/passwd denied"},
		{"/tmp/x/y", true, ""},
		{"/dev/null", true, ""},
		{"/dev/nullx", true, "sandbox: write to /dev/nullx denied"},
	} {
		if got := p.Refusal(tc.path, tc.write); got != tc.want {
			t.Errorf("Refusal(%s, write %v) = %q, want %q", tc.path, tc.write, got, tc.want)
		}
		if got := p.Allows(tc.path, tc.write); got != (tc.want == "") {
			t.Errorf("Allows(%s, write %v) = %v", tc.path, tc.write, got)
		}
	}
}

func TestResolve(t *testing.T) {
	root := tree(t, "ws/", "home/.bashrc", "ws/rc -> ROOT/home/.bashrc", "ws/new -> ROOT/home/new",
		"ws/rel -> ../home/newer", "ws/homedir -> ROOT/home", "ws/loop -> ROOT/ws/loop",
		"home/.config/", "ws/cfg -> ROOT/home/.config", "ws/up -> cfg/../newest")
	ws := filepath.Join(root, "ws")
	for _, tc := range []struct{ in, want string }{
		{"a.txt", "ws/a.txt"},
		{"rc", "home/.bashrc"},
		{"new", "home/new"},          // a link to nothing yet: where a write lands
		{"rel", "home/newer"},        // relative to the link's directory
		{"homedir/x/y", "home/x/y"},  // a link in the middle
		{"../ws/./sub/../b", "ws/b"}, // cleaned
		{"loop", "ws/loop"},          // gives up, as the kernel does
		// .. after a link goes up from where the link leads, as in the
		// kernel, not back to the link's directory.
		{"cfg/../.bashrc", "home/.bashrc"},
		{"cfg/../x/y", "home/x/y"},
		{"cfg/..", "home"},
		{"up", "home/newest"}, // and in a link's target
		{"./cfg/./../.bashrc/", "home/.bashrc"},
		{root + "/home/.bashrc", "home/.bashrc"},
	} {
		if got := Resolve(ws, tc.in); got != filepath.Join(root, tc.want) {
			t.Errorf("Resolve(%q) = %s, want %s", tc.in, got, filepath.Join(root, tc.want))
		}
	}
}

func TestModeText(t *testing.T) {
	for in, want := range map[string]Mode{"workspace": Workspace, "ON": Workspace, "readonly": ReadOnly, "off": Off, " Off ": Off} {
		var m Mode
		if err := m.UnmarshalText([]byte(in)); err != nil || m != want {
			t.Errorf("%q: %v %v", in, m, err)
		}
	}
	var m Mode
	if err := m.UnmarshalText([]byte("strict")); err == nil {
		t.Errorf("strict accepted")
	}
	for in, want := range map[string]Net{"allowlist": AllowList, "off": NetOff, "ON": NetOn, "false": NetOff} {
		var n Net
		if err := n.UnmarshalText([]byte(in)); err != nil || n != want {
			t.Errorf("%q: %v %v", in, n, err)
		}
	}
	var n Net
	if err := n.UnmarshalText([]byte("maybe")); err == nil {
		t.Errorf("maybe accepted")
	}
}

// TestComputeCaches: the caches a jail overlays, those it makes in a
// toolchain's own directory, and those it gives a directory of its own
// through the variable that moves them, a directory before what it holds.
func TestComputeCaches(t *testing.T) {
	root := tree(t, "home/.cargo/bin/", "home/.npm/", "ws/.git/config", "bin/go", "bin/cargo", "bin/npm")
	for _, b := range []string{"go", "cargo", "npm"} {
		os.Chmod(filepath.Join(root, "bin", b), 0o755)
	}
	home := filepath.Join(root, "home")
	env := []string{"HOME=" + home, "PATH=" + filepath.Join(root, "bin")}
	p, _ := Compute(Settings{Mode: Workspace, Net: NetOff}, Place{Dir: filepath.Join(root, "ws"), Home: home, Environ: env})
	if got := inside(root, p.Caches); !slices.Equal(got, []string{"home/.cargo/git", "home/.cargo/registry", "home/.npm"}) {
		t.Errorf("caches: %q", got)
	}
	var vars []string
	for _, f := range p.Fresh {
		vars = append(vars, f.Var)
	}
	if !slices.Equal(vars, []string{"XDG_CACHE_HOME", "GOMODCACHE"}) {
		t.Errorf("fresh: %q", vars)
	}
	if p.Workspace != filepath.Join(root, "ws") || !slices.Contains(p.ReadOnly, filepath.Join(root, "ws/.git/config")) {
		t.Errorf("workspace %q, read-only %q", p.Workspace, p.ReadOnly)
	}
}
