package sandbox

import (
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// Support says what confines programs here ("Landlock ABI 7"), or why
// nothing can.
func Support() (string, error) {
	abi := ABI()
	if abi < 1 {
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
)

// grants are what a Landlock ruleset lets programs do: write under write,
// read everything but deny; with tcp, use TCP only to connect to ports
// (the proxy's, where there is no network namespace to keep them in).
type grants struct {
	write, deny []string
	tcp         bool
	ports       []uint16
}

// ruleset makes the Landlock ruleset of g, and the flags to apply it
// with (landlock_restrict_self). Rules hold on files, not on paths: a
// ruleset made here holds in a jail's mount namespace, and what is
// mounted over a granted directory is granted with it.
func ruleset(g grants) (*os.File, uint32, error) {
	abi := ABI()
	if abi < 1 {
		_, err := Support()
		return nil, 0, err
	}
	cfg := landlock.Config{
		HandledAccessFS: readFS | writeFS,
		Scoped:          ll.ScopeSignal | ll.ScopeAbstractUnixSocket,
	}
	if g.tcp {
		cfg.HandledAccessNet = ll.AccessNetBindTCP | ll.AccessNetConnectTCP
	}
	dirs, files := readGrants(g.deny, os.ReadDir)
	var wdirs, wfiles []string
	for _, w := range g.write {
		if fi, err := os.Stat(w); err == nil && fi.IsDir() {
			wdirs = append(wdirs, w)
		} else if err == nil {
			wfiles = append(wfiles, w)
		}
	}
	rw := landlock.RWDirs(wdirs...)
	if abi >= 2 {
		// Moving files between directories; without it, best effort would
		// give up on an ABI 1 kernel and confine nothing.
		rw = rw.WithRefer()
	}
	rules := []landlock.Rule{
		landlock.PathAccess(ll.AccessFSReadDir, "/"), // ls anywhere; the files stay unreadable
		landlock.RODirs(dirs...).IgnoreIfMissing(),
		landlock.ROFiles(files...).IgnoreIfMissing(),
		rw.IgnoreIfMissing(),
		landlock.RWFiles(wfiles...).IgnoreIfMissing(),
	}
	for _, port := range g.ports {
		rules = append(rules, landlock.ConnectTCP(port))
	}
	fd, flags, err := cfg.BestEffort().NewRulesetFD(rules...)
	if err != nil {
		return nil, 0, fmt.Errorf("sandbox: %v", err)
	}
	if fd < 0 {
		return nil, 0, errors.New("sandbox: the kernel confines nothing of this policy")
	}
	return os.NewFile(uintptr(fd), "landlock-ruleset"), flags, nil
}
