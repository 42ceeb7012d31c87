//go:build unix

package mcp

import (
	"os"
	"os/exec"
	"syscall"
)

// detach puts a server in its own process group, so that Ctrl-C at the
// terminal, which signals the foreground group, does not kill it, and so
// that stopping it stops what it started.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup signals the process group p leads; errors mean it is gone.
func signalGroup(p *os.Process, sig syscall.Signal) {
	syscall.Kill(-p.Pid, sig)
}
