//go:build !race

package capture

// bigOutput is how much the end-to-end test prints through the proxy.
const bigOutput = 50_000_000
