package sandbox

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/qsh-shell/qsh/tools/danger/secret"
)

// Place is where a command runs, all the policy depends on.
type Place struct {
	Dir     string   // the shell's cwd when the question was asked
	Home    string   // the user's home directory
	Environ []string // the session's exported variables, NAME=value
}

// getenv looks name up in the place's environment; the last one wins, as
// in exec.
func (pl Place) getenv(name string) string {
	v := ""
	for _, kv := range pl.Environ {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val
		}
	}
	return v
}

// devices are the files under /dev that programs write to as a matter of
// course: the bit bucket, terminals, POSIX shared memory.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx", "/dev/pts", "/dev/shm"}

// Compute is the policy for mode at pl: in workspace mode writes go to the
// workspace ([Root]), the temp dirs and the toolchains' caches; in readonly
// mode to the temp dirs only; in both, secrets cannot be read. A place
// that would hold the home directory or a secret is not granted (the
// home directory itself is never writable), nor is one that does not
// exist: notes says which and why, for people.
func Compute(mode Mode, net bool, pl Place) (p Policy, notes []string) {
	p = Policy{Mode: mode, Net: net}
	if mode == Off {
		return p, nil
	}
	home := ""
	if pl.Home != "" {
		home = Resolve("/", pl.Home)
	}
	p.Home = home
	ws := Root(Resolve("/", pl.Dir), home)
	for _, s := range (secret.Places{Home: home, Getenv: pl.getenv}).Fixed() {
		if _, err := os.Lstat(s); err == nil {
			p.Deny = append(p.Deny, Resolve("/", s))
		}
	}
	p.Deny = append(p.Deny, dotenvs(ws, home)...)
	p.Deny = roots(p.Deny)

	var want []string
	if mode == Workspace {
		want = append(want, ws)
	}
	want = append(want, temps(pl.getenv)...)
	if mode == Workspace {
		want = append(want, caches(home, pl.getenv)...)
	}
	for _, w := range want {
		r := Resolve("/", w)
		if _, err := os.Stat(r); err != nil {
			continue // a cache the toolchain has not made; nothing to grant
		}
		if why := ungrantable(r, home, p.Deny); why != "" {
			if n := p.Show(r) + " is not writable: " + why; !slices.Contains(notes, n) {
				notes = append(notes, n)
			}
			continue
		}
		p.Write = append(p.Write, r)
	}
	for _, d := range devices {
		if _, err := os.Stat(d); err == nil {
			p.Write = append(p.Write, d)
		}
	}
	p.Write = roots(p.Write)
	return p, notes
}

// ungrantable says why writes cannot be granted at dir, or "".
func ungrantable(dir, home string, deny []string) string {
	if home != "" && Under(home, dir) {
		if dir == home {
			return "it is your home directory (ask from a project directory)"
		}
		return "it holds your home directory"
	}
	for _, d := range deny {
		if Under(d, dir) || Under(dir, d) {
			return "it holds secrets (" + d + ")"
		}
	}
	return ""
}

// Root is the workspace of a question asked in dir: the root of the git
// repository dir is in, else dir. A repository at home or above (a home
// directory kept in git) does not count.
func Root(dir, home string) string {
	for d := dir; d != "/" && d != home; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return dir
}

// temps are the temp dirs: $TMPDIR and /tmp.
func temps(getenv func(string) string) []string {
	out := []string{"/tmp"}
	if t := getenv("TMPDIR"); filepath.IsAbs(t) {
		out = append(out, t)
	}
	return out
}

// caches are where the toolchains keep what they download and build, as
// the environment names them, else their defaults. Go's come from the
// variables and go's own configuration file, as `go env` would say, without
// running go. Maven's and Gradle's settings files hold credentials: only
// their caches are listed.
func caches(home string, getenv func(string) string) []string {
	if home == "" {
		return nil
	}
	or := func(v, def string) string {
		if filepath.IsAbs(v) {
			return v
		}
		return def
	}
	cache := or(getenv("XDG_CACHE_HOME"), filepath.Join(home, ".cache"))
	var out []string
	if runtime.GOOS == "darwin" {
		// os.UserCacheDir there, where go and pip keep theirs.
		out = append(out, cache)
		cache = filepath.Join(home, "Library", "Caches")
	}
	goenv := goEnvFile(home, getenv)
	gov := func(k string) string {
		if v := getenv(k); v != "" {
			return v
		}
		return goenv[k]
	}
	if c := gov("GOCACHE"); c != "off" {
		out = append(out, or(c, filepath.Join(cache, "go-build")))
	}
	gopath, _, _ := strings.Cut(gov("GOPATH"), string(os.PathListSeparator))
	gopath = or(gopath, filepath.Join(home, "go"))
	out = append(out, or(gov("GOMODCACHE"), filepath.Join(gopath, "pkg", "mod")))
	out = append(out, cache)
	npm := getenv("npm_config_cache")
	if npm == "" {
		npm = getenv("NPM_CONFIG_CACHE")
	}
	out = append(out, or(npm, filepath.Join(home, ".npm")))
	cargo := or(getenv("CARGO_HOME"), filepath.Join(home, ".cargo"))
	out = append(out, filepath.Join(cargo, "registry"), filepath.Join(cargo, "git"))
	out = append(out, filepath.Join(home, ".m2", "repository"))
	gradle := or(getenv("GRADLE_USER_HOME"), filepath.Join(home, ".gradle"))
	out = append(out, filepath.Join(gradle, "caches"), filepath.Join(gradle, "wrapper"))
	out = append(out, or(getenv("PIP_CACHE_DIR"), filepath.Join(cache, "pip")))
	return out
}

// goEnvFile reads go's configuration file (`go env GOENV`), whose
// NAME=value lines `go env -w` writes.
func goEnvFile(home string, getenv func(string) string) map[string]string {
	file := getenv("GOENV")
	switch {
	case file == "off":
		return nil
	case file == "":
		// os.UserConfigDir, as go finds it.
		cfg := getenv("XDG_CONFIG_HOME")
		if !filepath.IsAbs(cfg) {
			cfg = filepath.Join(home, ".config")
		}
		if runtime.GOOS == "darwin" {
			cfg = filepath.Join(home, "Library", "Application Support")
		}
		file = filepath.Join(cfg, "go", "env")
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	vars := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok {
			vars[k] = v
		}
	}
	return vars
}

// dotenvs are the files outside the workspace whose names say they hold
// secrets (.env, .env.local, *.pem…) where a program started in it looks
// first: in the directories above it up to the home directory, and at
// home. Directories above home (/, /tmp…) are not searched: they are not
// where people keep such files, and /tmp holds hundreds of entries.
func dotenvs(ws, home string) []string {
	if home == "" {
		return nil
	}
	var dirs []string
	for d := filepath.Dir(ws); Under(d, home) && !Under(home, ws); d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if d == home {
			break
		}
	}
	if !slices.Contains(dirs, home) && !Under(home, ws) {
		dirs = append(dirs, home)
	}
	var out []string
	for _, d := range dirs {
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if !e.IsDir() && secret.Name(e.Name()) {
				out = append(out, Resolve(d, e.Name()))
			}
		}
	}
	return out
}

// roots sorts paths and drops those under another one: a directory
// covers everything under it.
func roots(paths []string) []string {
	slices.Sort(paths)
	paths = slices.Compact(paths)
	var out []string
	for _, p := range paths {
		if !slices.ContainsFunc(out, func(r string) bool { return Under(p, r) }) {
			out = append(out, p)
		}
	}
	return out
}
