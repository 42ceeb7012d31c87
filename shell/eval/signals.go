package eval

import (
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Signals by name and number, as kill and trap take and list them: the
// system's, and on Linux the real-time ones by bash's names (RTMIN+n,
// RTMAX-n).

// signalName is sig's name without SIG; "" for no signal.
func signalName(sig syscall.Signal) string {
	n := int(sig)
	rtMin, rtMax := rtBounds()
	if rtMax > 0 && n >= rtMin && n <= rtMax {
		switch mid := (rtMin + rtMax) / 2; {
		case n == rtMin:
			return "RTMIN"
		case n == rtMax:
			return "RTMAX"
		case n <= mid:
			return "RTMIN+" + strconv.Itoa(n-rtMin)
		default:
			return "RTMAX-" + strconv.Itoa(rtMax-n)
		}
	}
	return strings.TrimPrefix(unix.SignalName(sig), "SIG")
}

// signalNum reads a signal as a name (TERM, SIGTERM, any case, RTMIN+3) or
// a number.
func signalNum(s string) (syscall.Signal, bool) {
	if n, err := strconv.Atoi(s); err == nil {
		if n >= 0 && n <= maxSignal() && (n == 0 || signalName(syscall.Signal(n)) != "") {
			return syscall.Signal(n), true
		}
		return 0, false
	}
	name := strings.TrimPrefix(strings.ToUpper(s), "SIG")
	for n := 1; n <= maxSignal(); n++ {
		if signalName(syscall.Signal(n)) == name {
			return syscall.Signal(n), true
		}
	}
	return 0, false
}

func maxSignal() int {
	if _, rtMax := rtBounds(); rtMax > 0 {
		return rtMax
	}
	return 31
}
