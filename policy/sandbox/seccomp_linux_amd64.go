package sandbox

import "golang.org/x/sys/unix"

// The filter's view of amd64: its audit architecture, the bit that marks
// the x32 ABI's calls (refused), calls only it has, and where clone takes
// its flags.
const (
	auditArch     = 0xc000003e // AUDIT_ARCH_X86_64
	x32Bit        = 0x40000000
	cloneFlagsArg = 0
)

var archDenied = []uint32{unix.SYS_IOPL, unix.SYS_IOPERM, unix.SYS_USELIB}
