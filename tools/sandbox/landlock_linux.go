package sandbox

import (
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"github.com/qsh-shell/qsh/tools/sandbox/confine"
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

// Limits says what the kernel cannot enforce of p, for people; empty
// when it enforces all of it.
func Limits(p Policy) []string {
	if !p.Net && ABI() < 4 {
		return []string{fmt.Sprintf("network: TCP cannot be denied (Landlock ABI %d; 4 is needed)", ABI())}
	}
	return nil
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

// Confiner starts programs under one policy.
type Confiner struct {
	exe     string   // the program that confines itself and executes the target: qsh
	ruleset *os.File // the Landlock ruleset, which each program inherits as fd 3
	flags   uint32
}

// Prepare makes the Landlock ruleset for p, to start programs through
// exe, a program whose start calls [confine.Main]; "" is this one, as the
// kernel knows it (/proc/self/exe: the very binary, even once an upgrade
// has replaced the file). It fails when the kernel cannot confine; Close
// releases the ruleset.
func Prepare(p Policy, exe string) (*Confiner, error) {
	if exe == "" {
		exe = "/proc/self/exe"
	}
	abi := ABI()
	if abi < 1 {
		_, err := Support()
		return nil, err
	}
	cfg := landlock.Config{
		HandledAccessFS: readFS | writeFS,
		Scoped:          ll.ScopeSignal | ll.ScopeAbstractUnixSocket,
	}
	if !p.Net {
		cfg.HandledAccessNet = ll.AccessNetBindTCP | ll.AccessNetConnectTCP
	}
	dirs, files := readGrants(p.Deny, os.ReadDir)
	var wdirs, wfiles []string
	for _, w := range p.Write {
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
	fd, flags, err := cfg.BestEffort().NewRulesetFD(rules...)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %v", err)
	}
	if fd < 0 {
		return nil, errors.New("sandbox: the kernel confines nothing of this policy")
	}
	return &Confiner{exe: exe, ruleset: os.NewFile(uintptr(fd), "landlock-ruleset"), flags: flags}, nil
}

// Wrap is how to start the program at path with args (args[0] its name)
// confined: the program to execute, its arguments, and the files to hand
// it from fd 3 on.
func (c *Confiner) Wrap(path string, args []string) (string, []string, []*os.File) {
	argv := append([]string{c.exe, confine.Arg, strconv.FormatUint(uint64(c.flags), 10), path}, args...)
	return c.exe, argv, []*os.File{c.ruleset}
}

// Close releases the ruleset; the programs started keep their confinement.
func (c *Confiner) Close() error {
	return c.ruleset.Close()
}
