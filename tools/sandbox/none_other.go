//go:build !linux && !darwin

package sandbox

import (
	"errors"
	"os"
)

// Support says why nothing confines programs here.
func Support() (string, error) {
	return "", errors.New("no sandbox on this system")
}

// ABI is 0: there is no Landlock here.
func ABI() int { return 0 }

// Limits is empty: nothing is enforced here at all.
func Limits(p Policy) []string { return nil }

// Confiner is never made here.
type Confiner struct{}

// Prepare fails: nothing can confine programs here.
func Prepare(p Policy, exe string) (*Confiner, error) {
	_, err := Support()
	return nil, err
}

func (c *Confiner) Wrap(path string, args []string) (string, []string, []*os.File) {
	return path, args, nil
}

func (c *Confiner) Close() error { return nil }
