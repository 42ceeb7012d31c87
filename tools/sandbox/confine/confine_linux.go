package confine

import (
	"runtime"
	"syscall"
)

// Linux's numbers, the same on every architecture.
const (
	sysLandlockRestrictSelf = 446
	prSetNoNewPrivs         = 38
	rulesetFD               = 3
)

// Main confines this process with the ruleset on fd 3 and executes the
// program args names, if args (os.Args) ask for it; it returns only when
// they do not. A failure is said on stderr and ends the process with 126
// (127 when there is no such program), as a shell does.
func Main(args []string) {
	if !Wanted(args) {
		return
	}
	flags, ok := atou(args[2])
	if !ok {
		fail(args[3], "bad flags", 126)
	}
	path, argv := args[3], args[4:]
	// no_new_privs and the Landlock domain belong to the thread; exec
	// carries them over from the thread that calls it.
	runtime.LockOSThread()
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0, 0, 0, 0); e != 0 {
		fail(path, "no_new_privs: "+e.Error(), 126)
	}
	if _, _, e := syscall.RawSyscall(sysLandlockRestrictSelf, rulesetFD, uintptr(flags), 0); e != 0 {
		fail(path, "landlock_restrict_self: "+e.Error(), 126)
	}
	syscall.Close(rulesetFD)
	env := syscall.Environ()
	err := syscall.Exec(path, argv, env)
	if err == syscall.ENOEXEC {
		// A script without #!: a shell runs it, as bash does; qsh is
		// one, and this is qsh.
		err = syscall.Exec("/proc/self/exe", append([]string{argv[0], path}, argv[1:]...), env)
	}
	status := 126
	if err == syscall.ENOENT {
		status = 127
	}
	fail(path, err.Error(), status)
}

// fail says why path could not start, on stderr, and exits.
func fail(path, why string, status int) {
	syscall.Write(2, []byte("qsh: "+path+": "+why+"\n"))
	syscall.Exit(status)
}

func atou(s string) (uint32, bool) {
	var n uint32
	if s == "" || len(s) > 9 {
		return 0, false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint32(c-'0')
	}
	return n, true
}
