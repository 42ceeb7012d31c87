//go:build !linux && !darwin

package sandbox

import (
	"errors"
	"syscall"
	"time"
)

var errNoSandbox = errors.New("no sandbox on this system")

// Support says why nothing confines programs here.
func Support() (string, error) { return "", errNoSandbox }

// ABI is 0: there is no Landlock here.
func ABI() int { return 0 }

// Probe fails: nothing confines programs here.
func Probe() (Layers, error) { return Layers{}, errNoSandbox }

// Host makes no jails here.
type Host struct{}

func NewHost() *Host                         { return &Host{} }
func (h *Host) Jail(p Policy) (*Jail, error) { return nil, errNoSandbox }
func (h *Host) Prepare()                     {}
func (h *Host) PrepareFor(Policy)            {}
func (h *Host) Idle()                        {}
func (h *Host) Close() error                 { return nil }

// Jail is never made here.
type Jail struct{}

func (j *Jail) Layers() Layers                { return Layers{} }
func (j *Jail) Environ(env []string) []string { return env }
func (j *Jail) Outside(path string) string    { return path }
func (j *Jail) Start(s Spec) (*Proc, error)   { return nil, errNoSandbox }
func (j *Jail) Reset(grace time.Duration)     {}
func (j *Jail) Close() error                  { return nil }

// Proc is never made here.
type Proc struct{ Pid int }

func (p *Proc) Wait() (syscall.WaitStatus, error) { return 0, errNoSandbox }

// JailedCommand fails: nothing confines programs here.
func JailedCommand(p Policy, path string, args []string) (string, []string, error) {
	return "", nil, errNoSandbox
}

// RunJailed does nothing here.
func RunJailed(args []string) {}
