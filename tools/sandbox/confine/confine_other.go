//go:build !linux

package confine

// Main does nothing where there is no Landlock: sandbox-exec confines
// programs on macOS, and nothing elsewhere.
func Main(args []string) {}
