package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/qsh-shell/qsh/policy/sandbox/confine"
)

// step is one step of a jail's plan (see package confine): what to do,
// whether it must work, and what to tell when it does not.
type step struct {
	kind, mode, note string
	args             []string
}

// layout is what a namespaced jail is made of, outside: its /tmp, the
// proxy's socket, the uid whose /run/user directory it gets.
type layout struct {
	tmp   string // the private /tmp, outside
	proxy string // the proxy's unix socket, outside; "" without one
	uid   int
	netOn bool // the machine's network: its resolver's directory is kept
}

// Paths inside a jail.
const (
	jailProxy    = "/run/qsh/proxy.sock"
	jailMaskDir  = "/run/qsh/mask"
	jailMaskFile = "/run/qsh/mask-file"
	jailCaches   = "/run/qsh/caches"
)

// plan is the steps that make a namespaced jail for p: the repository's
// configuration read-only, the caches overlaid, a /tmp of its own with
// the places it needs from the real one put back (read-only but for the
// writable ones, with their secrets masked), an empty /run with
// /run/user/UID, its own terminals, shared memory and /proc, and the
// network as p says.
func plan(p Policy, l layout) (steps []step) {
	must := func(kind, note string, args ...string) {
		steps = append(steps, step{kind, confine.ModeMust, note, args})
	}
	try := func(kind, note string, args ...string) {
		steps = append(steps, step{kind, confine.ModeTry, note, args})
	}
	orElse := func(kind, note string, args ...string) {
		steps = append(steps, step{kind, confine.ModeElse, note, args})
	}
	then := func(kind, note string, args ...string) {
		steps = append(steps, step{kind, confine.ModeThen, note, args})
	}
	bind := func(mode func(string, string, ...string), src, dst string, flags uintptr, note string) {
		mode(confine.StepMount, note, src, dst, "", num(syscall.MS_BIND|flags), "")
	}
	readOnly := func(path, note string) {
		bind(must, path, path, 0, note)
		must(confine.StepRemount, note, path, num(syscall.MS_RDONLY))
	}

	// The places of the real /tmp the programs need, each its own mount
	// so that the read-only ones do not make the writable ones so.
	var keep []string
	if len(p.Temps) > 0 {
		want := slices.Concat([]string{p.Workspace, p.Home}, p.Keep, p.Write)
		want = append(want, p.Caches...)
		for _, w := range want {
			if w != "" && !strings.HasPrefix(w, "/dev/") && slices.ContainsFunc(p.Temps, func(t string) bool { return Under(w, t) && w != t }) {
				keep = append(keep, w)
			}
		}
		keep = roots(keep)
	}
	writable := func(path string) bool {
		return slices.Contains(p.Write, path) || slices.Contains(p.Caches, path)
	}
	for _, w := range slices.Concat(p.Write, p.Caches) {
		if !strings.HasPrefix(w, "/dev/") && !slices.Contains(p.Temps, w) &&
			slices.ContainsFunc(keep, func(k string) bool { return Under(w, k) }) {
			bind(must, w, w, syscall.MS_REC, "the workspace")
		}
	}

	// The repository: its configuration and hooks run later, outside.
	if p.Workspace != "" && slices.Contains(p.Write, p.Workspace) {
		for _, path := range gitProtected(p.Workspace) {
			if fi, err := os.Lstat(path); err == nil && fi.IsDir() && filepath.Base(path) == ".git" {
				bind(must, path, path, 0, "the repository") // a mount point: not to be moved or replaced
				continue
			}
			readOnly(path, "the repository's configuration")
		}
	}

	// The caches: the user's own below, the sandbox's layer above.
	for _, c := range p.Caches {
		if p.Layers == "" {
			break
		}
		layer := filepath.Join(p.Layers, layerName(c))
		note := "the cache " + p.Show(c) + " is the sandbox's own, empty (no overlay)"
		try(confine.StepMount, note, "overlay", c, "overlay", "0",
			"lowerdir="+overlayPath(c)+",upperdir="+overlayPath(filepath.Join(layer, "upper"))+
				",workdir="+overlayPath(filepath.Join(layer, "work"))+",userxattr")
		bind(orElse, filepath.Join(layer, "data"), c, 0, note)
	}

	// What /tmp and /run keep, set aside before they are covered.
	clones := 0
	type placed struct {
		at       int
		path     string
		readOnly bool
	}
	var back []placed
	for _, k := range keep {
		must(confine.StepClone, "a place under /tmp", k)
		back = append(back, placed{clones, k, !writable(k)})
		clones++
	}
	var resolver, proxy = -1, -1
	if l.netOn {
		if fi, err := os.Stat("/run/systemd/resolve"); err == nil && fi.IsDir() {
			try(confine.StepClone, "the resolver's configuration", "/run/systemd/resolve")
			resolver = clones
			clones++
		}
	}
	if l.proxy != "" {
		must(confine.StepClone, "the proxy's socket", l.proxy)
		proxy = clones
		clones++
	}
	var opened []int
	for _, sock := range p.Sockets {
		must(confine.StepClone, "the socket of "+sock.Var, sock.Path)
		opened = append(opened, clones)
		clones++
	}
	fresh := map[string]int{}
	if p.Layers != "" {
		for _, f := range p.Fresh {
			must(confine.StepClone, "a cache of the sandbox's", filepath.Join(p.Layers, layerName(f.Var), "data"))
			fresh[f.Var] = clones
			clones++
		}
	}

	if len(p.Temps) > 0 {
		// The jail's /tmp covers each temp dir not under another; once
		// the first is covered, the directory outside may be out of
		// sight (it is under /tmp): the others are bound from the first.
		first := ""
		for _, t := range p.Temps {
			if slices.ContainsFunc(p.Temps, func(o string) bool { return o != t && Under(t, o) }) {
				continue
			}
			if first == "" {
				bind(must, l.tmp, t, 0, "the private /tmp")
				first = t
			} else {
				bind(must, first, t, 0, "the private /tmp")
			}
		}
		for _, b := range back {
			must(confine.StepPlace, "a place under /tmp", strconv.Itoa(b.at), b.path)
			if b.readOnly {
				must(confine.StepRemount, "a place under /tmp", b.path, num(syscall.MS_RDONLY))
			}
		}
	}

	must(confine.StepMount, "/run", "tmpfs", "/run", "tmpfs", num(syscall.MS_NOSUID|syscall.MS_NODEV), "mode=0755")
	if fi, err := os.Lstat("/var/run"); err == nil && fi.IsDir() {
		must(confine.StepMount, "/var/run", "tmpfs", "/var/run", "tmpfs", num(syscall.MS_NOSUID|syscall.MS_NODEV), "mode=0755")
	}
	must(confine.StepMkdir, "/run/user", "/run/user/"+strconv.Itoa(l.uid), "448") // 0700
	must(confine.StepMkdir, "/run/lock", "/run/lock", "1023")                     // 01777
	must(confine.StepMkdir, "masks", jailMaskDir, "0")
	must(confine.StepFile, "masks", jailMaskFile, "0")
	if resolver >= 0 {
		orElse(confine.StepPlace, "the resolver's configuration", strconv.Itoa(resolver), "/run/systemd/resolve")
	}
	if proxy >= 0 {
		must(confine.StepPlace, "the proxy's socket", strconv.Itoa(proxy), jailProxy)
	}
	for i, sock := range p.Sockets {
		must(confine.StepPlace, "the socket of "+sock.Var, strconv.Itoa(opened[i]), sock.Path)
	}
	for _, f := range p.Fresh {
		if at, ok := fresh[f.Var]; ok {
			must(confine.StepPlace, "a cache of the sandbox's", strconv.Itoa(at), jailCaches+"/"+layerName(f.Var))
		}
	}

	// Secrets and qsh's own files under a place put back: the write grant
	// of the private /tmp above them covers them for Landlock.
	for _, d := range p.denied() {
		if !slices.ContainsFunc(keep, func(k string) bool { return Under(d, k) }) {
			continue
		}
		fi, err := os.Lstat(d)
		if err != nil {
			continue
		}
		mask := jailMaskFile
		if fi.IsDir() {
			mask = jailMaskDir
		}
		bind(must, mask, d, 0, "a secret under /tmp")
		must(confine.StepRemount, "a secret under /tmp", d, num(syscall.MS_RDONLY))
	}

	// Terminals of its own (the user's are not its to open), shared
	// memory of its own, and a /proc that shows its processes only.
	try(confine.StepMount, "terminals: the machine's are visible", "devpts", "/dev/pts", "devpts",
		num(syscall.MS_NOSUID|syscall.MS_NOEXEC), "newinstance,ptmxmode=0666,mode=0620")
	bind(then, "/dev/pts/ptmx", "/dev/ptmx", 0, "terminals: /dev/ptmx is the machine's")
	try(confine.StepMount, "shared memory: the machine's is visible", "tmpfs", "/dev/shm", "tmpfs",
		num(syscall.MS_NOSUID|syscall.MS_NODEV), "mode=1777")
	try(confine.StepMount, "processes: the machine's are visible in /proc", "proc", "/proc", "proc",
		num(syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC), "")

	if p.Net != NetOn {
		must(confine.StepLoopback, "the network's loopback")
	}
	if l.proxy != "" {
		must(confine.StepBridge, "the proxy's bridge", jailProxy)
	}
	return steps
}

// layerName names the sandbox's layer over the cache at path: readable,
// and unique.
func layerName(path string) string {
	sum := sha256.Sum256([]byte(path))
	return strings.Trim(strings.ReplaceAll(filepath.Base(path), ".", ""), "-") + "-" + hex.EncodeToString(sum[:6])
}

// overlayPath escapes what overlayfs's options would split at. By hand:
// a strings.Replacer is built on its first use, which is each jail's.
func overlayPath(p string) string {
	if !strings.ContainsAny(p, `\,:`) {
		return p
	}
	b := make([]byte, 0, len(p)+8)
	for i := 0; i < len(p); i++ {
		if c := p[i]; c == '\\' || c == ',' || c == ':' {
			b = append(b, '\\')
		}
		b = append(b, p[i])
	}
	return string(b)
}

func num(n uintptr) string { return strconv.FormatUint(uint64(n), 10) }
