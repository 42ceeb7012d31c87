package shell

import (
	"fmt"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Signals by name and number, as kill and trap take and list them: the
// system's, and on Linux the real-time ones by bash's names (RTMIN+n,
// RTMAX-n).

// rtMin and rtMax are the real-time signals' bounds as the C library
// shows them (it keeps the first two for itself); 0 where there are none.
var rtMin, rtMax = rtBounds()

// signalName is sig's name without SIG; "" for no signal.
func signalName(sig syscall.Signal) string {
	n := int(sig)
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

// signalNum reads a signal as a name (`TERM`, `SIGTERM`, any case,
// `RTMIN+3`) or a number.
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
	if rtMax > 0 {
		return rtMax
	}
	return 31
}

// listSignals is kill -l and trap -l: every signal, five to a line, or
// the name of each number and the number of each name given.
func (b builtinIO) listSignals(args []string) int {
	if len(args) == 0 {
		var sb strings.Builder
		col := 0
		for n := 1; n <= maxSignal(); n++ {
			name := signalName(syscall.Signal(n))
			if name == "" {
				continue
			}
			fmt.Fprintf(&sb, "%2d) SIG%s", n, name)
			if col++; col%5 == 0 {
				sb.WriteByte('\n')
			} else {
				sb.WriteByte('\t')
			}
		}
		if col%5 != 0 {
			sb.WriteByte('\n')
		}
		b.out.Write([]byte(sb.String()))
		return 0
	}
	st := 0
	for _, a := range args {
		if n, err := strconv.Atoi(a); err == nil {
			if n > 128 {
				n -= 128
			}
			switch name := signalName(syscall.Signal(n)); {
			case n == 0:
				fmt.Fprintln(b.out, "EXIT")
			case n > 0 && n <= maxSignal() && name != "":
				fmt.Fprintln(b.out, name)
			default:
				st = b.fail(1, "%s: invalid signal specification", a)
			}
			continue
		}
		if strings.EqualFold(strings.TrimPrefix(strings.ToUpper(a), "SIG"), "EXIT") {
			fmt.Fprintln(b.out, 0)
			continue
		}
		sig, ok := signalNum(a)
		if !ok {
			st = b.fail(1, "%s: invalid signal specification", a)
			continue
		}
		fmt.Fprintln(b.out, int(sig))
	}
	return st
}
