package shell

import (
	"strings"
	"testing"
)

// set +o history keeps the lines typed after it out of the history, and
// set -o history takes them in again.
func TestSetHistoryOption(t *testing.T) {
	s, _, out := newTestShell(t, []string{
		"echo before",
		"set +o history",
		"echo hidden",
		"set -o history",
		"echo after",
		"history",
	})
	s.REPL(t.Context())
	o := out.String()
	list := o[strings.LastIndex(o, "echo before"):]
	if strings.Contains(list, "echo hidden") || !strings.Contains(list, "echo after") {
		t.Errorf("history after set +o history:\n%s", list)
	}
}

// An interactive shell starts with history, emacs and monitor on, as bash;
// a script with them off.
func TestInteractiveDefaults(t *testing.T) {
	s, _, out := newTestShell(t, []string{"shopt -po history emacs monitor; shopt -p expand_aliases"})
	s.REPL(t.Context())
	for _, want := range []string{"set -o history", "set -o emacs", "set -o monitor", "shopt -s expand_aliases"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("interactive options lack %q:\n%s", want, out.String())
		}
	}
}
