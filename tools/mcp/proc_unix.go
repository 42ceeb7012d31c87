//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// detach puts a server in its own process group, so that Ctrl-C at the
// terminal, which signals the foreground group, does not kill it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
