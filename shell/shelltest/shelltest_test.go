package shelltest_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// TestTerm drives cat on a pseudo-terminal: the terminal echoes what is
// typed, cat prints it back, Ctrl-D ends it.
func TestTerm(t *testing.T) {
	cat := needs.Tool(t, "cat")
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

// TestKeep prints 2 MB of x and a marker: the terminal keeps the end and
// counts the rest, and a wait finds the marker. (2 MB is 32 times what is
// kept; 20 MB, through a terminal's 4 KB reads, took over the wait's 30 s
// with -race on a busy machine.)
func TestKeep(t *testing.T) {
	t.Parallel()
	sh := needs.Tool(t, "sh")
	const size = 2 << 20
	tm := shelltest.Start(t, sh, shelltest.Keep(64<<10),
		shelltest.Args("-c", fmt.Sprintf(`head -c %d /dev/zero | tr '\0' x; echo; echo the-end`, size)))
	tm.WaitFor("the-end")
	if got := len(tm.Output()); got > 3*64<<10 {
		t.Errorf("%d bytes kept", got)
	}
	if !strings.HasSuffix(tm.Output(), "xxx\nthe-end\n") {
		t.Errorf("the output kept ends with:\n%s", shelltest.Tail(tm.Output()))
	}
	if tm.WaitExit(); tm.Seen() < size {
		t.Errorf("%d bytes seen, want at least %d", tm.Seen(), size)
	}
}

func TestTail(t *testing.T) {
	if got := shelltest.Tail("short"); got != "short" {
		t.Errorf("Tail(short) = %q", got)
	}
	long := strings.Repeat("é", 5000) + "end"
	got := shelltest.Tail(long)
	if len(got) > 2<<10+64 || !strings.HasSuffix(got, "éend") || !strings.HasPrefix(got, "[") || !utf8.ValidString(got) {
		t.Errorf("Tail of %d bytes = %d bytes: %.80q…", len(long), len(got), got)
	}
}

// TestExitKeepsOutput starts programs that print and exit at once: what
// they printed last is there once they have exited (Linux may drop it from
// a terminal whose slave is closed before the master read it).
func TestExitKeepsOutput(t *testing.T) {
	t.Parallel()
	sh := needs.Tool(t, "sh")
	for i := range 50 {
		tm := shelltest.Start(t, sh, shelltest.Args("-c", fmt.Sprintf(`echo first; echo "last %d"; exit 3`, i)))
		if st := tm.WaitExit(); st != 3 || tm.Output() != fmt.Sprintf("first\nlast %d\n", i) {
			t.Fatalf("run %d: status %d, output %q", i, st, tm.Output())
		}
	}
}
