package eval

// rtBounds: macOS has no real-time signals.
func rtBounds() (int, int) { return 0, 0 }

// stdPath is the C library's confstr(_CS_PATH), which command -p searches.
const stdPath = "/usr/bin:/bin:/usr/sbin:/sbin"
