//go:build linux && !amd64 && !arm64

package confine

// No seccomp filter is built for this architecture (see package sandbox).
const seccompNr = -1
