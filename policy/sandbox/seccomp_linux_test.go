package sandbox

import (
	"encoding/binary"
	"syscall"
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"

	"github.com/qsh-shell/qsh/internal/needs"
)

// seccompRun runs the filter in x/net/bpf's virtual machine on a call. The
// machine loads words big-endian, as from a packet; the kernel loads
// struct seccomp_data in the machine's order: each word is written so that
// both read the same value.
func seccompRun(t *testing.T, vm *bpf.VM, arch, nr uint32, args ...uint64) uint32 {
	t.Helper()
	data := make([]byte, 64)
	binary.BigEndian.PutUint32(data[offNr:], nr)
	binary.BigEndian.PutUint32(data[offArch:], arch)
	for i, a := range args {
		binary.BigEndian.PutUint32(data[offArgs+8*i:], uint32(a))
		binary.BigEndian.PutUint32(data[offArgs+8*i+4:], uint32(a>>32))
	}
	v, err := vm.Run(data)
	if err != nil {
		t.Fatal(err)
	}
	return uint32(v)
}

// TestSeccompFilter is the table of what the filter answers.
func TestSeccompFilter(t *testing.T) {
	ins, err := filter()
	if err != nil {
		needs.Missing(t, "%v", err)
	}
	vm, err := bpf.NewVM(ins)
	if err != nil {
		t.Fatal(err)
	}
	eperm := uint32(retErrno | uint32(syscall.EPERM))
	tests := []struct {
		name string
		nr   uint32
		args []uint64
		want uint32
	}{
		{"read", unix.SYS_READ, nil, retAllow},
		{"openat", unix.SYS_OPENAT, nil, retAllow},
		{"TIOCSTI", unix.SYS_IOCTL, []uint64{0, tiocsti}, eperm},
		{"TIOCSTI with high bits set", unix.SYS_IOCTL, []uint64{0, 1<<32 | tiocsti}, eperm},
		{"TIOCLINUX", unix.SYS_IOCTL, []uint64{0, tioclinux}, eperm},
		{"TCGETS", unix.SYS_IOCTL, []uint64{0, unix.TCGETS}, retAllow},
		{"TIOCGWINSZ", unix.SYS_IOCTL, []uint64{0, unix.TIOCGWINSZ}, retAllow},
		{"keyctl", unix.SYS_KEYCTL, nil, eperm},
		{"add_key", unix.SYS_ADD_KEY, nil, eperm},
		{"request_key", unix.SYS_REQUEST_KEY, nil, eperm},
		{"mount", unix.SYS_MOUNT, nil, eperm},
		{"umount2", unix.SYS_UMOUNT2, nil, eperm},
		{"move_mount", unix.SYS_MOVE_MOUNT, nil, eperm},
		{"unshare", unix.SYS_UNSHARE, []uint64{unix.CLONE_NEWUSER}, eperm},
		{"setns", unix.SYS_SETNS, nil, eperm},
		{"ptrace", unix.SYS_PTRACE, nil, eperm},
		{"process_vm_readv", unix.SYS_PROCESS_VM_READV, nil, eperm},
		{"init_module", unix.SYS_INIT_MODULE, nil, eperm},
		{"finit_module", unix.SYS_FINIT_MODULE, nil, eperm},
		{"bpf", unix.SYS_BPF, nil, eperm},
		{"io_uring_setup", unix.SYS_IO_URING_SETUP, nil, eperm},
		{"open_by_handle_at", unix.SYS_OPEN_BY_HANDLE_AT, nil, eperm},
		{"clone a thread", unix.SYS_CLONE, []uint64{unix.CLONE_VM | unix.CLONE_THREAD}, retAllow},
		{"clone a process", unix.SYS_CLONE, []uint64{uint64(syscall.SIGCHLD)}, retAllow},
		{"clone a user namespace", unix.SYS_CLONE, []uint64{unix.CLONE_NEWUSER | uint64(syscall.SIGCHLD)}, eperm},
		{"clone a network namespace", unix.SYS_CLONE, []uint64{unix.CLONE_NEWNET}, eperm},
		{"clone3", unix.SYS_CLONE3, nil, retErrno | uint32(syscall.ENOSYS)},
		{"socket AF_UNIX", unix.SYS_SOCKET, []uint64{unix.AF_UNIX, unix.SOCK_STREAM}, retAllow},
		{"socket AF_INET TCP", unix.SYS_SOCKET, []uint64{unix.AF_INET, unix.SOCK_STREAM | unix.SOCK_CLOEXEC}, retAllow},
		{"socket AF_INET6 UDP", unix.SYS_SOCKET, []uint64{unix.AF_INET6, unix.SOCK_DGRAM}, retAllow},
		{"socket AF_NETLINK", unix.SYS_SOCKET, []uint64{unix.AF_NETLINK, unix.SOCK_RAW}, retErrno | uint32(syscall.EAFNOSUPPORT)},
		{"socket AF_PACKET", unix.SYS_SOCKET, []uint64{unix.AF_PACKET, unix.SOCK_RAW}, retErrno | uint32(syscall.EAFNOSUPPORT)},
		{"socket AF_VSOCK", unix.SYS_SOCKET, []uint64{unix.AF_VSOCK, unix.SOCK_STREAM}, retErrno | uint32(syscall.EAFNOSUPPORT)},
		{"socket AF_INET with high bits", unix.SYS_SOCKET, []uint64{1<<32 | unix.AF_INET, unix.SOCK_STREAM}, retAllow},
		{"socket raw", unix.SYS_SOCKET, []uint64{unix.AF_INET, unix.SOCK_RAW, unix.IPPROTO_ICMP}, eperm},
		{"socket raw nonblocking", unix.SYS_SOCKET, []uint64{unix.AF_INET6, unix.SOCK_RAW | unix.SOCK_NONBLOCK}, eperm},
		{"socket packet", unix.SYS_SOCKET, []uint64{unix.AF_INET, sockPacket}, eperm},
		{"socket MPTCP", unix.SYS_SOCKET, []uint64{unix.AF_INET, unix.SOCK_STREAM, ipprotoMPTCP}, eperm},
		{"socketpair AF_UNIX", unix.SYS_SOCKETPAIR, []uint64{unix.AF_UNIX}, retAllow},
		{"socketpair AF_NETLINK", unix.SYS_SOCKETPAIR, []uint64{unix.AF_NETLINK}, retErrno | uint32(syscall.EAFNOSUPPORT)},
		{"sendto", unix.SYS_SENDTO, []uint64{3, 0, 0, unix.MSG_NOSIGNAL}, retAllow},
		{"sendto MSG_FASTOPEN", unix.SYS_SENDTO, []uint64{3, 0, 0, msgFastOpen | unix.MSG_NOSIGNAL}, eperm},
		{"sendmsg MSG_FASTOPEN", unix.SYS_SENDMSG, []uint64{3, 0, msgFastOpen}, eperm},
		{"sendmmsg MSG_FASTOPEN", unix.SYS_SENDMMSG, []uint64{3, 0, 1, msgFastOpen}, eperm},
		{"setsockopt TCP_NODELAY", unix.SYS_SETSOCKOPT, []uint64{3, unix.IPPROTO_TCP, unix.TCP_NODELAY}, retAllow},
		{"setsockopt TCP_FASTOPEN_CONNECT", unix.SYS_SETSOCKOPT, []uint64{3, unix.IPPROTO_TCP, tcpFastOpenConnect}, eperm},
		{"setsockopt SO_REUSEADDR 30", unix.SYS_SETSOCKOPT, []uint64{3, unix.SOL_SOCKET, 30}, retAllow},
	}
	for _, tc := range tests {
		if got := seccompRun(t, vm, auditArch, tc.nr, tc.args...); got != tc.want {
			t.Errorf("%s: %#x, want %#x", tc.name, got, tc.want)
		}
	}
	if got := seccompRun(t, vm, 0x40000003 /* AUDIT_ARCH_I386 */, unix.SYS_READ); got != retKillProcess {
		t.Errorf("another architecture's call: %#x", got)
	}
	if x32Bit != 0 {
		if got := seccompRun(t, vm, auditArch, x32Bit|unix.SYS_READ); got != eperm {
			t.Errorf("an x32 call: %#x", got)
		}
	}
	if _, err := seccompProgram(); err != nil {
		t.Fatal(err)
	}
}
