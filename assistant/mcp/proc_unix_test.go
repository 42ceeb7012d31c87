//go:build unix

package mcp

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
)

// TestDetachSession checks that a server leads a session of its own: a
// session without the user's terminal, which a server could otherwise
// reach through /dev/tty.
func TestDetachSession(t *testing.T) {
	cmd := exec.Command("sh", "-c", `read -r _ _ _ _ _ sid _ < /proc/$$/stat && echo "$sid $$"`)
	detach(cmd)
	out, err := cmd.Output()
	if err != nil {
		needs.Missing(t, "no /proc to read the session from: %v", err)
	}
	if f := strings.Fields(string(out)); len(f) != 2 || f[0] != f[1] {
		t.Errorf("the server is not a session leader: session, pid = %q", out)
	}
}
