//go:build !unix

package mcp

import (
	"os"
	"os/exec"
	"syscall"
)

func detach(cmd *exec.Cmd) {}

func signalGroup(p *os.Process, sig syscall.Signal) {
	if sig == syscall.SIGKILL {
		p.Kill()
		return
	}
	p.Signal(sig)
}
