package sandbox

import (
	"errors"
	"os"
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

// Limits says what cannot be enforced of p: sandbox-exec enforces all of it.
func Limits(p Policy) []string { return nil }

// Confiner starts programs under one policy.
type Confiner struct {
	profile string
}

// Prepare writes the sandbox-exec profile of p; exe (the program whose
// start calls confine.Main elsewhere) is not needed here.
func Prepare(p Policy, exe string) (*Confiner, error) {
	if _, err := Support(); err != nil {
		return nil, err
	}
	return &Confiner{profile: profile(p)}, nil
}

// Wrap is how to start the program at path with args confined: through
// sandbox-exec, which executes it under the profile.
func (c *Confiner) Wrap(path string, args []string) (string, []string, []*os.File) {
	argv := append([]string{"sandbox-exec", "-p", c.profile, path}, args[1:]...)
	return sandboxExec, argv, nil
}

// Close does nothing: the profile is text.
func (c *Confiner) Close() error { return nil }
