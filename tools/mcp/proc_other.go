//go:build !unix

package mcp

import "os/exec"

func detach(cmd *exec.Cmd) {}
