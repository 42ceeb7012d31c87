package confine

import (
	"syscall"
	"unsafe"
)

// Linux's numbers, the same on every architecture.
const (
	sysLandlockCreateRuleset = 444
	sysLandlockAddRule       = 445
	sysLandlockRestrictSelf  = 446
	ruleTypePathBeneath      = 1
	ruleTypeNetPort          = 2
	// The rights that apply to a file (execute, write, read, truncate,
	// ioctl on a device): a rule on a file grants no others.
	fileRights = 1<<0 | 1<<1 | 1<<2 | 1<<14 | 1<<15
	oPath      = 0x200000 // O_PATH, which package syscall lacks
)

// apply makes the ruleset r and confines the calling thread with it.
// A path that is not there is left out: it grants nothing. A rule is
// three system calls (open, add, close), which are most of a jail's
// set-up after its mounts: a rule on a file that asks for a directory's
// rights is not looked at first but refused by the kernel, and made
// again with a file's (the rules of files come with those already).
func (r Ruleset) apply() error {
	attr := struct{ fs, net, scoped uint64 }{r.HandledFS, r.HandledNet, r.Scoped}
	fd, _, e := syscall.Syscall(sysLandlockCreateRuleset, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if e != 0 {
		return e
	}
	defer syscall.Close(int(fd))
	for _, p := range r.Paths {
		pfd, err := syscall.Open(p.Path, oPath|syscall.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		e = addPath(fd, pfd, p.Access&r.HandledFS)
		if e == syscall.EINVAL && p.Access&r.HandledFS&^fileRights != 0 {
			e = addPath(fd, pfd, p.Access&r.HandledFS&fileRights) // not a directory
		}
		syscall.Close(pfd)
		if e != 0 {
			return e
		}
	}
	for _, p := range r.Ports {
		rule := struct{ access, port uint64 }{p.Access & r.HandledNet, uint64(p.Port)}
		if rule.access == 0 {
			continue
		}
		if _, _, e := syscall.Syscall6(sysLandlockAddRule, fd, ruleTypeNetPort, uintptr(unsafe.Pointer(&rule)), 0, 0, 0); e != 0 {
			return e
		}
	}
	if _, _, e := syscall.RawSyscall(sysLandlockRestrictSelf, fd, 0, 0); e != 0 {
		return e
	}
	return nil
}

// addPath adds to the ruleset fd the rule that grants access beneath the
// file pfd; no rights, no rule.
func addPath(fd uintptr, pfd int, access uint64) syscall.Errno {
	if access == 0 {
		return 0
	}
	// struct landlock_path_beneath_attr is packed: the kernel reads 12
	// bytes.
	rule := struct {
		access uint64
		parent int32
	}{access, int32(pfd)}
	_, _, e := syscall.Syscall6(sysLandlockAddRule, fd, ruleTypePathBeneath, uintptr(unsafe.Pointer(&rule)), 0, 0, 0)
	return e
}
