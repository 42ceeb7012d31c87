//go:build linux && (ppc || ppc64 || ppc64le)

package launch

const (
	getTermiosReq = 0x402c7413
	setTermiosReq = 0x802c7414
)
