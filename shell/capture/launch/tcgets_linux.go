//go:build linux && !(mips || mipsle || mips64 || mips64le || ppc || ppc64 || ppc64le)

package launch

// syscall lacks TCGETS and TCSETS; these are their values on the
// architectures with Linux's generic terminal ioctls.
const (
	getTermiosReq = 0x5401
	setTermiosReq = 0x5402
)
