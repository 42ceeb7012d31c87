package eval

import (
	"fmt"
	"strings"
	"syscall"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// timeClause is time: the pipeline's real, user and system time on
// standard error, as TIMEFORMAT says (bash's default without it, POSIX's
// with -p).
func (r *Runner) timeClause(c *syntax.TimeClause) {
	var before syscall.Rusage
	var selfBefore syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &before)
	syscall.Getrusage(syscall.RUSAGE_SELF, &selfBefore)
	start := time.Now()
	if c.Stmt != nil {
		r.stmt(c.Stmt)
	}
	real := time.Since(start)
	var after, selfAfter syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &after)
	syscall.Getrusage(syscall.RUSAGE_SELF, &selfAfter)
	user := tvDur(after.Utime) - tvDur(before.Utime) + tvDur(selfAfter.Utime) - tvDur(selfBefore.Utime)
	sys := tvDur(after.Stime) - tvDur(before.Stime) + tvDur(selfAfter.Stime) - tvDur(selfBefore.Stime)
	format, ok := r.Get("TIMEFORMAT")
	if c.PosixFormat {
		format, ok = "real %2R\nuser %2U\nsys %2S", true
	}
	if !ok {
		format = "\nreal\t%3lR\nuser\t%3lU\nsys\t%3lS"
	}
	if format == "" {
		return
	}
	fmt.Fprintln(r.stderr(), formatTime(format, real, user, sys))
}

func tvDur(tv syscall.Timeval) time.Duration {
	return time.Duration(tv.Sec)*time.Second + time.Duration(tv.Usec)*time.Microsecond
}

// formatTime expands TIMEFORMAT: %[p][l]R|U|S and %P, %%.
func formatTime(format string, real, user, sys time.Duration) string {
	var sb strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			sb.WriteByte(c)
			continue
		}
		i++
		if format[i] == '%' {
			sb.WriteByte('%')
			continue
		}
		prec := 3
		if format[i] >= '0' && format[i] <= '9' {
			prec = int(format[i] - '0')
			if prec > 3 {
				prec = 3
			}
			i++
		}
		long := false
		if i < len(format) && format[i] == 'l' {
			long = true
			i++
		}
		if i >= len(format) {
			break
		}
		var d time.Duration
		switch format[i] {
		case 'R':
			d = real
		case 'U':
			d = user
		case 'S':
			d = sys
		case 'P':
			// bash: two decimals always, at most 100.
			pct := 0.0
			if real > 0 {
				pct = min(float64(user+sys)/float64(real)*100, 100)
			}
			fmt.Fprintf(&sb, "%.2f", pct)
			continue
		default:
			sb.WriteByte('%')
			sb.WriteByte(format[i])
			continue
		}
		secs := d.Seconds()
		if long {
			m := int(secs / 60)
			fmt.Fprintf(&sb, "%dm%.*fs", m, prec, secs-float64(m*60))
		} else {
			fmt.Fprintf(&sb, "%.*f", prec, secs)
		}
	}
	return sb.String()
}
