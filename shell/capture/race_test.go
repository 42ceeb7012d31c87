//go:build race

package capture

// The race detector slows the relay tenfold: move less through it.
const bigOutput = 5_000_000
