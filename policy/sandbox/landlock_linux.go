package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"github.com/qsh-shell/qsh/policy/sandbox/confine"
	"github.com/qsh-shell/qsh/policy/secret"
)

// Support says what confines programs here ("Landlock ABI 7"), or why
// nothing can.
func Support() (string, error) {
	abi := ABI()
	if abi < 1 {
		//lint:ignore ST1005 Landlock is a name, and this line is shown to the user as it is
		return "", errors.New("Landlock is not available (Linux 5.13 or later with Landlock enabled is needed)")
	}
	return "Landlock ABI " + strconv.Itoa(abi), nil
}

// ABI is the Landlock ABI version the kernel offers; 0 without Landlock.
func ABI() int {
	v, err := ll.LandlockGetABIVersion()
	if err != nil || v < 0 {
		return 0
	}
	return v
}

// readFS, writeFS are the filesystem rights a policy handles: all that
// Landlock ABI 7 knows but ioctl on devices, which terminals need and
// which grants nothing else.
const (
	readFS  = ll.AccessFSExecute | ll.AccessFSReadFile | ll.AccessFSReadDir
	writeFS = ll.AccessFSWriteFile | ll.AccessFSRemoveDir | ll.AccessFSRemoveFile | ll.AccessFSMakeChar |
		ll.AccessFSMakeDir | ll.AccessFSMakeReg | ll.AccessFSMakeSock | ll.AccessFSMakeFifo |
		ll.AccessFSMakeBlock | ll.AccessFSMakeSym | ll.AccessFSRefer | ll.AccessFSTruncate
	connectTCP = ll.AccessNetConnectTCP
	bindTCP    = ll.AccessNetBindTCP
	scopes     = ll.ScopeSignal | ll.ScopeAbstractUnixSocket
)

// grants are what a Landlock ruleset lets programs do: write under write,
// read everything but deny; with tcp, use TCP only to connect to ports
// (the proxy's, where there is no network namespace to keep them in).
type grants struct {
	write, deny []string
	tcp         bool
	ports       []uint16
}

// rules are a Landlock ruleset described for a jail, which makes it
// inside, once its mounts are made: Landlock's rules hold on the files
// the paths lead to, and a directory mounted over another is not
// covered by the rules of the one it hides. The rights are those the
// kernel's ABI knows; a right no ABI knows is left out (best effort).
func rules(g grants) (confine.Ruleset, error) {
	abi := ABI()
	if abi < 1 {
		_, err := Support()
		return confine.Ruleset{}, err
	}
	known := uint64(1<<13 - 1) // ABI 1
	switch {
	case abi >= 3:
		known = 1<<15 - 1 // + refer, truncate
	case abi == 2:
		known = 1<<14 - 1 // + refer
	}
	r := confine.Ruleset{HandledFS: uint64(readFS|writeFS) & known}
	if abi >= 6 {
		r.Scoped = uint64(scopes)
	}
	if g.tcp && abi >= 4 {
		r.HandledNet = uint64(connectTCP | bindTCP)
		for _, port := range g.ports {
			r.Ports = append(r.Ports, confine.PortRule{Port: port, Access: uint64(connectTCP)})
		}
	}
	read, write := uint64(readFS)&known, uint64(readFS|writeFS)&known
	r.Paths = append(r.Paths, confine.PathRule{Path: "/", Access: uint64(ll.AccessFSReadDir)}) // ls anywhere; files stay unreadable
	dirs, files := readGrants(g.deny, os.ReadDir)
	for _, d := range dirs {
		r.Paths = append(r.Paths, confine.PathRule{Path: d, Access: read})
	}
	// A file's rules have a file's rights, which saves the jail a look
	// at what each is (see confine's Ruleset).
	for _, f := range files {
		r.Paths = append(r.Paths, confine.PathRule{Path: f, Access: read & uint64(ll.AccessFSExecute|ll.AccessFSReadFile)})
	}
	for _, w := range g.write {
		r.Paths = append(r.Paths, confine.PathRule{Path: w, Access: write})
	}
	return r, nil
}

// presumed is the part of a jail's ruleset that the policies share, made
// by a prepared jail's process before the policy is known (see Prepare):
// the grants to read the entries beside the system's secrets (/etc's,
// most of a ruleset), as Compute denies those and rules grants the rest.
// Those of / are left out: they depend on where the home directory is.
func presumed() (confine.Ruleset, bool) {
	var deny []string
	for _, f := range (secret.Places{}).Fixed() {
		if _, err := os.Lstat(f); err == nil {
			deny = append(deny, Resolve("/", f))
		}
	}
	if len(deny) == 0 {
		return confine.Ruleset{}, false
	}
	r, err := rules(grants{deny: roots(deny)})
	if err != nil {
		return r, false
	}
	r.Paths = slices.DeleteFunc(r.Paths, func(p confine.PathRule) bool { return filepath.Dir(p.Path) == "/" })
	return r, len(r.Paths) > 0
}

// beyond is the ruleset r as rules to add to the ruleset pre, which a
// jail's process made before its plan, or false where pre's rules are
// not all r's, or it handles other rights: the jail makes r afresh then.
// A rule of pre's on a path at or under a place the plan mounts holds on
// what the mount hides, not on what is there after it: r's rule on that
// path is added again, to what the mount put there.
func beyond(r confine.Ruleset, pre *confine.Ruleset, steps []step) (confine.Ruleset, bool) {
	if pre == nil || r.HandledFS != pre.HandledFS || r.HandledNet != pre.HandledNet || r.Scoped != pre.Scoped {
		return r, false
	}
	var mounted []string
	for _, s := range steps {
		if (s.kind == confine.StepMount || s.kind == confine.StepPlace) && len(s.args) > 1 {
			mounted = append(mounted, s.args[1])
		}
	}
	want := make(map[confine.PathRule]bool, len(r.Paths))
	for _, p := range r.Paths {
		want[p] = true
	}
	made := make(map[confine.PathRule]bool, len(pre.Paths))
	for _, p := range pre.Paths {
		if !want[p] {
			return r, false
		}
		if !slices.ContainsFunc(mounted, func(m string) bool { return Under(p.Path, m) }) {
			made[p] = true
		}
	}
	more := r
	more.Paths = slices.DeleteFunc(slices.Clone(r.Paths), func(p confine.PathRule) bool { return made[p] })
	return more, true
}
