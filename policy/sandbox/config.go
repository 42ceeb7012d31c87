package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Config is the user's file of the sandbox's settings beyond the
// variables, $XDG_CONFIG_HOME/qsh/sandbox.json:
//
//	{"allow": ["example.com", "*.corp.example"],
//	 "deny": ["gist.github.com"],
//	 "hosts": {"registry.corp.example": "10.1.2.3"},
//	 "sockets": ["ssh-agent"],
//	 "projects": {"/home/al/app": {"allow": ["api.example.com"]}}}
//
// allow and deny are the network's allow list (deny wins); a project's
// lists add to the others for a workspace at or under its directory;
// hosts pins names to addresses the proxy connects to as they are (the
// user named them: a private address is not refused there). sockets
// names the daemons whose socket confined programs may use ([Sockets]).
// The file is the user's, outside any repository: a project cannot widen
// its own sandbox.
type Config struct {
	Allow    []string           `json:"allow,omitempty"`
	Deny     []string           `json:"deny,omitempty"`
	Hosts    map[string]string  `json:"hosts,omitempty"`
	Sockets  []string           `json:"sockets,omitempty"`
	Projects map[string]Project `json:"projects,omitempty"`
}

// Project is one project's part of the allow list.
type Project struct {
	Allow []string `json:"allow,omitempty"`
	Deny  []string `json:"deny,omitempty"`
}

// ConfigPath is where the file is for the environment getenv reads:
// $XDG_CONFIG_HOME/qsh/sandbox.json, else under home's .config.
func ConfigPath(home string, getenv func(string) string) string {
	if d := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "qsh", "sandbox.json")
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".config", "qsh", "sandbox.json")
}

// LoadConfig reads the file at path; a missing file is an empty one.
// Anything else wrong with it is an error naming the file: the caller
// must not go on as if its deny list were empty.
func LoadConfig(path string) (Config, error) {
	var c Config
	if path == "" {
		return c, nil
	}
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("%s: %v", path, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("%s: %v", path, err)
	}
	for _, list := range [][]string{c.Allow, c.Deny} {
		for _, d := range list {
			if err := checkDomain(d); err != nil {
				return c, fmt.Errorf("%s: %v", path, err)
			}
		}
	}
	for _, name := range c.Sockets {
		if _, ok := sockets[name]; !ok {
			return c, fmt.Errorf("%s: sockets: %q is not one of %s", path, name, socketNames())
		}
	}
	for name, addr := range c.Hosts {
		if _, err := netip.ParseAddr(addr); err != nil || checkDomain(name) != nil {
			return c, fmt.Errorf("%s: hosts: %q: %q is not a name and an IP address", path, name, addr)
		}
	}
	return c, nil
}

// For is the allow list's part for a workspace: the file's lists with
// those of the projects ws is in.
func (c Config) For(ws string) (allow, deny []string) {
	allow, deny = append([]string{}, c.Allow...), append([]string{}, c.Deny...)
	for dir, p := range c.Projects {
		if d := filepath.Clean(dir); filepath.IsAbs(dir) && (ws == d || strings.HasPrefix(ws, d+"/")) {
			allow = append(allow, p.Allow...)
			deny = append(deny, p.Deny...)
		}
	}
	return allow, deny
}

// Domains is QSH_AI_SANDBOX_ALLOW: domains the allow list adds,
// separated by commas or spaces.
type Domains []string

// UnmarshalText accepts domains, *.domains and IP addresses.
func (d *Domains) UnmarshalText(b []byte) error {
	var out Domains
	for _, name := range strings.FieldsFunc(string(b), func(r rune) bool { return r == ',' || r == ' ' }) {
		if err := checkDomain(name); err != nil {
			return fmt.Errorf("expected domains separated by commas: %v", err)
		}
		out = append(out, name)
	}
	*d = out
	return nil
}

// String is the list as the variable writes it.
func (d Domains) String() string { return strings.Join(d, ",") }

// checkDomain accepts a domain, "*.domain", "*" or an IP address.
func checkDomain(d string) error {
	if d == "*" {
		return nil
	}
	if _, err := netip.ParseAddr(d); err == nil {
		return nil
	}
	name := strings.TrimPrefix(d, "*.")
	if name == "" || strings.ContainsAny(name, "*/:@ \t") {
		return fmt.Errorf("%q is not a domain (example.com, *.example.com) or an IP address", d)
	}
	return nil
}

// sockets are the daemons a confined program may be given, by name: the
// variable that names the socket, and how its value gives the socket's
// path ("" when it gives none a jail can bind in, such as an abstract
// socket).
var sockets = map[string]struct {
	env  string
	path func(value, runtime string) string
}{
	"ssh-agent": {"SSH_AUTH_SOCK", func(v, _ string) string { return v }},
	"gpg-agent": {"GPG_AGENT_INFO", func(v, _ string) string { p, _, _ := strings.Cut(v, ":"); return p }},
	"dbus": {"DBUS_SESSION_BUS_ADDRESS", func(v, _ string) string {
		for _, part := range strings.Split(strings.TrimPrefix(v, "unix:"), ",") {
			if p, ok := strings.CutPrefix(part, "path="); ok {
				return p
			}
		}
		return ""
	}},
	"docker": {"DOCKER_HOST", func(v, _ string) string {
		if v == "" {
			return "/var/run/docker.sock"
		}
		p, _ := strings.CutPrefix(v, "unix://")
		return p
	}},
	"x11": {"DISPLAY", func(v, _ string) string {
		if n, ok := strings.CutPrefix(v, ":"); ok {
			n, _, _ = strings.Cut(n, ".")
			return "/tmp/.X11-unix/X" + n
		}
		return ""
	}},
	"wayland": {"WAYLAND_DISPLAY", func(v, runtime string) string {
		if filepath.IsAbs(v) || runtime == "" {
			return v
		}
		return filepath.Join(runtime, v)
	}},
	"tmux": {"TMUX", func(v, _ string) string { p, _, _ := strings.Cut(v, ","); return p }},
}

func socketNames() string {
	names := make([]string, 0, len(sockets))
	for n := range sockets {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// Socket is a daemon's socket a confined program is given: the variable
// it keeps, and the socket, which a jail puts at the same path.
type Socket struct {
	Var   string `json:"var"`
	Value string `json:"value"`
	Path  string `json:"path"`
}

// Sockets are the sockets of the daemons names opens, as getenv finds
// them; a daemon not running here is left out.
func Sockets(names []string, getenv func(string) string) []Socket {
	var out []Socket
	for _, n := range names {
		s, ok := sockets[n]
		if !ok {
			continue
		}
		v := getenv(s.env)
		p := s.path(v, getenv("XDG_RUNTIME_DIR"))
		if p == "" || !filepath.IsAbs(p) {
			continue
		}
		if fi, err := os.Stat(p); err != nil || fi.Mode().Type() != os.ModeSocket {
			continue
		}
		out = append(out, Socket{Var: s.env, Value: v, Path: p})
	}
	return out
}
