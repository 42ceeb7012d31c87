package confine

import (
	"runtime"
	"sync"
	"syscall"
	"unsafe"
)

// The jail: qsh started with [JailArg], in new namespaces (or, where the
// kernel refuses them, without), with its control channel on fd 3. It
// reads a plan, sets up its mounts and network, confines itself
// (capabilities dropped, no_new_privs, the Landlock ruleset, the seccomp
// filter), says it is ready, then starts the programs qsh asks for as its
// children, reports their exits, and kills them all when asked or when
// qsh goes away. In a PID namespace it is process 1: when it ends, the
// kernel kills whatever is left.

// Linux's numbers that package syscall lacks, the same on every
// architecture.
const (
	sysOpenTree     = 428
	sysMoveMount    = 429
	sysSeccomp      = seccompNr
	openTreeClone   = 1
	atRecursive     = 0x8000
	moveMountFEmpty = 0x4
	prSetDumpable   = 4
	prCapbsetDrop   = 24
	prSetSecurebits = 28
	prSetSubreaper  = 36
	prCapAmbient    = 47
	ambientClearAll = 4
	// SECBIT_NOROOT, NO_SETUID_FIXUP and NO_CAP_AMBIENT_RAISE, each locked,
	// and KEEP_CAPS locked off: a root program gains nothing by exec.
	securebits       = 0x1 | 0x2 | 0x4 | 0x8 | 0x20 | 0x40 | 0x80
	seccompSetFilter = 1
	seccompTsync     = 1
	pAll             = 0
	wNoWait          = 0x1000000
	siocSIFFLAGS     = 0x8914
	stRDONLY         = 0x1
	stNOSUID         = 0x2
	stNODEV          = 0x4
	stNOEXEC         = 0x8
	stNOATIME        = 0x400
	stNODIRATIME     = 0x800
	stRELATIME       = 0x1000
)

type supervisor struct {
	ctl        *channel
	namespaced bool

	mu      sync.Mutex
	procs   map[int]string // process ID → the id qsh gave it
	early   map[int]int    // exits reaped before their start was recorded
	forking int
	more    chan struct{} // a child was started: the reaper has something to wait for

	// pre is the ruleset prebuilt before the plan (see MsgPrebuild), -1
	// without one; preOf what it handles.
	pre   int
	preOf Ruleset
}

// jail is the jail's whole life; it does not return.
func jail() {
	// This goroutine stays on this thread, which alone is confined by
	// Landlock (the kernel applies it to the calling thread) and forks
	// every program, which inherits it.
	runtime.LockOSThread()
	s := &supervisor{ctl: &channel{fd: ctlFD}, procs: map[int]string{}, early: map[int]int{}, more: make(chan struct{}, 1),
		pre: -1}
	s.ctl.write(MsgHello)
	plan, fds, err := s.ctl.read()
	closeAll(fds)
	if err == nil && len(plan) > 0 && plan[0] == MsgPrebuild {
		s.prebuild(plan[1:])
		plan, fds, err = s.ctl.read()
		closeAll(fds)
	}
	if err != nil || len(plan) < 3 || plan[0] != MsgPlan {
		syscall.Exit(125)
	}
	port, notes, why := s.setUp(plan)
	if why != "" {
		s.ctl.write(MsgFail, why)
		syscall.Exit(125)
	}
	go s.reap()
	s.ctl.write(append([]string{MsgReady, port}, notes...)...)
	for {
		m, fds, err := s.ctl.read()
		if err != nil {
			break // qsh closed the channel, or died
		}
		switch {
		case len(m) >= 4 && m[0] == MsgStart:
			s.start(m, fds)
		case len(m) == 1 && m[0] == MsgReset:
			s.killAll()
			s.ctl.write(MsgReset)
		case len(m) == 2 && m[0] == MsgSignal:
			if sig, ok := Atoi(m[1]); ok && sig > 0 && sig < 65 {
				s.signal(syscall.Signal(sig))
			}
		default:
			closeAll(fds)
		}
	}
	s.killAll()
	syscall.Exit(0)
}

// setUp carries out the plan: the steps, then the confinement. It
// returns the bridge's port, the notes of steps that could not be done,
// or why the jail cannot be.
func (s *supervisor) setUp(plan []string) (port string, notes []string, why string) {
	s.namespaced = plan[1] == "1"
	filter := plan[2]
	steps := plan[3:]
	if len(steps) > 0 && !s.namespaced {
		return "", nil, "bad plan: steps without namespaces"
	}
	if s.namespaced {
		// Mounts made here must never land in the user's own namespace:
		// qsh as root started by hand with this argument would cover
		// the machine's /tmp.
		for _, ns := range []string{"mnt", "user"} {
			if self, parent := nsLink("self", ns), nsLink(Itoa(syscall.Getppid()), ns); self == "" || self == parent {
				return "", nil, "not in a " + ns + " namespace of its own"
			}
		}
		if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
			return "", nil, "mounts: " + err.Error()
		}
	}
	var kept []int
	failed := false
	for len(steps) > 0 {
		if len(steps) < 4 {
			return "", nil, "bad plan: a step is cut short"
		}
		kind, mode, note := steps[0], steps[1], steps[2]
		n, ok := Atoi(steps[3])
		if !ok || n < 0 || len(steps) < 4+n {
			return "", nil, "bad plan: " + kind
		}
		args := steps[4 : 4+n]
		steps = steps[4+n:]
		if mode == ModeElse && !failed || mode == ModeThen && failed {
			continue
		}
		err := s.step(kind, args, &kept, &port)
		failed = err != nil
		switch {
		case err == nil:
		case mode == ModeTry || mode == ModeThen:
			notes = append(notes, note+": "+err.Error())
		default:
			return "", nil, note + ": " + err.Error()
		}
	}
	for _, fd := range kept {
		syscall.Close(fd)
	}
	// The ruleset comes after the plan: qsh makes it while the steps are
	// done.
	m, fds, err := s.ctl.read()
	closeAll(fds)
	if err != nil || len(m) < 1 || m[0] != MsgRules && m[0] != MsgMoreRules {
		return "", nil, "bad plan: no ruleset"
	}
	ruleset, rest, ok := parseRuleset(m[1:])
	if !ok || len(rest) > 0 {
		return "", nil, "bad plan: the ruleset"
	}
	pre := s.pre
	s.pre = -1
	if m[0] == MsgRules && pre >= 0 {
		syscall.Close(pre)
		pre = -1
	}
	if m[0] == MsgMoreRules && (pre < 0 || ruleset.HandledFS != s.preOf.HandledFS ||
		ruleset.HandledNet != s.preOf.HandledNet || ruleset.Scoped != s.preOf.Scoped) {
		return "", nil, "bad plan: more rules for a ruleset not prebuilt"
	}
	if why := s.confine(ruleset, pre, filter); why != "" {
		return "", nil, why
	}
	return port, notes, ""
}

// prebuild makes the ruleset of the fields f, a ruleset's (see
// MsgPrebuild), and says whether it could.
func (s *supervisor) prebuild(f []string) {
	r, rest, ok := parseRuleset(f)
	if ok && len(rest) == 0 {
		fd, e := r.create()
		if e == 0 && r.add(fd) != nil {
			syscall.Close(fd)
			fd, e = -1, syscall.EINVAL
		}
		if e == 0 {
			s.pre, s.preOf = fd, Ruleset{HandledFS: r.HandledFS, HandledNet: r.HandledNet, Scoped: r.Scoped}
		}
	}
	made := "0"
	if s.pre >= 0 {
		made = "1"
	}
	s.ctl.write(MsgPrebuilt, made)
}

// step does one step of the plan.
func (s *supervisor) step(kind string, a []string, kept *[]int, port *string) error {
	num := func(i int) uintptr {
		n, _ := Atoi(a[i])
		return uintptr(n)
	}
	switch {
	case kind == StepMount && len(a) == 5:
		return syscall.Mount(a[0], a[1], a[2], num(3), a[4])
	case kind == StepMkdir && len(a) == 2:
		if err := mkdirAll(a[0]); err != nil {
			return err
		}
		return syscall.Chmod(a[0], uint32(num(1)))
	case kind == StepFile && len(a) == 2:
		if err := mkdirAll(dirOf(a[0])); err != nil {
			return err
		}
		fd, err := syscall.Open(a[0], syscall.O_CREAT|syscall.O_WRONLY|syscall.O_CLOEXEC, 0o600)
		if err != nil {
			return err
		}
		syscall.Close(fd)
		return syscall.Chmod(a[0], uint32(num(1)))
	case kind == StepRemount && len(a) == 2:
		// The flags the mount has must be kept: those it got from the
		// user's namespace are locked, and leaving one out is EPERM.
		var st syscall.Statfs_t
		if err := syscall.Statfs(a[0], &st); err != nil {
			return err
		}
		keep := uintptr(0)
		for _, f := range [][2]uintptr{{stNOSUID, syscall.MS_NOSUID}, {stNODEV, syscall.MS_NODEV},
			{stNOEXEC, syscall.MS_NOEXEC}, {stNOATIME, syscall.MS_NOATIME}, {stNODIRATIME, syscall.MS_NODIRATIME},
			{stRELATIME, syscall.MS_RELATIME}} {
			if uintptr(st.Flags)&f[0] != 0 {
				keep |= f[1]
			}
		}
		return syscall.Mount("", a[0], "", syscall.MS_BIND|syscall.MS_REMOUNT|keep|num(1), "")
	case kind == StepClone && len(a) == 1:
		p, err := syscall.BytePtrFromString(a[0])
		if err != nil {
			return err
		}
		fd, _, e := syscall.Syscall(sysOpenTree, uintptr(atFDCWD), uintptr(unsafe.Pointer(p)),
			openTreeClone|syscall.O_CLOEXEC|atRecursive)
		if e != 0 {
			return e
		}
		*kept = append(*kept, int(fd))
		return nil
	case kind == StepPlace && len(a) == 2:
		i := int(num(0))
		if i < 0 || i >= len(*kept) {
			return syscall.EINVAL
		}
		var st syscall.Stat_t
		if err := syscall.Fstat((*kept)[i], &st); err != nil {
			return err
		}
		if st.Mode&syscall.S_IFMT == syscall.S_IFDIR {
			if err := mkdirAll(a[1]); err != nil {
				return err
			}
		} else if err := s.step(StepFile, []string{a[1], "384"}, kept, port); err != nil {
			return err
		}
		empty, _ := syscall.BytePtrFromString("")
		to, err := syscall.BytePtrFromString(a[1])
		if err != nil {
			return err
		}
		_, _, e := syscall.Syscall6(sysMoveMount, uintptr((*kept)[i]), uintptr(unsafe.Pointer(empty)),
			uintptr(atFDCWD), uintptr(unsafe.Pointer(to)), moveMountFEmpty, 0)
		if e != 0 {
			return e
		}
		return nil
	case kind == StepLoopback && len(a) == 0:
		return loopbackUp()
	case kind == StepBridge && len(a) == 1:
		p, err := bridge(a[0])
		if err != nil {
			return err
		}
		*port = Itoa(p)
		return nil
	}
	return syscall.EINVAL
}

// atFDCWD is AT_FDCWD, as an int the conversion to uintptr keeps.
var atFDCWD = -100

// confine drops the jail's privileges and applies the Landlock ruleset
// (its rules added to the ruleset pre, if pre is not -1) and the seccomp
// filter. Its children inherit all of it: no capabilities, even as root
// (in a user namespace that maps the user's root, or in the machine's
// own), no_new_privs, the same Landlock domain and filter.
func (s *supervisor) confine(ruleset Ruleset, pre int, filter string) string {
	fail := func(what string, e syscall.Errno) string { return what + ": " + e.Error() }
	// Without namespaces an ordinary user has nothing to drop, and no
	// right to change the bounding set: only failures that leave
	// capabilities count.
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetSecurebits, securebits, 0); e != 0 && s.namespaced {
		return fail("securebits", e)
	}
	for c := uintptr(0); c < 64; c++ {
		if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prCapbsetDrop, c, 0); e == syscall.EINVAL {
			break
		} else if e != 0 && s.namespaced {
			return fail("bounding set", e)
		}
	}
	syscall.RawSyscall6(syscall.SYS_PRCTL, prCapAmbient, ambientClearAll, 0, 0, 0, 0)
	hdr := struct{ version, pid uint32 }{0x20080522, 0} // _LINUX_CAPABILITY_VERSION_3
	var data [2]struct{ effective, permitted, inheritable uint32 }
	if _, _, e := syscall.RawSyscall(syscall.SYS_CAPSET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&data[0])), 0); e != 0 {
		return fail("capabilities", e)
	}
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0, 0, 0, 0); e != 0 {
		return fail("no_new_privs", e)
	}
	if pre < 0 {
		if err := ruleset.apply(); err != nil {
			return "landlock: " + err.Error()
		}
	} else {
		err := ruleset.add(pre)
		if err == nil {
			err = restrict(pre)
		}
		syscall.Close(pre)
		if err != nil {
			return "landlock: " + err.Error()
		}
	}
	if filter != "" {
		prog := struct {
			n   uint16
			ins *byte
		}{uint16(len(filter) / 8), unsafe.StringData(filter)}
		// Every thread: the bridge's too.
		if _, _, e := syscall.RawSyscall(sysSeccomp, seccompSetFilter, seccompTsync, uintptr(unsafe.Pointer(&prog))); e != 0 {
			return fail("seccomp", e)
		}
	}
	// Its memory is not for its children to read or write through /proc.
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetDumpable, 0, 0)
	if !s.namespaced {
		// Orphans come back to the jail, so that it can kill them.
		syscall.RawSyscall(syscall.SYS_PRCTL, prSetSubreaper, 1, 0)
	}
	return ""
}

// start starts a program: m is start, id, path, dir, argc, argv…, env…;
// fds its standard input, output and error.
func (s *supervisor) start(m []string, fds []int) {
	defer closeAll(fds)
	id, path, dir := m[1], m[2], m[3]
	argc, ok := Atoi(m[4])
	if !ok || argc < 1 || len(m) < 5+argc || len(fds) != 3 {
		s.ctl.write(MsgError, id, Itoa(int(syscall.EINVAL)), "exec")
		return
	}
	argv, env := m[5:5+argc], m[5+argc:]
	var st syscall.Stat_t
	if err := syscall.Stat(dir, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		e := syscall.ENOTDIR
		if err != nil {
			e = err.(syscall.Errno)
		}
		s.ctl.write(MsgError, id, Itoa(int(e)), "dir")
		return
	}
	attr := &syscall.ProcAttr{Dir: dir, Env: env, Files: []uintptr{uintptr(fds[0]), uintptr(fds[1]), uintptr(fds[2])},
		Sys: &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}}
	s.mu.Lock()
	s.forking++
	s.mu.Unlock()
	pid, err := syscall.ForkExec(path, argv, attr)
	if err == syscall.ENOEXEC {
		// A script without #!: a shell runs it, as bash does; qsh is one.
		pid, err = syscall.ForkExec("/proc/self/exe", append([]string{argv[0], path}, argv[1:]...), attr)
	}
	s.mu.Lock()
	s.forking--
	if err != nil {
		s.mu.Unlock()
		e, _ := err.(syscall.Errno)
		s.ctl.write(MsgError, id, Itoa(int(e)), "exec")
		return
	}
	s.ctl.write(MsgPid, id, Itoa(pid))
	if status, ok := s.early[pid]; ok {
		delete(s.early, pid)
		s.mu.Unlock()
		s.ctl.write(MsgExit, id, Itoa(status))
	} else {
		s.procs[pid] = id
		s.mu.Unlock()
	}
	select {
	case s.more <- struct{}{}:
	default:
	}
}

// reap waits for every child, the programs and the orphans given to the
// jail, and reports the programs' exits.
func (s *supervisor) reap() {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		if err == syscall.ECHILD {
			<-s.more
			continue
		}
		if err != nil || pid <= 0 {
			continue
		}
		s.mu.Lock()
		id, known := s.procs[pid]
		delete(s.procs, pid)
		if !known && s.forking > 0 {
			s.early[pid] = int(ws)
		}
		s.mu.Unlock()
		if known {
			s.ctl.write(MsgExit, id, Itoa(int(ws)))
		}
	}
}

// signal sends sig to every process of the jail but itself.
func (s *supervisor) signal(sig syscall.Signal) {
	if s.namespaced {
		syscall.Kill(-1, sig)
		return
	}
	for _, pid := range children() {
		syscall.Kill(-pid, sig)
	}
}

// killAll kills every process of the jail but itself, and returns once
// they are gone: in a PID namespace all of them at once; without one,
// its children and what they left to it, until none is left.
func (s *supervisor) killAll() {
	for i := 0; i < 20000; i++ {
		if s.namespaced {
			syscall.Kill(-1, syscall.SIGKILL)
		} else {
			for _, pid := range children() {
				syscall.Kill(-pid, syscall.SIGKILL)
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		if !hasChildren() {
			return
		}
		ts := syscall.Timespec{Nsec: 100_000}
		syscall.Nanosleep(&ts, nil)
	}
}

// hasChildren reports whether the jail has a child, alive or not yet
// reaped, without reaping it.
func hasChildren() bool {
	var info [128]byte
	_, _, e := syscall.Syscall6(syscall.SYS_WAITID, pAll, 0, uintptr(unsafe.Pointer(&info[0])),
		syscall.WEXITED|syscall.WNOHANG|wNoWait, 0, 0)
	return e != syscall.ECHILD
}

// children are the jail's child processes, as /proc lists them per thread.
func children() []int {
	var out []int
	dir, err := syscall.Open("/proc/self/task", syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer syscall.Close(dir)
	buf := make([]byte, 4096)
	for {
		n, err := syscall.ReadDirent(dir, buf)
		if err != nil || n <= 0 {
			return out
		}
		_, _, names := syscall.ParseDirent(buf[:n], -1, nil)
		for _, tid := range names {
			b := readFile("/proc/self/task/" + tid + "/children")
			start := 0
			for i := 0; i <= len(b); i++ {
				if i == len(b) || b[i] == ' ' || b[i] == '\n' {
					if pid, ok := Atoi(string(b[start:i])); ok && pid > 0 {
						out = append(out, pid)
					}
					start = i + 1
				}
			}
		}
	}
}

func readFile(path string) []byte {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer syscall.Close(fd)
	var out []byte
	buf := make([]byte, 4096)
	for {
		n, err := syscall.Read(fd, buf)
		if n <= 0 || err != nil {
			return out
		}
		out = append(out, buf[:n]...)
	}
}

// nsLink is where /proc/PID/ns/NAME leads ("mnt:[4026531840]"), or "".
func nsLink(pid, name string) string {
	buf := make([]byte, 64)
	n, err := syscall.Readlink("/proc/"+pid+"/ns/"+name, buf)
	if err != nil {
		return ""
	}
	return string(buf[:n])
}

func mkdirAll(path string) error {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err == nil {
		if st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
			return syscall.ENOTDIR
		}
		return nil
	}
	if d := dirOf(path); d != path {
		if err := mkdirAll(d); err != nil {
			return err
		}
	}
	if err := syscall.Mkdir(path, 0o755); err != nil && err != syscall.EEXIST {
		return err
	}
	return nil
}

func dirOf(path string) string {
	for i := len(path) - 1; i > 0; i-- {
		if path[i] == '/' {
			return path[:i]
		}
	}
	return "/"
}

func closeAll(fds []int) {
	for _, fd := range fds {
		syscall.Close(fd)
	}
}

// loopbackUp brings the namespace's lo up, so that programs reach what
// they serve themselves (a test's server on 127.0.0.1) and the bridge.
func loopbackUp() error {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	var ifr [40]byte // struct ifreq: the name, then the flags
	copy(ifr[:], "lo")
	*(*uint16)(unsafe.Pointer(&ifr[16])) = syscall.IFF_UP | syscall.IFF_RUNNING
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), siocSIFFLAGS, uintptr(unsafe.Pointer(&ifr[0]))); e != 0 {
		return e
	}
	return nil
}

// bridge listens on 127.0.0.1 in the jail's network namespace and joins
// each connection to the unix socket at path: qsh's proxy, outside, which
// most clients cannot name (they want a TCP address in HTTP_PROXY).
func bridge(path string) (int, error) {
	l, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return 0, err
	}
	if err := syscall.Bind(l, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		syscall.Close(l)
		return 0, err
	}
	if err := syscall.Listen(l, 64); err != nil {
		syscall.Close(l)
		return 0, err
	}
	sa, err := syscall.Getsockname(l)
	if err != nil {
		syscall.Close(l)
		return 0, err
	}
	go func() {
		for {
			c, _, err := syscall.Accept4(l, syscall.SOCK_CLOEXEC)
			if err != nil {
				if err == syscall.EINTR || err == syscall.ECONNABORTED || err == syscall.EMFILE {
					continue
				}
				return
			}
			go join(c, path)
		}
	}()
	return sa.(*syscall.SockaddrInet4).Port, nil
}

// join copies between the connection c and a new one to the unix socket
// at path, both ways, until both ends are done.
func join(c int, path string) {
	u, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err == nil {
		if err = syscall.Connect(u, &syscall.SockaddrUnix{Name: path}); err != nil {
			syscall.Close(u)
		}
	}
	if err != nil {
		syscall.Close(c)
		return
	}
	done := make(chan struct{})
	go func() {
		pump(u, c)
		close(done)
	}()
	pump(c, u)
	<-done
	syscall.Close(c)
	syscall.Close(u)
}

// pump copies from src to dst until src ends, then ends dst's writing.
func pump(dst, src int) {
	buf := make([]byte, 32<<10)
	for {
		n, err := syscall.Read(src, buf)
		if err == syscall.EINTR {
			continue
		}
		if n <= 0 || err != nil {
			break
		}
		for w := 0; w < n; {
			m, err := syscall.Write(dst, buf[w:n])
			if err == syscall.EINTR {
				continue
			}
			if err != nil {
				syscall.Shutdown(src, syscall.SHUT_RD)
				syscall.Shutdown(dst, syscall.SHUT_WR)
				return
			}
			w += m
		}
	}
	syscall.Shutdown(dst, syscall.SHUT_WR)
}

// channel is the jail's end of the control channel: whole messages
// read, with the descriptors sent along, and written one at a time.
type channel struct {
	fd  int
	buf []byte
	fds []int
	mu  sync.Mutex
}

// read returns the next message and the descriptors that came with it.
func (c *channel) read() ([]string, []int, error) {
	for {
		m, n, ok := ParseMessage(c.buf)
		if !ok {
			return nil, nil, syscall.EINVAL
		}
		if n > 0 {
			c.buf = c.buf[n:]
			fds := c.fds
			c.fds = nil
			return m, fds, nil
		}
		buf := make([]byte, 64<<10)
		oob := make([]byte, syscall.CmsgSpace(8*4))
		k, oobn, _, _, err := syscall.Recvmsg(c.fd, buf, oob, syscall.MSG_CMSG_CLOEXEC)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		if oobn > 0 {
			if msgs, err := syscall.ParseSocketControlMessage(oob[:oobn]); err == nil {
				for _, msg := range msgs {
					if fds, err := syscall.ParseUnixRights(&msg); err == nil {
						c.fds = append(c.fds, fds...)
					}
				}
			}
		}
		if k == 0 {
			return nil, nil, syscall.EPIPE
		}
		c.buf = append(c.buf, buf[:k]...)
	}
}

// write sends one message.
func (c *channel) write(fields ...string) {
	b := AppendMessage(nil, fields...)
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(b) > 0 {
		n, err := syscall.Write(c.fd, b)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return
		}
		b = b[n:]
	}
}
