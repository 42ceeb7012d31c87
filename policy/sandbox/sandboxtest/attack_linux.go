// Package sandboxtest is the sandbox's test kit: the attacks a hostile
// build tries from inside, each saying in one line whether it got out.
// Package sandbox's tests run them from their own test binary; the
// end-to-end tests build a program that runs them (testdata/attack).
package sandboxtest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Escaped starts the line of an attack that got out; Blocked one that did
// not.
const (
	Escaped = "ESCAPED"
	Blocked = "BLOCKED"
)

// Attacks are the attacks by name; each takes its arguments and returns
// its line.
var Attacks = map[string]func(args []string) string{
	"tiocsti":  tiocsti,
	"terminal": terminal,
	"keyring":  keyring,
	"environ":  environ,
	"procs":    procs,
	"udp":      udp,
	"dns":      dns,
	"raw":      raw,
	"mptcp":    mptcp,
	"tfo":      tfo,
	"netlink":  netlink,
	"tcp":      tcp,
	"unix":     unixSocket,
	"abstract": abstract,
	"ptrace":   ptrace,
	"mount":    mount,
	"userns":   userns,
	"daemon":   daemon,
	"write":    write,
	"read":     read,
}

// Main runs the attacks args name, one line each, and exits; args are
// NAME[:ARG,ARG…]. It returns when args name none.
func Main(args []string) {
	if len(args) == 0 {
		return
	}
	for _, a := range args {
		name, rest, _ := strings.Cut(a, ":")
		f := Attacks[name]
		if f == nil {
			fmt.Printf("%s %s: no such attack\n", Blocked, name)
			continue
		}
		var fargs []string
		if rest != "" {
			fargs = strings.Split(rest, ",")
		}
		fmt.Println(f(fargs))
	}
	os.Exit(0)
}

func result(name string, escaped bool, detail string) string {
	w := Blocked
	if escaped {
		w = Escaped
	}
	return w + " " + name + ": " + detail
}

// tiocsti types a command into every terminal it can open: its standard
// files, /dev/tty, the user's /dev/pts/N.
func tiocsti(args []string) string {
	var got []string
	try := func(fd int, what string) {
		c := byte('#')
		if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.TIOCSTI, uintptr(unsafe.Pointer(&c))); e == 0 {
			got = append(got, what)
		}
	}
	for fd := 0; fd < 3; fd++ {
		try(fd, "fd "+strconv.Itoa(fd))
	}
	paths, _ := filepath.Glob("/dev/pts/[0-9]*")
	for _, p := range append([]string{"/dev/tty"}, paths...) {
		if fd, err := syscall.Open(p, syscall.O_RDWR|syscall.O_NOCTTY, 0); err == nil {
			try(fd, p)
			syscall.Close(fd)
		}
	}
	if len(got) > 0 {
		return result("tiocsti", true, "typed into "+strings.Join(got, ", "))
	}
	return result("tiocsti", false, "no terminal took input")
}

// terminal looks for a terminal to read or write: its standard files,
// /dev/tty, other terminals of the user's.
func terminal(args []string) string {
	var got []string
	for fd := 0; fd < 3; fd++ {
		if _, err := unix.IoctlGetTermios(fd, unix.TCGETS); err == nil {
			got = append(got, "fd "+strconv.Itoa(fd)+" is a terminal")
		}
	}
	if fd, err := syscall.Open("/dev/tty", syscall.O_RDWR|syscall.O_NOCTTY, 0); err == nil {
		syscall.Close(fd)
		got = append(got, "/dev/tty opened")
	}
	paths, _ := filepath.Glob("/dev/pts/[0-9]*")
	for _, p := range paths {
		if fd, err := syscall.Open(p, syscall.O_WRONLY|syscall.O_NOCTTY, 0); err == nil {
			syscall.Close(fd)
			got = append(got, p+" opened")
		}
	}
	if len(got) > 0 {
		return result("terminal", true, strings.Join(got, ", "))
	}
	return result("terminal", false, fmt.Sprintf("no terminal (%d in /dev/pts)", len(paths)))
}

// keyring reads the session's kernel keyring and adds a key to it.
func keyring(args []string) string {
	if id, err := unix.KeyctlGetKeyringID(unix.KEY_SPEC_SESSION_KEYRING, false); err == nil {
		return result("keyring", true, fmt.Sprintf("the session keyring is %d", id))
	}
	if _, err := unix.AddKey("user", "qsh-test", []byte("x"), unix.KEY_SPEC_SESSION_KEYRING); err == nil {
		return result("keyring", true, "a key was added")
	} else {
		return result("keyring", false, err.Error())
	}
}

// environ looks for the value args[0] in every process's environment.
func environ(args []string) string {
	if len(args) == 0 {
		return result("environ", false, "no value to look for")
	}
	pids, _ := filepath.Glob("/proc/[0-9]*/environ")
	readable := 0
	for _, p := range pids {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		readable++
		if bytes.Contains(b, []byte(args[0])) {
			return result("environ", true, "found in "+p)
		}
	}
	return result("environ", false, fmt.Sprintf("not in the %d readable of %d", readable, len(pids)))
}

// procs counts the processes /proc shows.
func procs(args []string) string {
	pids, _ := filepath.Glob("/proc/[0-9]*")
	var names []string
	for _, p := range pids {
		b, _ := os.ReadFile(p + "/comm")
		names = append(names, strings.TrimSpace(string(b)))
	}
	return result("procs", len(pids) > 8, fmt.Sprintf("%d processes: %s", len(pids), strings.Join(names, " ")))
}

// udp sends a datagram to args[0] (host:port), which the test listens on.
func udp(args []string) string {
	if len(args) == 0 {
		return result("udp", false, "no address")
	}
	c, err := net.Dial("udp", args[0])
	if err == nil {
		_, err = c.Write([]byte("qsh-udp-exfil"))
		c.Close()
	}
	if err != nil {
		return result("udp", false, err.Error())
	}
	return result("udp", true, "sent to "+args[0]+" (did it arrive?)")
}

// dns asks the resolver at args[0] (host:port) for a name that carries
// data, as DNS exfiltration does.
func dns(args []string) string {
	if len(args) == 0 {
		return result("dns", false, "no server")
	}
	r := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, address string) (net.Conn, error) {
		return (&net.Dialer{Timeout: time.Second}).DialContext(ctx, "udp", args[0])
	}}
	_, err := r.LookupHost(context.Background(), "qsh-dns-exfil.example")
	if err != nil && strings.Contains(err.Error(), "unreachable") {
		return result("dns", false, err.Error())
	}
	return result("dns", err == nil, fmt.Sprintf("asked %s: %v", args[0], err))
}

func raw(args []string) string {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_RAW, syscall.IPPROTO_ICMP)
	if err != nil {
		return result("raw", false, err.Error())
	}
	syscall.Close(fd)
	return result("raw", true, "a raw socket")
}

// mptcp connects to args[0] with MPTCP, which Landlock did not see.
func mptcp(args []string) string {
	return connectWith("mptcp", args, func() (int, error) {
		return syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 262)
	}, func(fd int, sa syscall.Sockaddr) error { return syscall.Connect(fd, sa) })
}

// tfo connects to args[0] with TCP Fast Open: data in the SYN, no connect.
func tfo(args []string) string {
	return connectWith("tfo", args, func() (int, error) {
		return syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	}, func(fd int, sa syscall.Sockaddr) error {
		return syscall.Sendto(fd, []byte("qsh-tfo\n"), 0x20000000, sa)
	})
}

// tcp connects to args[0] plainly.
func tcp(args []string) string {
	return connectWith("tcp", args, func() (int, error) {
		return syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	}, func(fd int, sa syscall.Sockaddr) error { return syscall.Connect(fd, sa) })
}

func connectWith(name string, args []string, open func() (int, error), connect func(int, syscall.Sockaddr) error) string {
	if len(args) == 0 {
		return result(name, false, "no address")
	}
	ap, err := net.ResolveTCPAddr("tcp4", args[0])
	if err != nil {
		return result(name, false, err.Error())
	}
	fd, err := open()
	if err != nil {
		return result(name, false, "socket: "+err.Error())
	}
	defer syscall.Close(fd)
	sa := &syscall.SockaddrInet4{Port: ap.Port}
	copy(sa.Addr[:], ap.IP.To4())
	if err := connect(fd, sa); err != nil {
		return result(name, false, "connect: "+err.Error())
	}
	syscall.Write(fd, []byte("qsh-"+name+"\n"))
	return result(name, true, "connected to "+args[0])
}

func netlink(args []string) string {
	fd, err := syscall.Socket(syscall.AF_NETLINK, syscall.SOCK_RAW, syscall.NETLINK_ROUTE)
	if err != nil {
		return result("netlink", false, err.Error())
	}
	syscall.Close(fd)
	return result("netlink", true, "a netlink socket")
}

// unixSocket connects to the unix socket at args[0] and says hello.
func unixSocket(args []string) string {
	if len(args) == 0 {
		return result("unix", false, "no path")
	}
	c, err := net.Dial("unix", args[0])
	if err != nil {
		return result("unix", false, err.Error())
	}
	c.Write([]byte("qsh-unix\n"))
	c.Close()
	return result("unix", true, "connected to "+args[0])
}

func abstract(args []string) string {
	if len(args) == 0 {
		return result("abstract", false, "no name")
	}
	c, err := net.Dial("unix", "@"+args[0])
	if err != nil {
		return result("abstract", false, err.Error())
	}
	c.Write([]byte("qsh-abstract\n"))
	c.Close()
	return result("abstract", true, "connected to @"+args[0])
}

func ptrace(args []string) string {
	pid := os.Getppid()
	if len(args) > 0 {
		pid, _ = strconv.Atoi(args[0])
	}
	if err := syscall.PtraceAttach(pid); err != nil {
		return result("ptrace", false, err.Error())
	}
	syscall.PtraceDetach(pid)
	return result("ptrace", true, "attached to "+strconv.Itoa(pid))
}

func mount(args []string) string {
	if err := syscall.Mount("tmpfs", "/tmp", "tmpfs", 0, ""); err != nil {
		return result("mount", false, err.Error())
	}
	return result("mount", true, "mounted over /tmp")
}

func userns(args []string) string {
	cmd := exec.Command("/proc/self/exe")
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER}
	cmd.Env = []string{"QSH_ATTACK_NOTHING=1"}
	if err := cmd.Start(); err != nil {
		return result("userns", false, err.Error())
	}
	cmd.Process.Kill()
	cmd.Wait()
	return result("userns", true, "a user namespace")
}

// daemon leaves behind, in a session of its own, a process whose name is
// args[0], which appends to the file args[1] every 20 ms: it must not
// outlive the command.
func daemon(args []string) string {
	if len(args) < 2 {
		return result("daemon", false, "no name and file")
	}
	if err := os.WriteFile(args[1], []byte("started\n"), 0o644); err != nil {
		return result("daemon", false, err.Error())
	}
	cmd := &exec.Cmd{Path: "/bin/sh", Args: []string{args[0], "-c", `while :; do echo alive >> "$1"; sleep 0.02; done`, args[0], args[1]},
		SysProcAttr: &syscall.SysProcAttr{Setsid: true}}
	if err := cmd.Start(); err != nil {
		return result("daemon", false, err.Error())
	}
	return result("daemon", false, "started "+strconv.Itoa(cmd.Process.Pid)+" (the test checks it dies)")
}

// write writes the file args[0].
func write(args []string) string {
	if len(args) == 0 {
		return result("write", false, "no file")
	}
	f, err := os.OpenFile(args[0], os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err == nil {
		_, err = f.WriteString("qsh-write\n")
		f.Close()
	}
	if err != nil {
		return result("write", false, err.Error())
	}
	return result("write", true, "wrote "+args[0])
}

// read reads the file args[0].
func read(args []string) string {
	if len(args) == 0 {
		return result("read", false, "no file")
	}
	b, err := os.ReadFile(args[0])
	if err != nil {
		return result("read", false, err.Error())
	}
	return result("read", true, fmt.Sprintf("%d bytes of %s", len(b), args[0]))
}
