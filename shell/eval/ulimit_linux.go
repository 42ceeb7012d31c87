package eval

import (
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// ulimitTable is Linux's resources, as bash lists them there.
var ulimitTable = []ulimitRes{
	{'R', unix.RLIMIT_RTTIME, 1, "real-time non-blocking time", "microseconds"},
	{'c', unix.RLIMIT_CORE, posixBlock, "core file size", "blocks"},
	{'d', unix.RLIMIT_DATA, 1024, "data seg size", "kbytes"},
	{'e', unix.RLIMIT_NICE, 1, "scheduling priority", ""},
	{'f', unix.RLIMIT_FSIZE, posixBlock, "file size", "blocks"},
	{'i', unix.RLIMIT_SIGPENDING, 1, "pending signals", ""},
	{'l', unix.RLIMIT_MEMLOCK, 1024, "max locked memory", "kbytes"},
	{'m', unix.RLIMIT_RSS, 1024, "max memory size", "kbytes"},
	{'n', unix.RLIMIT_NOFILE, 1, "open files", ""},
	{'p', -1, 512, "pipe size", "512 bytes"},
	{'q', unix.RLIMIT_MSGQUEUE, 1, "POSIX message queues", "bytes"},
	{'r', unix.RLIMIT_RTPRIO, 1, "real-time priority", ""},
	{'s', unix.RLIMIT_STACK, 1024, "stack size", "kbytes"},
	{'t', unix.RLIMIT_CPU, 1, "cpu time", "seconds"},
	{'u', unix.RLIMIT_NPROC, 1, "max user processes", ""},
	{'v', unix.RLIMIT_AS, 1024, "virtual memory", "kbytes"},
	{'x', unix.RLIMIT_LOCKS, 1, "file locks", ""},
}

// canRaiseLimits reports whether the process may raise hard limits: it has
// CAP_SYS_RESOURCE, which root in a container may lack.
func canRaiseLimits() bool {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return os.Geteuid() == 0
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "CapEff:"); ok {
			caps, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			return err == nil && caps&(1<<unix.CAP_SYS_RESOURCE) != 0
		}
	}
	return os.Geteuid() == 0
}
