package sandbox

import (
	"errors"
	"os"
	"strconv"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"github.com/qsh-shell/qsh/policy/sandbox/confine"
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
