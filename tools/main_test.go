package tools

import (
	"os"
	"testing"

	"github.com/qsh-shell/qsh/tools/sandbox/confine"
)

// TestMain lets this test binary start the programs of confined commands,
// as qsh does (see package confine).
func TestMain(m *testing.M) {
	confine.Main(os.Args)
	os.Exit(m.Run())
}
