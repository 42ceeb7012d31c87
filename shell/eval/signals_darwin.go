package eval

// rtBounds: macOS has no real-time signals.
func rtBounds() (int, int) { return 0, 0 }
