package main

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/qsh-shell/qsh/assistant/ai/remote"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"qsh":                func() { os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
		"qsh-assistant":      func() { os.Exit(remote.Main(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
		"qsh-fake-assistant": fakeAssistant,
	})
}

// buildQsh builds the binary the pseudo-terminal tests drive, once.
var buildQsh = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "qsh-e2e")
	if err != nil {
		return "", err
	}
	return shelltest.Build(dir)
})

func qshBinary(t *testing.T) string {
	t.Helper()
	bin, err := buildQsh()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: filepath.Join("testdata", "script")})
}
