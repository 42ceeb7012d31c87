package shelltest_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/shell/shelltest"
)

// TestTerm drives cat on a pseudo-terminal: the terminal echoes what is
// typed, cat prints it back, Ctrl-D ends it.
func TestTerm(t *testing.T) {
	cat, err := exec.LookPath("cat")
	if err != nil {
		t.Skip("no cat")
	}
	tm := shelltest.Start(t, cat)
	tm.Line("hello")
	if got := tm.WaitFor("hello"); got != "hello" {
		t.Fatalf("WaitFor returned %q", got) // the terminal's echo
	}
	if m := tm.WaitMatch(`h\w+`); m != "hello" {
		t.Fatalf("WaitMatch returned %q", m) // cat's copy
	}
	if !strings.Contains(tm.Raw(), "hello\r\n") || tm.Output() != "hello\nhello\n" {
		t.Fatalf("Raw %q, Output %q", tm.Raw(), tm.Output())
	}
	tm.Type(shelltest.CtrlD)
	if st := tm.WaitExit(); st != 0 {
		t.Fatalf("exit status %d", st)
	}
}

func TestStrip(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"\x1b[1;32mgreen\x1b[0m", "green"},
		{"a\r\nb", "a\nb"},
		{"\x1b]7;file://h/tmp\x1b\\x", "x"},
		{"\x1b]0;title\x07y", "y"},
		{"\x1b[?2004hz", "z"},
		{"a\x1b7⠋\x1b8\x1b[Kb", "a⠋b"},
	}
	for _, tt := range tests {
		if got := shelltest.Strip(tt.in); got != tt.want {
			t.Errorf("Strip(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
