//go:build linux && !amd64 && !arm64

package sandbox

// No filter is built for this architecture: the sandbox runs without its
// second wall, and says so.
const (
	auditArch     = 0
	x32Bit        = 0
	cloneFlagsArg = 0
)

var archDenied []uint32
