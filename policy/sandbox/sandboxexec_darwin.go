package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// sandboxExec is macOS's program that runs another under a profile.
const sandboxExec = "/usr/bin/sandbox-exec"

// Support says what confines programs here, or why nothing can.
func Support() (string, error) {
	if _, err := os.Stat(sandboxExec); err != nil {
		return "", errors.New("sandbox-exec is not available")
	}
	return "sandbox-exec", nil
}

// ABI is 0: there is no Landlock on macOS.
func ABI() int { return 0 }

// Probe says what confines programs here: sandbox-exec's profile only.
func Probe() (Layers, error) {
	if _, err := Support(); err != nil {
		return Layers{}, err
	}
	return Layers{Reduced: []string{"sandbox-exec only: no namespaces, no seccomp, no proxy (the network is on or off)"}}, nil
}

// Host starts programs under sandbox-exec; it keeps nothing.
type Host struct{}

// NewHost returns a Host.
func NewHost() *Host { return &Host{} }

// Jail returns a jail for p: programs started under its profile.
func (h *Host) Jail(p Policy) (*Jail, error) {
	if _, err := Support(); err != nil {
		return nil, err
	}
	return &Jail{profile: profile(p)}, nil
}

// Prepare, PrepareFor, Idle and Close do nothing: there is nothing to keep.
func (h *Host) Prepare()          {}
func (h *Host) PrepareFor(Policy) {}
func (h *Host) Idle()             {}
func (h *Host) Close() error      { return nil }

// Jail starts programs under one profile, each in a process group of its
// own, which Reset kills.
type Jail struct {
	profile string
	mu      sync.Mutex
	groups  map[int]bool
}

// Layers says what confines the programs.
func (j *Jail) Layers() Layers { l, _ := Probe(); return l }

// Notes says nothing: Probe tells what sandbox-exec lacks.
func (j *Jail) Notes() []string { return nil }

// Environ is env: sandbox-exec needs nothing more.
func (j *Jail) Environ(env []string) []string { return env }

// Open is os.OpenFile: programs see the files as they are.
func (j *Jail) Open(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag, perm)
}

// Stat is os.Stat.
func (j *Jail) Stat(path string) (os.FileInfo, error) { return os.Stat(path) }

// Start starts s under the profile.
func (j *Jail) Start(s Spec) (*Proc, error) {
	cmd := &exec.Cmd{Path: sandboxExec, Args: append([]string{"sandbox-exec", "-p", j.profile, s.Path}, s.Args[1:]...),
		Env: s.Env, Dir: s.Dir, Stdin: s.Stdin, Stdout: s.Stdout, Stderr: s.Stderr,
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true}, WaitDelay: OutputGrace}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	j.mu.Lock()
	if j.groups == nil {
		j.groups = map[int]bool{}
	}
	j.groups[cmd.Process.Pid] = true
	j.mu.Unlock()
	return &Proc{Pid: cmd.Process.Pid, cmd: cmd}, nil
}

// Reset kills the process groups of the programs started, after grace.
func (j *Jail) Reset(grace time.Duration) {
	j.mu.Lock()
	groups := j.groups
	j.groups = nil
	j.mu.Unlock()
	for g := range groups {
		syscall.Kill(-g, syscall.SIGTERM)
	}
	if grace > 0 && len(groups) > 0 {
		time.Sleep(grace)
	}
	for g := range groups {
		syscall.Kill(-g, syscall.SIGKILL)
	}
}

// Close kills what is left.
func (j *Jail) Close() error { j.Reset(0); return nil }

// Proc is a program started under sandbox-exec.
type Proc struct {
	Pid int
	cmd *exec.Cmd
}

// Wait waits for it, and for its output (see [OutputGrace]).
func (p *Proc) Wait() (syscall.WaitStatus, error) {
	err := p.cmd.Wait()
	ws, _ := p.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if errors.Is(err, exec.ErrWaitDelay) {
		return ws, ErrOutputHeld
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return ws, err
	}
	return ws, nil
}

// JailedCommand is how to start the program at path with args confined:
// through sandbox-exec.
func JailedCommand(p Policy, path string, args []string) (string, []string, error) {
	if _, err := Support(); err != nil {
		return "", nil, err
	}
	return sandboxExec, append([]string{"sandbox-exec", "-p", profile(p), path}, args[1:]...), nil
}

// RunJailed does nothing on macOS: sandbox-exec runs the program itself.
func RunJailed(args []string) {}
