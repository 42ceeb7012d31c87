package sandbox

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/qsh-shell/qsh/policy/secret"
)

// Place is where a command runs, all the policy depends on.
type Place struct {
	Dir     string   // the shell's cwd when the question was asked
	Home    string   // the user's home directory
	Environ []string // the session's exported variables, NAME=value
	// Own are qsh's files the caller knows of beyond those the
	// environment names (the audit log and permissions file it uses).
	Own []string
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

// Settings are the user's choices a policy follows: QSH_AI_SANDBOX,
// QSH_AI_SANDBOX_NET and QSH_AI_SANDBOX_STRICT. (The allow list is the
// proxy's; the caller names it in the policy.)
type Settings struct {
	Mode   Mode
	Net    Net
	Strict bool
	// Sockets names the daemons programs may use (sandbox.json).
	Sockets []string
}

// devices are the files under /dev that programs write to as a matter of
// course: the bit bucket, terminals, POSIX shared memory.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx", "/dev/pts", "/dev/shm"}

// Compute is the policy for s at pl: in workspace mode writes go to the
// workspace ([Root]), the temp dirs and the toolchains' caches; in readonly
// mode to the temp dirs only; in both, secrets and qsh's own files cannot
// be read. A place that would hold the home directory or a secret is not
// granted (the home directory itself is never writable), nor is one that
// does not exist: notes says which and why, for people. A jail gives the
// temp dirs and caches a place of their own (see [Host]); where it cannot,
// the grants are the user's own directories.
func Compute(s Settings, pl Place) (p Policy, notes []string) {
	p = Policy{Mode: s.Mode, Net: s.Net, Strict: s.Strict, Sockets: Sockets(s.Sockets, pl.getenv)}
	if p.Net == "" {
		p.Net = AllowList
	}
	if s.Mode == Off {
		return p, nil
	}
	home := ""
	if pl.Home != "" {
		home = Resolve("/", pl.Home)
	}
	p.Home = home
	ws := Root(Resolve("/", pl.Dir), home)
	for _, f := range (secret.Places{Home: home, Getenv: pl.getenv}).Fixed() {
		if _, err := os.Lstat(f); err == nil {
			p.Deny = append(p.Deny, Resolve("/", f))
		}
	}
	p.Deny = append(p.Deny, dotenvs(ws, home)...)
	p.Deny = roots(p.Deny)
	p.Own = own(home, pl)
	if home != "" {
		p.Layers = filepath.Join(stateHome(home, pl.getenv), "qsh", "sandbox")
	}

	var want []string
	p.Workspace = ws
	if s.Mode == Workspace {
		want = append(want, ws)
	}
	for _, t := range temps(pl.getenv) {
		p.Temps = append(p.Temps, Resolve("/", t))
	}
	p.Keep = keep(p.Temps, pl.getenv("PATH"))
	want = append(want, p.Temps...)
	if s.Mode == Workspace {
		cs := caches(home, pl.getenv)
		var missing []cache
		for _, c := range cs {
			r := Resolve("/", c.path)
			want = append(want, r)
			if _, err := os.Stat(r); err != nil {
				missing = append(missing, c)
			} else if ungrantable(r, home, p.denied()) == "" {
				p.Caches = append(p.Caches, r)
			}
		}
		p.Caches = roots(p.Caches)
		// A new account's: made where the toolchain keeps its own, else
		// moved into the sandbox's, never made in the home directory. A
		// directory before what it holds (~/.cache before go-build).
		slices.SortStableFunc(missing, func(a, b cache) int { return len(a.path) - len(b.path) })
		for _, c := range missing {
			r := Resolve("/", c.path)
			switch {
			case slices.ContainsFunc(p.Caches, func(k string) bool { return Under(r, k) }),
				slices.ContainsFunc(p.Fresh, func(f Fresh) bool { return Under(r, f.Path) }),
				c.tool != "" && !onPath(c.tool, pl.getenv("PATH")),
				ungrantable(r, home, p.denied()) != "":
			case c.own != "" && isDir(c.own):
				p.Caches = append(p.Caches, r)
			case c.env != "":
				p.Fresh = append(p.Fresh, Fresh{Var: c.env, Path: r})
			}
		}
		p.Caches = roots(p.Caches)
	}
	for _, w := range want {
		r := Resolve("/", w)
		if _, err := os.Stat(r); err != nil {
			continue // a cache the toolchain has not made; nothing to grant
		}
		if why := ungrantable(r, home, p.denied()); why != "" {
			if slices.Contains(p.Temps, r) {
				continue // a jail gives programs a /tmp of their own; without one, Limits says
			}
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
	if slices.Contains(p.Write, ws) {
		for _, g := range gitProtected(ws) {
			if filepath.Base(g) != ".git" {
				p.ReadOnly = append(p.ReadOnly, g)
			}
		}
	}
	return p, notes
}

// keep are the directories of PATH under a temp dir, which a jail's
// private /tmp must keep (with the toolchain a bin directory belongs to).
func keep(temps []string, path string) []string {
	var out []string
	for _, d := range filepath.SplitList(path) {
		if !filepath.IsAbs(d) {
			continue
		}
		r := Resolve("/", d)
		if !slices.ContainsFunc(temps, func(t string) bool { return Under(r, t) && r != t }) {
			continue
		}
		if fi, err := os.Stat(r); err != nil || !fi.IsDir() {
			continue
		}
		if filepath.Base(r) == "bin" && !slices.Contains(temps, filepath.Dir(r)) {
			r = filepath.Dir(r)
		}
		out = append(out, r)
	}
	return roots(out)
}

// own are qsh's own files and directories for a user: its configuration
// (with ~/.qshrc, which may hold an API key, and the allow list) and its
// state (history, conversations, the audit log), wherever the
// environment puts them, whether or not they exist yet.
func own(home string, pl Place) []string {
	var out []string
	add := func(p string) {
		if filepath.IsAbs(p) {
			out = append(out, Resolve("/", p))
		}
	}
	if home != "" {
		add(filepath.Join(home, ".qshrc"))
		add(filepath.Join(home, ".qsh_profile"))
		add(filepath.Join(configHome(home, pl.getenv), "qsh"))
		add(filepath.Join(stateHome(home, pl.getenv), "qsh"))
	}
	for _, v := range []string{"QSH_HISTFILE", "QSH_AI_PERMISSIONS", "QSH_AI_MCP_CONFIG"} {
		add(pl.getenv(v))
	}
	for _, p := range pl.Own {
		add(p)
	}
	return roots(out)
}

// configHome and stateHome are $XDG_CONFIG_HOME and $XDG_STATE_HOME, or
// their defaults under home.
func configHome(home string, getenv func(string) string) string {
	if d := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(home, ".config")
}

func stateHome(home string, getenv func(string) string) string {
	if d := getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(home, ".local", "state")
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// onPath reports whether an executable name is in one of path's
// directories.
func onPath(name, path string) bool {
	for _, d := range filepath.SplitList(path) {
		if !filepath.IsAbs(d) {
			continue
		}
		if fi, err := os.Stat(filepath.Join(d, name)); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return true
		}
	}
	return false
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

// cache is where a toolchain keeps what it downloads and builds. When it
// is missing, a jail makes it in the toolchain's own directory (own) if
// that exists, else gives programs a directory of its own for it through
// the variable that moves it (env); it is left alone when its program
// (tool) is not on PATH.
type cache struct{ path, tool, own, env string }

// caches are where the toolchains keep what they download and build, as
// the environment names them, else their defaults. Go's come from the
// variables and go's own configuration file, as `go env` would say, without
// running go. Maven's and Gradle's settings files hold credentials: only
// their caches are listed.
func caches(home string, getenv func(string) string) []cache {
	if home == "" {
		return nil
	}
	or := func(v, def string) string {
		if filepath.IsAbs(v) {
			return v
		}
		return def
	}
	dir := or(getenv("XDG_CACHE_HOME"), filepath.Join(home, ".cache"))
	var out []cache
	if runtime.GOOS == "darwin" {
		// os.UserCacheDir there, where go and pip keep theirs.
		out = append(out, cache{path: dir})
		dir = filepath.Join(home, "Library", "Caches")
	}
	goenv := goEnvFile(home, getenv)
	gov := func(k string) string {
		if v := getenv(k); v != "" {
			return v
		}
		return goenv[k]
	}
	if c := gov("GOCACHE"); c != "off" {
		out = append(out, cache{path: or(c, filepath.Join(dir, "go-build")), tool: "go", env: "GOCACHE"})
	}
	gopath, _, _ := strings.Cut(gov("GOPATH"), string(os.PathListSeparator))
	gopath = or(gopath, filepath.Join(home, "go"))
	out = append(out, cache{path: or(gov("GOMODCACHE"), filepath.Join(gopath, "pkg", "mod")), tool: "go", own: gopath, env: "GOMODCACHE"})
	out = append(out, cache{path: dir, env: "XDG_CACHE_HOME"})
	npm := getenv("npm_config_cache")
	if npm == "" {
		npm = getenv("NPM_CONFIG_CACHE")
	}
	out = append(out, cache{path: or(npm, filepath.Join(home, ".npm")), tool: "npm", env: "npm_config_cache"})
	cargo := or(getenv("CARGO_HOME"), filepath.Join(home, ".cargo"))
	out = append(out, cache{path: filepath.Join(cargo, "registry"), tool: "cargo", own: cargo, env: "CARGO_HOME"},
		cache{path: filepath.Join(cargo, "git"), tool: "cargo", own: cargo})
	out = append(out, cache{path: filepath.Join(home, ".m2", "repository"), tool: "mvn", own: filepath.Join(home, ".m2")})
	gradle := or(getenv("GRADLE_USER_HOME"), filepath.Join(home, ".gradle"))
	out = append(out, cache{path: filepath.Join(gradle, "caches"), tool: "gradle", own: gradle, env: "GRADLE_USER_HOME"},
		cache{path: filepath.Join(gradle, "wrapper"), tool: "gradle", own: gradle})
	out = append(out, cache{path: or(getenv("PIP_CACHE_DIR"), filepath.Join(dir, "pip")), tool: "pip3", env: "PIP_CACHE_DIR"})
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
