package eval

// rtBounds are glibc's SIGRTMIN and SIGRTMAX: the kernel's 32 to 64, less
// the two the C library keeps.
func rtBounds() (int, int) { return 34, 64 }

// stdPath is the C library's confstr(_CS_PATH), which command -p searches.
const stdPath = "/bin:/usr/bin"
