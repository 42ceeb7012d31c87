package sandbox

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Mode is QSH_AI_SANDBOX: how the programs the assistant runs are confined.
type Mode string

const (
	Workspace Mode = "workspace" // writes in the workspace, the temp dir and the caches; secrets unreadable
	ReadOnly  Mode = "readonly"  // writes in the temp dir only; secrets unreadable
	Off       Mode = "off"       // not confined
)

// UnmarshalText accepts the three modes, and on/off.
func (m *Mode) UnmarshalText(b []byte) error {
	switch s := strings.ToLower(strings.TrimSpace(string(b))); s {
	case "workspace", "on", "true", "1", "yes":
		*m = Workspace
	case "readonly", "read-only", "ro":
		*m = ReadOnly
	case "off", "false", "0", "no":
		*m = Off
	default:
		return fmt.Errorf("expected workspace, readonly or off, not %q", s)
	}
	return nil
}

// Net is QSH_AI_SANDBOX_NET: where confined programs may connect.
type Net string

const (
	// AllowList: only to the allowed domains, through qsh's proxy.
	AllowList Net = "allowlist"
	// NetOff: nowhere (an empty network namespace: its own loopback only).
	NetOff Net = "off"
	// NetOn: anywhere, as the user's own programs.
	NetOn Net = "on"
)

// UnmarshalText accepts allowlist, off and on (and true, false…).
func (n *Net) UnmarshalText(b []byte) error {
	switch s := strings.ToLower(strings.TrimSpace(string(b))); s {
	case "allowlist", "allow-list", "allow", "proxy":
		*n = AllowList
	case "on", "true", "1", "yes":
		*n = NetOn
	case "off", "false", "0", "no":
		*n = NetOff
	default:
		return fmt.Errorf("expected allowlist, off or on, not %q", s)
	}
	return nil
}

// Policy is what a confined program may do. Paths are absolute, clean and
// free of symbolic links, as the kernel sees them. It crosses the control
// channel in run messages.
type Policy struct {
	Mode Mode `json:"mode"`
	// Net is where programs may connect; with AllowList, only through
	// the proxy (package proxy, which the assistant runs) at the unix
	// socket Proxy, which a jail binds in, or at 127.0.0.1:ProxyPort for
	// a jail without a network namespace of its own.
	Net       Net    `json:"net,omitempty"`
	Proxy     string `json:"proxy,omitempty"`
	ProxyPort int    `json:"proxyport,omitempty"`
	// Workspace is where the question was asked: the git repository's
	// root, else the cwd. In workspace mode it is in Write, and the
	// repository's configuration stays read-only.
	Workspace string `json:"workspace,omitempty"`
	// Keep are places under the temp dirs that programs need from the
	// real ones (the directories of PATH): a jail's private /tmp keeps
	// them, read-only.
	Keep []string `json:"keep,omitempty"`
	// Write lists where the program may create, change and delete files:
	// directories with everything under them, and single files.
	Write []string `json:"write,omitempty"`
	// Temps are the temp dirs (/tmp, $TMPDIR): in a jail, programs get a
	// /tmp of their own in their place; without one, those of Write.
	Temps []string `json:"temps,omitempty"`
	// Caches are the toolchains' caches (some of Write, or to be made): in
	// a jail each is overlaid by a layer of the sandbox's own under
	// Layers, so that what a confined build writes there never reaches
	// the user's own builds.
	Caches []string `json:"caches,omitempty"`
	Layers string   `json:"layers,omitempty"`
	// Fresh are caches the user has not made: a jail gives programs a
	// directory of its own for each, through the variable that moves it.
	Fresh []Fresh `json:"fresh,omitempty"`
	// ReadOnly lists what stays read-only under Write: the repository's
	// configuration and hooks, which git runs later, outside.
	ReadOnly []string `json:"readonly,omitempty"`
	// Deny lists what holds secrets: neither read nor written.
	// Everything else may be read.
	Deny []string `json:"deny,omitempty"`
	// Own lists qsh's own files (configuration, history, conversations,
	// the audit log), kept from programs as secrets are.
	Own []string `json:"own,omitempty"`
	// Sockets are the user's daemons programs may use, as sandbox.json
	// says: a jail keeps their variables and puts their sockets in.
	Sockets []Socket `json:"sockets,omitempty"`
	// Home is the user's home directory, to write paths as ~/… for people.
	Home string `json:"home,omitempty"`
	// Strict refuses to run with fewer layers than the jail's all.
	Strict bool `json:"strict,omitempty"`
}

// Fresh is a cache that does not exist yet: where it would be, and the
// variable that moves it elsewhere (GOMODCACHE, XDG_CACHE_HOME…).
type Fresh struct {
	Var  string `json:"var"`
	Path string `json:"path"`
}

// denied is Deny and Own: what programs can neither read nor write.
func (p Policy) denied() []string {
	if len(p.Own) == 0 {
		return p.Deny
	}
	return roots(append(append([]string{}, p.Deny...), p.Own...))
}

// Allows reports whether the policy lets a program read path (write
// false) or write it. path must be absolute, with its links resolved (see
// [Resolve]).
func (p Policy) Allows(path string, write bool) bool {
	for _, d := range p.denied() {
		if Under(path, d) {
			return false
		}
	}
	if !write {
		return true
	}
	for _, r := range p.ReadOnly {
		if Under(path, r) {
			return false
		}
	}
	for _, w := range p.Write {
		if Under(path, w) {
			return true
		}
	}
	return false
}

// Refusal is the one line that explains why the policy keeps path from a
// program ("sandbox: write to ~/.bashrc denied"), or "" if it allows it.
func (p Policy) Refusal(path string, write bool) string {
	switch {
	case !p.Allows(path, false):
		for _, o := range p.Own {
			if Under(path, o) {
				return "sandbox: access to " + p.Show(path) + " denied (qsh's own files)"
			}
		}
		return "sandbox: access to " + p.Show(path) + " denied (it holds secrets)"
	case write && !p.Allows(path, true):
		for _, r := range p.ReadOnly {
			if Under(path, r) {
				return "sandbox: write to " + p.Show(path) + " denied (the repository's configuration and hooks are read-only in the sandbox)"
			}
		}
		return "sandbox: write to " + p.Show(path) + " denied"
	}
	return ""
}

// Show writes path for people: ~/… under the home directory.
func (p Policy) Show(path string) string {
	if p.Home != "" && p.Home != "/" {
		if path == p.Home {
			return "~"
		}
		if rest, ok := strings.CutPrefix(path, p.Home+"/"); ok {
			return "~/" + rest
		}
	}
	return path
}

// Under reports whether path is root or lies under it. Both are clean and
// absolute.
func Under(path, root string) bool {
	if root == "/" {
		return strings.HasPrefix(path, "/")
	}
	return path == root || strings.HasPrefix(path, root+"/")
}

// Resolve makes path absolute against dir and resolves its links, also
// those of a part that does not exist yet, so that a file about to be
// created is judged by where it will really be, and a link (even one that
// leads nowhere yet) cannot lead around the policy.
func Resolve(dir, path string) string {
	if !filepath.IsAbs(path) {
		// Not filepath.Join, which cleans: "link/.." is where the link
		// leads, up one, and only resolving tells where that is.
		path = dir + "/" + path
	}
	return resolve(path, 0)
}

// maxLinks bounds the links followed, as the kernel's ELOOP does.
const maxLinks = 40

// resolve resolves the absolute path, which may hold "." and "..": each is
// taken after the links before it, as the kernel walks a path.
func resolve(path string, links int) string {
	if r, err := filepath.EvalSymlinks(path); err == nil || links > maxLinks {
		if err != nil {
			return filepath.Clean(path)
		}
		return r
	}
	i := strings.LastIndexByte(path, '/')
	parent, base := path[:i], path[i+1:]
	if parent == "" {
		parent = "/"
	}
	switch {
	case strings.Trim(path, "/") == "":
		return "/"
	case base == "" || base == ".":
		return resolve(parent, links)
	case base == "..":
		return filepath.Dir(resolve(parent, links))
	}
	p := filepath.Join(resolve(parent, links), base)
	// A link to something that does not exist yet: where a write would
	// create it.
	if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if t, err := os.Readlink(p); err == nil {
			if !filepath.IsAbs(t) {
				t = filepath.Dir(p) + "/" + t
			}
			return resolve(t, links+1)
		}
	}
	return p
}

// Strict is QSH_AI_SANDBOX_STRICT: yes, true, on or 1; no, false, off, 0.
type Strict bool

// UnmarshalText accepts the words for yes and no.
func (s *Strict) UnmarshalText(b []byte) error {
	switch v := strings.ToLower(strings.TrimSpace(string(b))); v {
	case "1", "true", "yes", "on", "y", "t":
		*s = true
	case "0", "false", "no", "off", "n", "f", "":
		*s = false
	default:
		return fmt.Errorf("expected true or false, not %q", v)
	}
	return nil
}
