//go:build !unix

package sandbox

import "os"

// SessionDir makes a directory of this process's named for what it holds.
func SessionDir(name string) (string, error) { return os.MkdirTemp("", name+"-") }
