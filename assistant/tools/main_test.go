package tools

import (
	"os"
	"testing"

	"github.com/qsh-shell/qsh/policy/sandbox/confine"
)

// TestMain lets this test binary start the programs of confined commands,
// as qsh does (see package confine).
func TestMain(m *testing.M) {
	confine.Main(os.Args)
	// A registry made without testRegistry keeps its checkpoints and
	// audit log in a temp dir, never the user's.
	state, err := os.MkdirTemp("", "qsh-tools-state-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_STATE_HOME", state)
	code := m.Run()
	os.RemoveAll(state)
	os.Exit(code)
}
