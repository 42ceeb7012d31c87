package sandbox

import (
	"errors"
	"os"
	"strings"
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

// Prepare writes the sandbox-exec profile of p; exe is not needed here.
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

// profile is p in the Sandbox Profile Language: the last rule that
// matches wins, so writes are denied, then allowed where p allows them,
// then secrets denied whatever the earlier rules said.
func profile(p Policy) string {
	var b strings.Builder
	b.WriteString("(version 1)\n(allow default)\n(deny file-write*)\n")
	for _, w := range p.Write {
		b.WriteString("(allow file-write* (subpath " + quote(w) + "))\n")
	}
	for _, d := range p.Deny {
		b.WriteString("(deny file-read* file-write* (subpath " + quote(d) + "))\n")
	}
	if !p.Net {
		b.WriteString("(deny network-outbound (remote tcp))\n(deny network-bind (local tcp))\n")
	}
	return b.String()
}

func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
