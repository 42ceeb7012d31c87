package main

import (
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// Escape sequences a hostile model, page or program might send: the
// clipboard (OSC 52), the window title, a cleared screen, a device control
// string. None may reach the terminal as such.
var hostile = map[string]string{
	"\x1b]52;c;ZWNobyBwd25lZA==\x07": "^[]52;c;ZWNobyBwd25lZA==^G",
	"\x1b]0;pwned-title\x07":         "^[]0;pwned-title^G",
	"\x1b[2J":                        "^[[2J",
	"\x1bP+q544e\x1b\\":              "^[P+q544e^[\\",
}

// noHostile fails the test when the terminal got one of the sequences
// raw, and checks that each was shown escaped.
func noHostile(t *testing.T, tm *shelltest.Term, where string, shown bool) {
	t.Helper()
	raw := tm.Raw()
	for seq, escaped := range hostile {
		if strings.Contains(raw, seq) {
			t.Errorf("%s: %q reached the terminal", where, seq)
		}
		if shown && !strings.Contains(tm.Output(), escaped) {
			t.Errorf("%s: %q is not shown as %q:\n%s", where, seq, escaped, shelltest.Tail(tm.Output()))
		}
	}
}

func hostileText() string {
	var b strings.Builder
	for seq := range hostile {
		b.WriteString("x" + seq + "y ")
	}
	return b.String()
}

// TestEscapeModelText: the streamed answer, cut anywhere by the stream.
func TestEscapeModelText(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Say("Here: "+hostileText()+"\n\n```sh\n"+hostileText()+"\n```\n", 23))
	tm := startIn(t, t.TempDir(), aiEnv(t, srv))
	tm.Line("? hi")
	tm.WaitFor(ps1)
	noHostile(t, tm, "answer", true)
	exit(t, tm)
}

// TestEscapeToolOutput: what a command the assistant ran printed (shown
// dimmed), the command in the confirmation line, the tool lines, and a
// server's error message, which the shell prints.
func TestEscapeToolOutput(t *testing.T) {
	t.Parallel()
	var printf strings.Builder
	for seq := range hostile {
		printf.WriteString(strings.NewReplacer(`\`, `\\`, "\x1b", `\033`, "\x07", `\007`).Replace(seq) + "|")
	}
	srv := aitest.NewOpenAI(t,
		execCall("printf '"+printf.String()+"\\n'"),
		execCall("rm -f nothing-here; echo '"+hostileText()+"'"),
		aitest.Say("Done.", 1),
		aitest.Fail(400, "invalid_request_error", "bad "+hostileText()))
	tm := startIn(t, t.TempDir(), aiEnv(t, srv))
	tm.Line("? go")
	tm.WaitFor("run? [y/n")
	noHostile(t, tm, "the first command's output, the confirmation", true)
	tm.Type("y")
	tm.WaitFor("Done.")
	tm.WaitFor(ps1)
	noHostile(t, tm, "the second command's output", true)
	tm.Line("? again")
	tm.WaitFor("400 bad request")
	tm.WaitFor(ps1)
	noHostile(t, tm, "error", true)
	exit(t, tm)
}
