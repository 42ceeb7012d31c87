package sandbox

import (
	"encoding/binary"
	"fmt"
	"syscall"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// The seccomp filter is the sandbox's second wall: system calls that a
// build has no use for, and that reach past the namespaces and Landlock
// (the terminal's input queue, the kernel keyring, mounts, other
// processes' memory, kernel modules, socket families other than
// UNIX/INET/INET6, TCP Fast Open, io_uring), fail with an error a program
// reports, so that the denial can be explained.
//
// It is written with golang.org/x/net/bpf rather than a policy library
// (elastic/go-seccomp-bpf): its assembler keeps the program small and
// explicit, and its virtual machine runs the filter in the tests; and the
// filter compares 32-bit arguments (an ioctl's request, a socket's family)
// on their low word only, as the kernel reads them, where a 64-bit compare
// lets `ioctl(fd, TIOCSTI | 1<<32, …)` through (CVE-2019-10063).

// seccompData is the layout of struct seccomp_data the filter reads.
const (
	offNr   = 0
	offArch = 4
	offArgs = 16 // args[i] at offArgs + 8*i; the low word first (little-endian)
)

// Return values of a seccomp filter.
const (
	retKillProcess = 0x80000000
	retErrno       = 0x00050000
	retAllow       = 0x7fff0000
)

// Linux's numbers, the same on every architecture the filter is built for.
const (
	tiocsti            = 0x5412
	tioclinux          = 0x541c
	msgFastOpen        = 0x20000000
	ipprotoMPTCP       = 262
	tcpFastOpenConnect = 30
	sockTypeMask       = 0xf
	sockPacket         = 10
	// The namespace flags of clone(2); CLONE_NEWTIME shares its bit with
	// the exit signal there and is refused by unshare and clone3 instead.
	cloneNewFlags = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC |
		unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET
)

// deniedCalls fail with EPERM whatever their arguments.
var deniedCalls = []uint32{
	// Mounts: a confined program must not change what it sees.
	unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_CHROOT, unix.SYS_OPEN_TREE,
	unix.SYS_MOVE_MOUNT, unix.SYS_FSOPEN, unix.SYS_FSCONFIG, unix.SYS_FSMOUNT, unix.SYS_FSPICK,
	unix.SYS_MOUNT_SETATTR,
	// New namespaces would give it capabilities over them.
	unix.SYS_UNSHARE, unix.SYS_SETNS,
	// Other processes' memory and file descriptors.
	unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV, unix.SYS_PIDFD_GETFD,
	// The kernel keyring, where the user's session keeps keys.
	unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY,
	// The kernel itself.
	unix.SYS_INIT_MODULE, unix.SYS_FINIT_MODULE, unix.SYS_DELETE_MODULE, unix.SYS_KEXEC_LOAD,
	unix.SYS_KEXEC_FILE_LOAD, unix.SYS_REBOOT, unix.SYS_SWAPON, unix.SYS_SWAPOFF, unix.SYS_SYSLOG,
	unix.SYS_ACCT, unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN, unix.SYS_USERFAULTFD, unix.SYS_QUOTACTL,
	unix.SYS_SETTIMEOFDAY, unix.SYS_CLOCK_SETTIME, unix.SYS_CLOCK_ADJTIME,
	// A file by its handle, around the paths Landlock judges.
	unix.SYS_OPEN_BY_HANDLE_AT,
	// io_uring opens sockets and files without the system calls this
	// filter sees.
	unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
}

// asm is a small BPF assembler with forward jumps to labels.
type asm struct {
	ins    []bpf.Instruction
	labels map[string]int
	jumps  map[int][2]string // instruction → labels when true, when false ("" is the next one)
}

func (a *asm) load(off uint32) {
	a.ins = append(a.ins, bpf.LoadAbsolute{Off: off, Size: 4})
}

func (a *asm) arg(i int) { a.load(offArgs + 8*uint32(i)) }

func (a *asm) and(v uint32) {
	a.ins = append(a.ins, bpf.ALUOpConstant{Op: bpf.ALUOpAnd, Val: v})
}

func (a *asm) ret(v uint32) { a.ins = append(a.ins, bpf.RetConstant{Val: v}) }

// jump goes to yes when the accumulator passes the test against v, else to no.
func (a *asm) jump(test bpf.JumpTest, v uint32, yes, no string) {
	a.jumps[len(a.ins)] = [2]string{yes, no}
	a.ins = append(a.ins, bpf.JumpIf{Cond: test, Val: v})
}

func (a *asm) label(name string) { a.labels[name] = len(a.ins) }

// resolve fills in the jumps' distances.
func (a *asm) resolve() ([]bpf.Instruction, error) {
	for i, to := range a.jumps {
		j := a.ins[i].(bpf.JumpIf)
		for k, name := range to {
			if name == "" {
				continue
			}
			at, ok := a.labels[name]
			if !ok || at <= i || at-i-1 > 255 {
				return nil, fmt.Errorf("seccomp: jump from %d to %q (%d) out of reach", i, name, at)
			}
			if k == 0 {
				j.SkipTrue = uint8(at - i - 1)
			} else {
				j.SkipFalse = uint8(at - i - 1)
			}
		}
		a.ins[i] = j
	}
	return a.ins, nil
}

// filter is the sandbox's seccomp program for this architecture.
func filter() ([]bpf.Instruction, error) {
	if auditArch == 0 {
		return nil, fmt.Errorf("seccomp: no filter for this architecture")
	}
	a := &asm{labels: map[string]int{}, jumps: map[int][2]string{}}
	a.load(offArch)
	a.jump(bpf.JumpEqual, auditArch, "", "kill") // another ABI (32-bit calls) would number calls otherwise
	a.load(offNr)
	if x32Bit != 0 {
		a.jump(bpf.JumpBitsSet, x32Bit, "eperm", "")
	}
	for _, nr := range append(deniedCalls, archDenied...) {
		a.jump(bpf.JumpEqual, nr, "eperm", "")
	}
	// clone3 passes its flags in memory, which the filter cannot read: C
	// libraries fall back to clone when it is missing.
	a.jump(bpf.JumpEqual, unix.SYS_CLONE3, "enosys", "")
	a.jump(bpf.JumpEqual, unix.SYS_CLONE, "clone", "")
	a.jump(bpf.JumpEqual, unix.SYS_IOCTL, "ioctl", "")
	a.jump(bpf.JumpEqual, unix.SYS_SOCKET, "socket", "")
	a.jump(bpf.JumpEqual, unix.SYS_SOCKETPAIR, "socketpair", "")
	a.jump(bpf.JumpEqual, unix.SYS_SENDTO, "sendto", "")
	a.jump(bpf.JumpEqual, unix.SYS_SENDMSG, "sendmsg", "")
	a.jump(bpf.JumpEqual, unix.SYS_SENDMMSG, "sendmmsg", "")
	a.jump(bpf.JumpEqual, unix.SYS_SETSOCKOPT, "setsockopt", "")
	a.ret(retAllow)

	a.label("clone")
	a.arg(cloneFlagsArg)
	a.jump(bpf.JumpBitsSet, cloneNewFlags, "eperm", "allow")

	// TIOCSTI and TIOCLINUX type into a terminal's input; the request is
	// an unsigned int, so only the low word counts.
	a.label("ioctl")
	a.arg(1)
	a.jump(bpf.JumpEqual, tiocsti, "eperm", "")
	a.jump(bpf.JumpEqual, tioclinux, "eperm", "allow")

	// Sockets: UNIX, INET and INET6 only (no netlink, packet, vsock…),
	// and of those no raw sockets and no MPTCP.
	a.label("socket")
	a.arg(0)
	a.jump(bpf.JumpEqual, unix.AF_UNIX, "allow", "")
	a.jump(bpf.JumpEqual, unix.AF_INET, "inet", "")
	a.jump(bpf.JumpEqual, unix.AF_INET6, "inet", "eafnosupport")
	a.label("inet")
	a.arg(1)
	a.and(sockTypeMask)
	a.jump(bpf.JumpEqual, unix.SOCK_RAW, "eperm", "")
	a.jump(bpf.JumpEqual, sockPacket, "eperm", "")
	a.arg(2)
	a.jump(bpf.JumpEqual, ipprotoMPTCP, "eperm", "allow")

	a.label("socketpair")
	a.arg(0)
	a.jump(bpf.JumpEqual, unix.AF_UNIX, "allow", "eafnosupport")

	// TCP Fast Open connects without connect(2).
	a.label("sendto")
	a.arg(3)
	a.jump(bpf.JumpBitsSet, msgFastOpen, "eperm", "allow")
	a.label("sendmsg")
	a.arg(2)
	a.jump(bpf.JumpBitsSet, msgFastOpen, "eperm", "allow")
	a.label("sendmmsg")
	a.arg(3)
	a.jump(bpf.JumpBitsSet, msgFastOpen, "eperm", "allow")
	a.label("setsockopt")
	a.arg(1)
	a.jump(bpf.JumpEqual, unix.IPPROTO_TCP, "", "allow")
	a.arg(2)
	a.jump(bpf.JumpEqual, tcpFastOpenConnect, "eperm", "allow")

	a.label("allow")
	a.ret(retAllow)
	a.label("eperm")
	a.ret(retErrno | uint32(syscall.EPERM))
	a.label("enosys")
	a.ret(retErrno | uint32(syscall.ENOSYS))
	a.label("eafnosupport")
	a.ret(retErrno | uint32(syscall.EAFNOSUPPORT))
	a.label("kill")
	a.ret(retKillProcess)
	return a.resolve()
}

// seccompProgram is the filter as the kernel takes it: struct sock_filter
// one after the other, in this machine's byte order (little-endian on the
// architectures it is built for).
func seccompProgram() ([]byte, error) {
	ins, err := filter()
	if err != nil {
		return nil, err
	}
	raw, err := bpf.Assemble(ins)
	if err != nil {
		return nil, fmt.Errorf("seccomp: %v", err)
	}
	b := make([]byte, 0, 8*len(raw))
	for _, r := range raw {
		b = binary.LittleEndian.AppendUint16(b, r.Op)
		b = append(b, r.Jt, r.Jf)
		b = binary.LittleEndian.AppendUint32(b, r.K)
	}
	return b, nil
}
