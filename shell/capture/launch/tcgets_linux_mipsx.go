//go:build linux && (mips || mipsle || mips64 || mips64le)

package launch

const (
	getTermiosReq = 0x540d
	setTermiosReq = 0x540e
)
