//go:build linux && sparc64

package launch

const (
	getTermiosReq = 0x40245408
	setTermiosReq = 0x80245409
)
