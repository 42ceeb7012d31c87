package sandbox

// The filter's view of arm64: its audit architecture, where clone takes
// its flags; no second ABI, no calls of its own to refuse.
const (
	auditArch     = 0xc00000b7 // AUDIT_ARCH_AARCH64
	x32Bit        = 0
	cloneFlagsArg = 0
)

var archDenied []uint32
