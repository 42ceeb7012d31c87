package guarded

import (
	"context"
	"errors"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/qsh-shell/qsh/policy/sandbox"
	"github.com/qsh-shell/qsh/policy/secret"
)

// jailed is a confined run's jail, from its host, made on first use.
type jailed struct {
	host   *sandbox.Host
	policy sandbox.Policy

	once sync.Once
	j    *sandbox.Jail
	err  error

	// The last environment scrubbed, and what it became: a command
	// line's programs mostly share one, and its secrets are found by
	// regular expressions on every value (tenths of a millisecond each).
	envMu           sync.Mutex
	envFrom, envFor []string
}

// environ is env as the jail's programs get it: without secrets and the
// handles of the user's daemons, with the jail's own variables.
func (c *jailed) environ(j *sandbox.Jail, env []string) []string {
	c.envMu.Lock()
	defer c.envMu.Unlock()
	if c.envFor != nil && slices.Equal(env, c.envFrom) {
		return c.envFor
	}
	kept, _ := secret.ConfinedEnviron(dedupEnv(env))
	// A copy: the caller may reuse its slice.
	c.envFrom, c.envFor = slices.Clone(env), slices.Clip(dedupEnv(j.Environ(kept)))
	return c.envFor
}

func (c *jailed) get() (*sandbox.Jail, error) {
	c.once.Do(func() { c.j, c.err = c.host.Jail(c.policy) })
	return c.j, c.err
}

// end stops everything the run started (after grace, SIGKILL).
func (c *jailed) end(grace time.Duration) {
	if c.j != nil {
		c.j.Reset(grace)
	}
}

// run runs c in the jail and returns its exit status: the environment
// without secrets and the handles of the user's daemons, no terminal,
// its output through pipes. When ctx ends, everything in the run is
// stopped.
func (c *jailed) run(ctx context.Context, cmd Command) (int, error) {
	j, err := c.get()
	if err != nil {
		return 126, err
	}
	env := c.environ(j, cmd.Env)
	// Found as the jail's programs would find it: a program in the
	// private /tmp, as they see it.
	path, err := lookPath(cmd.Dir, env, cmd.Args[0], func(p string) bool {
		fi, err := j.Stat(p)
		return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
	})
	if err != nil {
		return 127, err
	}
	p, err := j.Start(sandbox.Spec{Path: path, Args: cmd.Args, Env: env, Dir: cmd.Dir, Stdin: cmd.Stdin,
		Stdout: cmd.Stdout, Stderr: cmd.Stderr})
	if err != nil {
		return 126, err
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			// The timeout or Ctrl-C: the whole run, not this program alone.
			c.end(killGrace)
		case <-done:
		}
	}()
	ws, err := p.Wait()
	close(done)
	if err != nil && !errors.Is(err, sandbox.ErrOutputHeld) {
		return 126, err
	}
	return waitStatus(ws), nil
}

func waitStatus(ws syscall.WaitStatus) int {
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}
