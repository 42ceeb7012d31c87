// Package needs is what a test needs from the machine — a program, a file
// a package installs, a kernel feature — and what a test does without it:
// it skips, or, under QSH_TEST_STRICT=1, fails. CI sets it, after test.sh
// has installed everything the tests drive, so that a broken set-up fails
// the run instead of shrinking it unseen.
//
// Skips for anything else (-short, not being root, a case known to differ)
// stay plain skips.
package needs

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// Env is the environment variable that turns a missing need into a
// failure.
const Env = "QSH_TEST_STRICT"

// Strict reports whether Env is 1. A value other than 1, 0 or empty
// panics, naming the variable: a typo would otherwise quietly let a run
// shrink again.
func Strict() bool {
	switch s := os.Getenv(Env); s {
	case "1":
		return true
	case "", "0":
		return false
	default:
		panic(fmt.Sprintf("%s=%q: want 1 or 0", Env, s))
	}
}

// Missing ends tb for a need the machine lacks, said as in [testing.TB.Skipf]:
// a skip, or a failure under [Env].
func Missing(tb testing.TB, format string, args ...any) {
	tb.Helper()
	if Strict() {
		tb.Fatalf(Env+"=1, so this fails instead of skipping: "+format, args...)
	}
	tb.Skipf(format, args...)
}

// Tool returns the path of program, or is [Missing] without it.
func Tool(tb testing.TB, program string) string {
	tb.Helper()
	path, err := exec.LookPath(program)
	if err != nil {
		Missing(tb, "%s is not installed (test.sh installs it)", program)
	}
	return path
}

// File is [Missing] unless path exists; from says which package installs
// it.
func File(tb testing.TB, path, from string) {
	tb.Helper()
	if _, err := os.Stat(path); err != nil {
		Missing(tb, "%s is not installed (%s has it; test.sh installs it)", path, from)
	}
}
