//go:build !linux

package confine

// Main does nothing where there is no jail: sandbox-exec confines
// programs on macOS, and nothing elsewhere.
func Main(args []string) {}
