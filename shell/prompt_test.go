package shell

import (
	"bytes"
	"os"
	"os/user"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
)

// TestPromptUserIsTheUID checks \u's name: the user the shell runs as, as
// bash shows it, not what USER says (su without - keeps the old one, a
// minimal environment has none).
func TestPromptUserIsTheUID(t *testing.T) {
	me, err := user.Current()
	if err != nil {
		needs.Missing(t, "the password database has no entry for this user: %v", err)
	}
	for _, env := range [][]string{{"USER=someone-else"}, nil} {
		var out bytes.Buffer
		s, err := New(Stdio(nil, &out, &out), Environ(append(env, "PATH="+os.Getenv("PATH"))))
		if err != nil {
			t.Fatal(err)
		}
		if got := s.promptData(0, 0).User; got != me.Username {
			t.Errorf("with %q: \\u is %q, want %q", env, got, me.Username)
		}
	}
}
