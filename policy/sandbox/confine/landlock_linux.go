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
	sysCloseRange            = 436
	// The rights that apply to a file (execute, write, read, truncate,
	// ioctl on a device): a rule on a file grants no others.
	fileRights = 1<<0 | 1<<1 | 1<<2 | 1<<14 | 1<<15
	oPath      = 0x200000 // O_PATH, which package syscall lacks
)

// apply makes the ruleset r and confines the calling thread with it.
func (r Ruleset) apply() error {
	fd, e := r.create()
	if e != 0 {
		return e
	}
	defer syscall.Close(fd)
	if err := r.add(fd); err != nil {
		return err
	}
	return restrict(fd)
}

// create makes an empty ruleset that handles r's rights.
func (r Ruleset) create() (int, syscall.Errno) {
	attr := struct{ fs, net, scoped uint64 }{r.HandledFS, r.HandledNet, r.Scoped}
	fd, _, e := syscall.Syscall(sysLandlockCreateRuleset, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if e != 0 {
		return -1, e
	}
	return int(fd), 0
}

// add adds r's rules to the ruleset fd, which handles r's rights.
// A path that is not there is left out: it grants nothing. System calls
// are most of a jail's set-up after its mounts, so a rule is two: open,
// add. The descriptors are closed together (a call for each run of
// consecutive numbers); a rule on a file that asks for a directory's
// rights is not looked at first but refused by the kernel, and made
// again with a file's (the rules of files come with those already).
func (r Ruleset) add(fd int) error {
	held := make([]int, 0, heldMax)
	defer func() { closeHeld(held) }()
	for _, p := range r.Paths {
		if len(held) == heldMax {
			closeHeld(held)
			held = held[:0]
		}
		pfd, err := syscall.Open(p.Path, oPath|syscall.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		held = append(held, pfd)
		e := addPath(uintptr(fd), pfd, p.Access&r.HandledFS)
		if e == syscall.EINVAL && p.Access&r.HandledFS&^fileRights != 0 {
			e = addPath(uintptr(fd), pfd, p.Access&r.HandledFS&fileRights) // not a directory
		}
		if e != 0 {
			return e
		}
	}
	for _, p := range r.Ports {
		rule := struct{ access, port uint64 }{p.Access & r.HandledNet, uint64(p.Port)}
		if rule.access == 0 {
			continue
		}
		if _, _, e := syscall.Syscall6(sysLandlockAddRule, uintptr(fd), ruleTypeNetPort, uintptr(unsafe.Pointer(&rule)), 0, 0, 0); e != 0 {
			return e
		}
	}
	return nil
}

// restrict confines the calling thread with the ruleset fd.
func restrict(fd int) error {
	if _, _, e := syscall.RawSyscall(sysLandlockRestrictSelf, uintptr(fd), 0, 0); e != 0 {
		return e
	}
	return nil
}

// heldMax bounds the descriptors apply holds at once, well below any
// limit on open files.
const heldMax = 256

// closeHeld closes the descriptors fds, a call for each run of
// consecutive numbers in it (as the kernel hands out the lowest free
// number, most are one run): the numbers between the first and the last
// of a run are all in it, none is another's.
func closeHeld(fds []int) {
	for i := 0; i < len(fds); {
		k := i + 1
		for k < len(fds) && fds[k] == fds[k-1]+1 {
			k++
		}
		if _, _, e := syscall.Syscall(sysCloseRange, uintptr(fds[i]), uintptr(fds[k-1]), 0); e != 0 {
			for _, fd := range fds[i:k] {
				syscall.Close(fd) // a kernel before 5.9
			}
		}
		i = k
	}
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
