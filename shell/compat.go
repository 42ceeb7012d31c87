package shell

import (
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
	"mvdan.cc/sh/v3/interp"
)

// Profiles and rc files written for bash use builtins qsh has no use for
// (enable, hash). They
// are accepted quietly, so that such a file does not print errors at every
// start-up; what would give a wrong answer says so instead.

// quietBuiltins succeed and do nothing in qsh.
var quietBuiltins = map[string]bool{
	"enable": true,
}

// compatCall rewrites a call to a bash builtin or option qsh does not have
// into something that runs; ok is false when args need no rewriting. hc
// is the call's: it may run in a background statement (see
// [Shell.isFuncAt]).
func (s *Shell) compatCall(hc interp.HandlerContext, args []string) (out []string, ok bool) {
	switch name := args[0]; {
	case quietBuiltins[name] && !s.isFuncAt(hc, name):
		return []string{"builtin"}, true
	}
	return nil, false
}

// ulimits are the resources ulimit knows: flag, resource, unit (bytes per
// unit shown), description for -a.
var ulimits = []struct {
	flag byte
	res  int
	unit uint64
	desc string
}{
	{'c', unix.RLIMIT_CORE, 512, "core file size (blocks)"},
	{'d', unix.RLIMIT_DATA, 1024, "data seg size (kbytes)"},
	{'f', unix.RLIMIT_FSIZE, 512, "file size (blocks)"},
	{'l', unix.RLIMIT_MEMLOCK, 1024, "max locked memory (kbytes)"},
	{'m', unix.RLIMIT_RSS, 1024, "max memory size (kbytes)"},
	{'n', unix.RLIMIT_NOFILE, 1, "open files"},
	{'s', unix.RLIMIT_STACK, 1024, "stack size (kbytes)"},
	{'t', unix.RLIMIT_CPU, 1, "cpu time (seconds)"},
	{'u', unix.RLIMIT_NPROC, 1, "max user processes"},
	{'v', unix.RLIMIT_AS, 1024, "virtual memory (kbytes)"},
}

// ulimit shows or sets a resource limit of the shell and what it runs. In
// the assistant's subshell (run) a hard limit may not be lowered: the
// session could not raise it again (see [Shell.keep]).
func (b builtinIO) ulimit(args []string, run bool) int {
	soft, hard, all := false, false, false
	var flag byte = 'f'
	var value string
	for _, a := range args {
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			for _, c := range []byte(a[1:]) {
				switch c {
				case 'S':
					soft = true
				case 'H':
					hard = true
				case 'a':
					all = true
				default:
					flag = c
				}
			}
			continue
		}
		value = a
	}
	if !soft && !hard {
		soft, hard = value == "", value != ""
		if value != "" {
			soft = true
		}
	}
	show := func(v uint64, unit uint64) string {
		if v == unix.RLIM_INFINITY {
			return "unlimited"
		}
		return strconv.FormatUint(v/unit, 10)
	}
	for _, u := range ulimits {
		if !all && u.flag != flag {
			continue
		}
		var lim unix.Rlimit
		if err := unix.Getrlimit(u.res, &lim); err != nil {
			return b.fail(1, "%v", err)
		}
		cur := lim.Cur
		if hard && !soft {
			cur = lim.Max
		}
		if all {
			fmt.Fprintf(b.out, "%-28s(-%c) %s\n", u.desc, u.flag, show(cur, u.unit))
			continue
		}
		if value == "" {
			fmt.Fprintln(b.out, show(cur, u.unit))
			return 0
		}
		v := uint64(unix.RLIM_INFINITY)
		if value != "unlimited" {
			n, err := strconv.ParseUint(value, 10, 64)
			if err != nil {
				return b.fail(1, "%s: invalid number", value)
			}
			v = n * u.unit
		}
		if soft {
			lim.Cur = v
		}
		if hard {
			if run && v < lim.Max {
				return b.fail(1, "%s: the assistant's commands cannot lower the session's hard limit (ulimit -S sets the soft one)", u.desc)
			}
			lim.Max = v
		}
		if err := unix.Setrlimit(u.res, &lim); err != nil {
			return b.fail(1, "%s: cannot modify limit: %v", u.desc, err)
		}
		return 0
	}
	if !all {
		return b.fail(2, "-%c: invalid option", flag)
	}
	return 0
}
