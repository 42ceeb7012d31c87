//go:build unix

package mcp

import (
	"os"
	"os/exec"
	"syscall"
)

// detach puts a server in a session of its own, whose process group it
// leads: Ctrl-C at the terminal, which signals the foreground group, does
// not kill it; stopping it stops what it started; and it has no terminal,
// so that it cannot type commands into the user's shell with TIOCSTI on
// /dev/tty, which the sandbox does not keep from it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// signalGroup signals the process group p leads; errors mean it is gone.
func signalGroup(p *os.Process, sig syscall.Signal) {
	syscall.Kill(-p.Pid, sig)
}
