package needs

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMissing runs each case in a child test binary, strict and not, and
// checks that it skips or fails accordingly.
func TestMissing(t *testing.T) {
	if name := os.Getenv("QSH_NEEDS_CHILD"); name != "" {
		switch name {
		case "tool":
			Tool(t, "qsh-no-such-program")
		case "file":
			File(t, "/nonexistent/qsh-needs", "no package")
		case "present":
			Tool(t, "sh")
			File(t, "/", "the root")
		}
		return
	}
	for _, c := range []struct {
		name, strict, want string
	}{
		{"tool", "", "--- SKIP"},
		{"tool", "0", "--- SKIP"},
		{"tool", "1", "--- FAIL"},
		{"file", "", "--- SKIP"},
		{"file", "1", "--- FAIL"},
		{"present", "1", "--- PASS"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMissing$", "-test.v")
		cmd.Env = append(os.Environ(), "QSH_NEEDS_CHILD="+c.name, Env+"="+c.strict)
		out, _ := cmd.CombinedOutput()
		if !strings.Contains(string(out), c.want) {
			t.Errorf("%s with %s=%q: want %s in\n%s", c.name, Env, c.strict, c.want, out)
		}
	}
}

func TestStrictTypo(t *testing.T) {
	t.Setenv(Env, "yes")
	defer func() {
		if recover() == nil {
			t.Error("no panic for a value that is neither 1 nor 0")
		}
	}()
	Strict()
}
