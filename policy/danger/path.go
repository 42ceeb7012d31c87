package danger

import (
	"path"
	"strings"

	"github.com/qsh-shell/qsh/internal/lazy"
	"github.com/qsh-shell/qsh/policy/secret"
)

// cleanAbs cleans an absolute path and returns "" for anything else.
func cleanAbs(p string) string {
	if !strings.HasPrefix(p, "/") {
		return ""
	}
	return path.Clean(p)
}

// abs resolves p the way the shell would see it from the walker's cwd.
// ok is false when the path cannot be known before running. A holeEntry
// (one entry a command finds) is kept as a literal name.
func (w *walker) abs(p string) (string, bool) {
	if p == "" {
		return "", false
	}
	if strings.Contains(p, hole) || strings.ContainsRune(p, holeDL) {
		return "", false
	}
	if !strings.HasPrefix(p, "/") {
		if w.cwd == "" {
			return "", false
		}
		p = w.cwd + "/" + p
	}
	p = path.Clean(p)
	if w.box != nil {
		return w.box.hostPath(p), true
	}
	return p, true
}

// under reports whether p is dir or lies below it.
func under(p, dir string) bool {
	if dir == "" {
		return false
	}
	if dir == "/" {
		return true
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// inside reports whether p lies strictly inside the workspace.
func (w *walker) inside(p string) bool {
	return w.ws.Dir != "" && p != w.ws.Dir && under(p, w.ws.Dir)
}

// systemDirs are the top-level directories whose recursive deletion
// wrecks the machine.
var systemDirs = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{
		"/bin": true, "/boot": true, "/dev": true, "/etc": true, "/home": true, "/lib": true,
		"/lib32": true, "/lib64": true, "/libx32": true, "/media": true, "/mnt": true, "/opt": true,
		"/proc": true, "/root": true, "/run": true, "/sbin": true, "/srv": true, "/sys": true,
		"/usr": true, "/var": true, "/snap": true, "/Users": true, "/System": true, "/Library": true,
		"/Applications": true, "/private": true, "/usr/bin": true, "/usr/lib": true, "/usr/sbin": true,
		"/usr/share": true, "/usr/include": true, "/usr/lib64": true, "/var/lib": true,
	}
}}

// homeParents hold other users' home directories.
var homeParents = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{"/home": true, "/Users": true}
}}

// homeHole reports a path whose one unknown part is a user's name under
// /home or /Users (/home/$USER, /home/$(whoami)/*): whatever its value,
// the path is a home directory or all that is in it.
func homeHole(s string) bool {
	for d := range homeParents.Get() {
		rest, ok := strings.CutPrefix(s, d+"/")
		if !ok {
			continue
		}
		name, tail, _ := strings.Cut(strings.TrimRight(rest, "/"), "/")
		if strings.Contains(name, hole) && !strings.ContainsAny(name, ".") && (tail == "" || allGlob(tail)) {
			return true
		}
	}
	return false
}

// buildDirs are regenerable directories that dev work deletes routinely.
var buildDirs = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{
		"build": true, "dist": true, "out": true, "target": true, "node_modules": true,
		"__pycache__": true, ".pytest_cache": true, ".mypy_cache": true, ".next": true,
		".cache": true, "coverage": true, ".ruff_cache": true, ".tox": true, ".turbo": true,
		".parcel-cache": true, ".nuxt": true, ".svelte-kit": true, "htmlcov": true, ".nyc_output": true,
	}
}}

// hasGlob reports a pattern: globs, extended globs such as !(keep), or an
// entry a command finds.
func hasGlob(s string) bool {
	return strings.ContainsAny(s, "*?["+holeEntry) || strings.Contains(s, "!(") || strings.Contains(s, "@(") || strings.Contains(s, "+(")
}

var bracketExpr = lazy.Regexp{Expr: `\[[^]]*\]`}

// allGlob reports whether a name pattern matches (nearly) every entry:
// `*`, `.*`, `.[!.]*`, `?*`.
func allGlob(base string) bool {
	if base == holeEntry || strings.HasPrefix(base, "!(") {
		return true // any entry a command finds, or all but some: !(keep)
	}
	b := bracketExpr.Get().ReplaceAllString(base, "")
	// zsh's glob qualifiers, *(D) (dot files too), *(N), *(/): still every
	// entry, or every one of a kind.
	if i := strings.IndexByte(b, '('); i > 0 && strings.HasSuffix(b, ")") && strings.ContainsAny(b[:i], "*?") &&
		strings.Trim(b[i+1:len(b)-1], "DNnoOLl/.@=p*%rwxRWXsStUGfFM^-+:0123456789") == "" {
		b = b[:i]
	}
	return strings.Contains(b, "*") && strings.Trim(b, "*?.") == ""
}

// catastrophic says why deleting p recursively would wreck the machine or
// the account, or "" when it would not.
func (w *walker) catastrophic(p string) string {
	// macOS keeps /etc, /var and /tmp under /private and links them
	// from the root: /private/var is /var.
	for _, d := range []string{"/private/etc", "/private/var"} {
		if rest, ok := strings.CutPrefix(p, d); ok && (rest == "" || rest[0] == '/') {
			p = d[len("/private"):] + rest
		}
	}
	dir, base := path.Split(p)
	dir = path.Clean(dir)
	home := w.ws.Home
	switch {
	case p == "/":
		return "deletes the whole filesystem"
	case dir == "/" && hasGlob(base):
		return "deletes top-level system directories"
	case p == home:
		return "deletes the home directory"
	case dir == home && allGlob(base):
		return "deletes everything in the home directory"
	case homeParents.Get()[dir] || p == "/root":
		return "deletes a home directory"
	case systemDirs.Get()[p]:
		return "deletes the system directory `" + p + "`"
	case systemDirs.Get()[dir] && allGlob(base):
		return "deletes everything in `" + dir + "`"
	case w.ws.Dir == home && w.cwd == home && p == home:
		return "deletes the home directory"
	}
	return ""
}

// rawDevice matches block devices: writing to one destroys a disk.
var rawDevice = lazy.Regexp{Expr: `^/dev/(sd[a-z]+[0-9]*|nvme[0-9]+n[0-9]+(p[0-9]+)?|hd[a-z][0-9]*|vd[a-z]+[0-9]*|xvd[a-z]+[0-9]*|mmcblk[0-9]+(p[0-9]+|boot[0-9]+|rpmb)?|mtd(block)?[0-9]+|r?disk[0-9]+(s[0-9]+)?|md[0-9]+|dm-[0-9]+|loop[0-9]+|sr[0-9]+|mapper/.+|disk/.+|root)$`}

// harmlessDevices swallow or show output and nothing else.
var harmlessDevices = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{
		"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true, "/dev/tty": true,
		"/dev/zero": true, "/dev/stdin": true, "/dev/full": true,
	}
}}

// rcFiles run at shell start-up: writing one changes every later shell.
var rcFiles = lazy.Value[map[string]bool]{Build: func() map[string]bool {
	return map[string]bool{
		".bashrc": true, ".bash_profile": true, ".bash_login": true, ".bash_logout": true,
		".profile": true, ".zshrc": true, ".zprofile": true, ".zshenv": true, ".zlogin": true,
		".cshrc": true, ".tcshrc": true, ".kshrc": true, ".inputrc": true, ".qshrc": true,
		".qsh_profile": true, ".xprofile": true, ".xinitrc": true, "config.fish": true,
		".gitconfig": true, ".npmrc": true, ".pypirc": true, "environment": true,
	}
}}

// writeClass judges writing to (or creating, truncating) the file p.
// what names the operation for the reason, e.g. "`> out.txt`".
func (w *walker) writeClass(p string, what string) (Class, string) {
	if p == "" {
		return Dangerous, what + ": writes to a path not known before running"
	}
	if t := w.throughLinks(p); t != p {
		what += " (a link to `" + t + "`)"
		p = t
	}
	switch {
	case harmlessDevices.Get()[p] || strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/dev/pts/"):
		return Safe, what + ": writes to a terminal or /dev/null"
	case strings.HasPrefix(p, "/dev/") && rawDevice.Get().MatchString(p):
		return Blocked, what + ": writes to the raw disk `" + p + "`"
	case strings.HasPrefix(p, "/dev/tcp/") || strings.HasPrefix(p, "/dev/udp/"):
		return Dangerous, what + ": opens a network connection"
	case strings.HasPrefix(p, "/dev/"):
		return Dangerous, what + ": writes to the device `" + p + "`"
	}
	if w.box != nil && under(p, scratch) {
		return Dev, what + ": writes inside the container"
	}
	// These stay dangerous even when the workspace is the home directory.
	base := path.Base(p)
	switch {
	case rcFiles.Get()[base] && (path.Dir(p) == w.ws.Home || under(p, "/etc") || under(p, w.ws.Home+"/.config")):
		return Dangerous, what + ": changes a shell or tool start-up file"
	case under(p, w.ws.Home+"/.ssh"):
		return Dangerous, what + ": writes into ~/.ssh"
	case under(p, w.ws.Home+"/.config/qsh"):
		return Dangerous, what + ": changes qsh's own configuration (saved permissions, MCP servers)"
	case under(p, "/etc"):
		return Dangerous, what + ": writes under /etc"
	case under(p, "/proc") || under(p, "/sys"):
		return Dangerous, what + ": changes kernel settings"
	}
	if w.inside(p) || p == w.ws.Dir && p != "" {
		rel := strings.TrimPrefix(p, w.ws.Dir+"/")
		if strings.HasPrefix(rel, ".git/hooks") || rel == ".git/config" {
			return Dangerous, what + ": changes git hooks or config, which run code"
		}
		if lockWrite(p) {
			return Dangerous, what + ": rewrites a lock file by hand, which changes what gets installed"
		}
		return Dev, what + ": writes a file in the workspace"
	}
	return Dangerous, what + ": writes outside the workspace"
}

// throughLinks follows the symbolic links this string made, so a write
// through one is judged where it lands.
func (w *walker) throughLinks(p string) string {
	for range 8 { // links may form a cycle
		moved := false
		for link, target := range w.shared.links {
			if under(p, link) {
				p = target + strings.TrimPrefix(p, link)
				moved = true
				break
			}
		}
		if !moved {
			break
		}
	}
	return p
}

// secretFile says why reading p may disclose a secret, or "".
func (w *walker) secretFile(p string) string {
	return secret.Places{Home: w.ws.Home, Getenv: w.shared.getenv}.Why(p)
}
