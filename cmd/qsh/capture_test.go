package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// TestCaptureTransparent checks that with capture on (the default) what
// programs print reaches the terminal byte for byte, with the OSC 133
// marks around each command, and that without it there are no marks.
// Capture starts the inner shell while qsh initialises (package early),
// or for arguments package early leaves to main (-s), from main.
func TestCaptureTransparent(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{nil, {"-s"}} {
		home := t.TempDir()
		tm := shelltest.Start(t, qshBinary(t), shelltest.Args(args...), shelltest.Dir(home),
			shelltest.Env("HOME="+home, "XDG_STATE_HOME="+home, "PS1="+ps1, "TERM=xterm-256color"))
		tm.WaitFor(ps1)
		enter(tm, `printf '\033[31mred\033[0m \033[1mbold\033[0m\n'`)
		raw := tm.Raw()
		if !regexp.MustCompile(`\x1b\]133;C;aid=\d+\x07\x1b\[31mred\x1b\[0m \x1b\[1mbold\x1b\[0m\r\n\x1b\]133;D;0;aid=\d+\x07`).MatchString(raw) {
			t.Errorf("qsh %q: the terminal got %q", args, raw[max(0, len(raw)-300):])
		}
		exit(t, tm)
	}

	tm := startShell(t, "", "TERM=xterm-256color", "QSH_CAPTURE=off")
	enter(tm, `printf '\033[31mred\033[0m\n'`)
	if raw := tm.Raw(); !strings.Contains(raw, "\x1b[31mred\x1b[0m\r\n") || strings.Contains(raw, "133;") {
		t.Errorf("without capture the terminal got %q", raw)
	}
	exit(t, tm)
}

func TestCaptureResize(t *testing.T) {
	t.Parallel()
	tm := startShell(t, "")
	tm.Resize(33, 97)
	for i := 0; ; i++ {
		// The proxy learns of the resize by a signal: give it a moment.
		if strings.Contains(enter(tm, "stty size"), "33 97") {
			break
		}
		if i == 20 {
			t.Fatalf("stty size after a resize to 33x97: %q", shelltest.Tail(tm.Output()))
		}
	}
	exit(t, tm)
}

// TestCapturePagerEditor opens less and vi with capture on and quits them.
func TestCapturePagerEditor(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	var text strings.Builder
	for i := range 100 {
		fmt.Fprintf(&text, "line %d of the file\n", i)
	}
	os.WriteFile(filepath.Join(home, "f.txt"), []byte(text.String()), 0o644)
	tm := startShell(t, home, "TERM=xterm-256color", "PATH="+os.Getenv("PATH"))
	tm.Mark()
	tm.Line("less f.txt")
	tm.WaitFor("line 3 of the file")
	tm.Type("G")
	tm.WaitFor("line 99 of the file")
	tm.Type("q")
	tm.WaitFor(ps1)
	tm.Mark()
	tm.Line("vi -u NONE f.txt")
	tm.WaitFor("line 3 of the file")
	tm.Type(shelltest.Escape, ":q\r")
	tm.WaitFor(ps1)
	if out := enter(tm, "echo status=$?"); !strings.Contains(out, "status=0") {
		t.Fatalf("after vi: %q", out)
	}
	if raw := tm.Raw(); !strings.Contains(raw, "\x1b[?1049h") || !strings.Contains(raw, "\x1b[?1049l") {
		t.Errorf("no alternate screen came and went")
	}
	exit(t, tm)
}

// TestCaptureReachesAssistant is the point of capture: what a failing
// build printed is in the request the model gets for `? why is this build
// failing`, and a 50 MB output does not bloat it.
func TestCaptureReachesAssistant(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Say("Define foo.", 2))
	// The terminal keeps the end of the 50 MB and counts the rest.
	const size = 50_000_000
	tm := shelltest.Start(t, qshBinary(t), shelltest.Keep(64<<10),
		shelltest.Env(aiEnv(t, srv, "PATH="+os.Getenv("PATH"))...), shelltest.Dir(t.TempDir()))
	tm.SetTimeout(2 * time.Minute) // 50 MB through two ptys, read by a -race test on busy cores
	tm.WaitFor(ps1)
	enter(tm, fmt.Sprintf(`head -c %d /dev/zero | tr '\0' x; echo`, size))
	if n := tm.Seen(); n < size {
		t.Fatalf("the terminal got %d bytes of the %d printed", n, size)
	}
	enter(tm, `printf '\033[1mmain.go:3:2:\033[0m undefined: \033[31mfoo\033[0m\n' >&2; false`)
	tm.Mark()
	tm.Line("? why is this build failing")
	tm.WaitFor("Define foo.")
	tm.WaitFor(ps1)
	body := string(srv.Requests()[0].Raw)
	if !strings.Contains(body, "main.go:3:2: undefined: foo") {
		t.Errorf("the request lacks the build's error:\n%s", shelltest.Tail(body))
	}
	if len(body) > 200<<10 {
		t.Errorf("the request is %d bytes", len(body))
	}
	exit(t, tm)
}
