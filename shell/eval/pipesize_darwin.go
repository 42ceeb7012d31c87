package eval

import "os"

// pipeCapacity is how much a pipe holds before a write blocks: macOS starts
// a pipe at 16 KiB.
func pipeCapacity(*os.File) int { return 16 << 10 }
