package eval

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// umask, ulimit and times: what the shell's programs get from the
// process. Subshells run inside qsh's process, so a umask or a limit is
// the runner's own (r.umask, r.limits), given to each program it starts
// (see [Runner.forkExec]) and never leaking out of a subshell.
//
// The main shell's umask and limits are also the process's, as bash's
// are its own: a file-size limit stops the shell's own redirections, a
// CPU limit the shell. They are set on the process under execMu, the
// lock programs start under. Two are kept from the process and given only
// to programs: virtual memory (-v) and the data segment (-d), which the
// Go runtime reserves up front and would crash the shell for, with no
// bash behaviour gained.

func builtinUmask(b *B) int {
	r := b.R
	f, args, ok := b.flags("pS", false)
	if !ok {
		return 2
	}
	if len(args) == 0 {
		var s string
		if f.has('p') {
			s = "umask "
			if f.has('S') {
				s = "umask -S "
			}
		}
		if f.has('S') {
			s += symbolicUmask(r.umask) + "\n"
		} else {
			s += fmt.Sprintf("%04o\n", r.umask)
		}
		return writeOut(b, []byte(s), 0)
	}
	var m os.FileMode
	if a := args[0]; a != "" && a[0] >= '0' && a[0] <= '9' {
		n, ok := readOctal(a)
		if !ok {
			b.Errorf("%s: octal number out of range", a)
			return 1
		}
		m = os.FileMode(n) & 0o777
	} else {
		allowed, err := parseSymbolicMode(a, ^r.umask&0o777)
		if err != nil {
			b.Errorf("%s", err.Error())
			return 1
		}
		m = ^allowed & 0o777
	}
	r.umask = m
	if r.subshell == 0 {
		// Under the lock a program's start holds while it sets the
		// process's umask for a subshell and puts it back.
		r.sess.execMu.Lock()
		syscall.Umask(int(m))
		r.sess.procUmask = m
		r.sess.execMu.Unlock()
	}
	if f.has('S') {
		return writeOut(b, []byte(symbolicUmask(m)+"\n"), 0)
	}
	return 0
}

// readOctal reads umask's octal mode: octal digits only, at most 07777.
func readOctal(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '7' {
			return 0, false
		}
		n = n*8 + int(s[i]-'0')
		if n > 0o7777 {
			return 0, false
		}
	}
	return n, s != ""
}

func symbolicUmask(m os.FileMode) string {
	perm := func(shift uint) string {
		s := ""
		bits := (^m >> shift) & 7
		if bits&4 != 0 {
			s += "r"
		}
		if bits&2 != 0 {
			s += "w"
		}
		if bits&1 != 0 {
			s += "x"
		}
		return s
	}
	return "u=" + perm(6) + ",g=" + perm(3) + ",o=" + perm(0)
}

// parseSymbolicMode applies a symbolic mode (u=rwx,g+w,…) to the
// permission bits bits, as bash's umask reads it: clauses of who (ugoa),
// one operator (+-=) and permissions (rwx), separated by commas.
func parseSymbolicMode(mode string, bits os.FileMode) (os.FileMode, error) {
	s := mode
	at := func(i int) byte {
		if i < len(s) {
			return s[i]
		}
		return 0 // bash's C string ends in a NUL, which it prints
	}
	i := 0
	for {
		var who, perm os.FileMode
		for ; i < len(s) && strings.IndexByte("agou", s[i]) >= 0; i++ {
			switch s[i] {
			case 'u':
				who |= 0o700
			case 'g':
				who |= 0o070
			case 'o':
				who |= 0o007
			case 'a':
				who |= 0o777
			}
		}
		op := at(i)
		i++
		if op != '+' && op != '-' && op != '=' {
			return 0, fmt.Errorf("`%c': invalid symbolic mode operator", op)
		}
		for ; i < len(s) && strings.IndexByte("rwx", s[i]) >= 0; i++ {
			switch s[i] {
			case 'r':
				perm |= 0o444
			case 'w':
				perm |= 0o222
			case 'x':
				perm |= 0o111
			}
		}
		if c := at(i); c != 0 && c != ',' {
			return 0, fmt.Errorf("`%c': invalid symbolic mode character", c)
		}
		if who != 0 {
			perm &= who
		}
		switch op {
		case '+':
			bits |= perm
		case '-':
			bits &^= perm
		case '=':
			if who == 0 {
				who = 0o777
			}
			bits = bits&^who | perm
		}
		if i >= len(s) {
			return bits, nil
		}
		i++ // the comma
	}
}

// ulimitRes is a resource ulimit knows, in the order -a lists them.
type ulimitRes struct {
	flag   byte
	res    int // -1: the pipe size, which cannot be set
	factor uint64
	desc   string
	units  string
}

// posixBlock is the unit of file and core sizes: 1024 bytes, or in POSIX
// mode 512, as bash counts them.
const posixBlock = 0

// factor is the bytes of one unit of u's values.
func (r *Runner) factor(u *ulimitRes) uint64 {
	switch {
	case u.factor != posixBlock:
		return u.factor
	case r.opts.set[optPosix]:
		return 512
	}
	return 1024
}

// pipeSize is what ulimit -p shows: the size of an atomic pipe write.
const pipeSize = 4096

func findLimit(flag byte) *ulimitRes {
	for i := range ulimitTable {
		if ulimitTable[i].flag == flag {
			return &ulimitTable[i]
		}
	}
	return nil
}

// limit is the shell's limit of a resource: what ulimit set in it, else
// the process's.
func (r *Runner) limit(u *ulimitRes) (unix.Rlimit, error) {
	if u.res < 0 {
		return unix.Rlimit{Cur: pipeSize, Max: pipeSize}, nil
	}
	for _, l := range r.limits {
		if l.resource == u.res {
			return l.lim, nil
		}
	}
	var lim unix.Rlimit
	err := unix.Getrlimit(u.res, &lim)
	return lim, err
}

// setLimit makes lim the shell's limit of u's resource, after the checks
// setrlimit(2) would make: the soft limit within the hard one, and a hard
// limit raised only with the privilege to (tried on the process itself
// when it goes past the process's own, where the kernel has the last
// word; nothing is lowered by the trial).
func (r *Runner) setLimit(u *ulimitRes, lim unix.Rlimit) error {
	if u.res < 0 || lim.Cur > lim.Max {
		return unix.EINVAL
	}
	cur, err := r.limit(u)
	if err != nil {
		return err
	}
	if lim.Max > cur.Max {
		var proc unix.Rlimit
		if err := unix.Getrlimit(u.res, &proc); err != nil {
			return err
		}
		if lim.Max > proc.Max {
			trial := unix.Rlimit{Cur: proc.Cur, Max: lim.Max}
			if err := unix.Setrlimit(u.res, &trial); err != nil {
				return err
			}
			unix.Setrlimit(u.res, &proc)
		} else if !canRaiseLimits() {
			return unix.EPERM
		}
	}
	limits := make([]rlimit, 0, len(r.limits)+1)
	for _, l := range r.limits {
		if l.resource != u.res {
			limits = append(limits, l)
		}
	}
	r.limits = append(limits, rlimit{u.res, lim})
	if r.subshell == 0 && !r.dry && !r.sess.keepProcLimits && u.res != unix.RLIMIT_AS && u.res != unix.RLIMIT_DATA {
		// The shell's own process, as bash's (see above). syscall's
		// Setrlimit, so that Go knows the open-files limit it gives
		// programs.
		r.sess.execMu.Lock()
		err := syscall.Setrlimit(u.res, &syscall.Rlimit{Cur: lim.Cur, Max: lim.Max})
		if err == nil {
			r.sess.procLimits = true
		}
		r.sess.execMu.Unlock()
		if err != nil {
			return err
		}
	}
	return nil
}

const (
	limitSoft = 1
	limitHard = 2
)

func builtinUlimit(b *B) int {
	r := b.R
	type ulcmd struct {
		flag   byte
		arg    string
		hasArg bool
	}
	var cmds []ulcmd
	mode, all := 0, false
	args := b.Args[1:]
	// Each resource's letter takes an optional argument: the rest of
	// the word, or the next word unless it starts with '-'.
options:
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			args = args[1:]
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		args = args[1:]
		for i := 1; i < len(a); i++ {
			c := a[i]
			switch {
			case c == 'a':
				all = true
			case c == 'S':
				mode |= limitSoft
			case c == 'H':
				mode |= limitHard
			case findLimit(c) != nil:
				cmd := ulcmd{flag: c}
				if i+1 < len(a) {
					cmd.arg, cmd.hasArg = a[i+1:], true
				} else if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
					cmd.arg, cmd.hasArg = args[0], true
					args = args[1:]
				}
				cmds = append(cmds, cmd)
				continue options
			default:
				return b.UsageError("-" + string(c))
			}
		}
	}
	if all {
		if mode == 0 {
			mode = limitSoft
		}
		var sb strings.Builder
		for i := range ulimitTable {
			u := &ulimitTable[i]
			lim, err := r.limit(u)
			if err != nil {
				b.Errorf("%s: cannot get limit: %s", u.desc, errText(err))
				continue
			}
			v := lim.Cur
			if mode&limitSoft == 0 {
				v = lim.Max
			}
			sb.WriteString(limitLine(u, v, r.factor(u), true))
		}
		return writeOut(b, []byte(sb.String()), 0)
	}
	if len(cmds) == 0 {
		// `ulimit N` is `ulimit -f N`.
		cmd := ulcmd{flag: 'f'}
		if len(args) > 0 {
			cmd.arg, cmd.hasArg = args[0], true
			args = args[1:]
		}
		cmds = append(cmds, cmd)
	}
	if last := &cmds[len(cmds)-1]; len(args) > 0 && !last.hasArg {
		// An operand is the last resource's value, as POSIX says.
		last.arg, last.hasArg = args[0], true
	}
	for _, c := range cmds {
		if st := r.ulimitOne(b, findLimit(c.flag), c.arg, c.hasArg, mode, len(cmds) > 1); st != 0 {
			return st
		}
	}
	return 0
}

// ulimitOne shows or sets one resource's limit.
func (r *Runner) ulimitOne(b *B, u *ulimitRes, arg string, setting bool, mode int, multiple bool) int {
	if mode == 0 {
		mode = limitSoft
		if setting {
			mode = limitSoft | limitHard
		}
	}
	lim, err := r.limit(u)
	if err != nil {
		b.Errorf("%s: cannot get limit: %s", u.desc, errText(err))
		return 1
	}
	if !setting {
		v := lim.Cur
		if mode&limitSoft == 0 {
			v = lim.Max
		}
		return writeOut(b, []byte(limitLine(u, v, r.factor(u), multiple)), 0)
	}
	var v uint64
	switch {
	case arg == "hard":
		v = lim.Max
	case arg == "soft":
		v = lim.Cur
	case arg == "unlimited":
		v = unix.RLIM_INFINITY
	case arg != "" && strings.Trim(arg, "0123456789") == "":
		var n uint64
		for i := 0; i < len(arg); i++ {
			n = n*10 + uint64(arg[i]-'0') // wraps as bash's rlim_t does
		}
		f := r.factor(u)
		v = n * f
		if v/f != n {
			b.Errorf("%s: limit out of range", arg)
			return 1
		}
	default:
		b.Errorf("%s: invalid number", arg)
		return 1
	}
	if !canRaiseLimits() && v == unix.RLIM_INFINITY && mode&limitHard == 0 && lim.Cur <= lim.Max {
		v = lim.Max // an unprivileged "unlimited" soft limit is the hard one
	}
	if mode&limitSoft != 0 {
		lim.Cur = v
	}
	if mode&limitHard != 0 {
		lim.Max = v
	}
	if err := r.setLimit(u, lim); err != nil {
		b.Errorf("%s: cannot modify limit: %s", u.desc, errText(err))
		return 1
	}
	return 0
}

// limitLine is one limit as ulimit prints it, with its description
// when several are shown.
func limitLine(u *ulimitRes, v, factor uint64, desc bool) string {
	var s string
	if desc {
		unit := "(-" + string(u.flag) + ") "
		if u.units != "" {
			unit = "(" + u.units + ", -" + string(u.flag) + ") "
		}
		s = fmt.Sprintf("%-20s %20s", u.desc, unit)
	}
	if v == unix.RLIM_INFINITY {
		return s + "unlimited\n"
	}
	return s + strconv.FormatUint(v/factor, 10) + "\n"
}

// builtinTimes prints the user and system time of the shell, then of the
// programs it waited for.
func builtinTimes(b *B) int {
	var self, kids unix.Rusage
	unix.Getrusage(unix.RUSAGE_SELF, &self)
	unix.Getrusage(unix.RUSAGE_CHILDREN, &kids)
	s := fmt.Sprintf("%s %s\n%s %s\n", minSec(self.Utime), minSec(self.Stime), minSec(kids.Utime), minSec(kids.Stime))
	return writeOut(b, []byte(s), 0)
}

// minSec is a time as bash's times shows it: 0m0.012s.
func minSec(tv unix.Timeval) string {
	d := time.Duration(tv.Nano())
	m := int(d / time.Minute)
	d -= time.Duration(m) * time.Minute
	return fmt.Sprintf("%dm%d.%03ds", m, int(d/time.Second), int(d%time.Second/time.Millisecond))
}
