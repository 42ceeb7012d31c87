package eval

import (
	"os"

	"golang.org/x/sys/unix"
)

// ulimitTable is macOS's resources, as bash lists them there.
var ulimitTable = []ulimitRes{
	{'c', unix.RLIMIT_CORE, posixBlock, "core file size", "blocks"},
	{'d', unix.RLIMIT_DATA, 1024, "data seg size", "kbytes"},
	{'f', unix.RLIMIT_FSIZE, posixBlock, "file size", "blocks"},
	{'l', unix.RLIMIT_MEMLOCK, 1024, "max locked memory", "kbytes"},
	{'m', unix.RLIMIT_RSS, 1024, "max memory size", "kbytes"},
	{'n', unix.RLIMIT_NOFILE, 1, "open files", ""},
	{'p', -1, 512, "pipe size", "512 bytes"},
	{'s', unix.RLIMIT_STACK, 1024, "stack size", "kbytes"},
	{'t', unix.RLIMIT_CPU, 1, "cpu time", "seconds"},
	{'u', unix.RLIMIT_NPROC, 1, "max user processes", ""},
	{'v', unix.RLIMIT_AS, 1024, "virtual memory", "kbytes"},
}

// canRaiseLimits reports whether the process may raise hard limits.
func canRaiseLimits() bool { return os.Geteuid() == 0 }
