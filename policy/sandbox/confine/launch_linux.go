package confine

import (
	"runtime"
	"syscall"
)

// Capabilities the jail needs in its user namespace to set itself up, and
// drops before it starts anything.
const (
	capDacOverride = 1
	capSetpcap     = 8
	capNetAdmin    = 12
	capSysAdmin    = 21
)

// Namespaces returns how to start the jail, `/proc/self/exe` with
// [JailArg], in new user, mount, PID, IPC and (with netNS) network
// namespaces, the user's IDs mapped to themselves, in a session of its own.
func Namespaces(netNS bool) *syscall.SysProcAttr {
	uid, gid := syscall.Getuid(), syscall.Getgid()
	flags := uintptr(syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC)
	if netNS {
		flags |= syscall.CLONE_NEWNET
	}
	return &syscall.SysProcAttr{
		Setsid:      true,
		Cloneflags:  flags,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		AmbientCaps: []uintptr{capDacOverride, capSetpcap, capNetAdmin, capSysAdmin},
	}
}

// launch starts the jail (see [Namespaces]) and exits with its status; it
// does not return (see [LaunchArg]).
func launch(netNS bool) {
	sys := Namespaces(netNS)
	sys.Pdeathsig = syscall.SIGKILL // the jail ends with its launcher, which qsh may kill
	attr := &syscall.ProcAttr{Env: []string{}, Files: []uintptr{0, 1, 2, ctlFD}, Sys: sys}
	// The parent death signal comes when the thread that forked the jail
	// ends, not the process: this thread, which never ends before it.
	runtime.LockOSThread()
	pid, err := syscall.ForkExec("/proc/self/exe", []string{"qsh-sandbox", JailArg}, attr)
	if err != nil {
		e, _ := err.(syscall.Errno)
		syscall.Write(2, []byte("the kernel refuses: "+e.Error()+"\n"))
		syscall.Exit(Refused)
	}
	// The channel is the jail's: it ends when the jail does.
	syscall.Close(ctlFD)
	for {
		var ws syscall.WaitStatus
		_, err := syscall.Wait4(pid, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		switch {
		case err != nil:
			syscall.Exit(125)
		case ws.Signaled():
			syscall.Exit(128 + int(ws.Signal()))
		}
		syscall.Exit(ws.ExitStatus())
	}
}
