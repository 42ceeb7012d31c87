// Package shelltest drives a qsh binary through a real pseudo-terminal, for
// end-to-end tests of the REPL and of anything that talks to the user on the
// terminal (the assistant's streaming and confirmations, tools).
//
// A typical test builds the binary once in TestMain with [Build], then:
//
//	tm := shelltest.Start(t, bin, shelltest.Env("HOME="+t.TempDir()))
//	tm.WaitFor("$ ")
//	tm.Line("echo hello")
//	tm.WaitFor("hello")
//	tm.Type(shelltest.CtrlD)
//	tm.WaitExit()
//
// The terminal answers the cursor position queries line editors send, so
// readline does not stall. What the program printed is available with
// escape sequences removed ([Term.Output]); waits look only at what came
// after the last [Term.Mark].
package shelltest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// Keys, as the terminal sends them.
const (
	Enter     = "\r"
	Tab       = "\t"
	CtrlA     = "\x01"
	CtrlC     = "\x03"
	CtrlD     = "\x04"
	CtrlE     = "\x05"
	CtrlK     = "\x0b"
	CtrlL     = "\x0c"
	CtrlR     = "\x12"
	CtrlU     = "\x15"
	CtrlW     = "\x17"
	CtrlZ     = "\x1a"
	Escape    = "\x1b"
	Up        = "\x1b[A"
	Down      = "\x1b[B"
	Right     = "\x1b[C"
	Left      = "\x1b[D"
	Delete    = "\x1b[3~"
	Backspace = "\x7f"
)

// Timeout bounds every wait unless [Term.SetTimeout] changes it.
const Timeout = 10 * time.Second

// Build compiles qsh and qsh-assistant into dir and returns qsh's path.
// Call it once, from TestMain; it runs in the module of the caller.
func Build(dir string) (string, error) {
	// qsh starts qsh-assistant, found next to it, on the first `?`.
	cmd := exec.Command("go", "build", "-o", dir+string(filepath.Separator),
		"github.com/qsh-shell/qsh/cmd/qsh", "github.com/qsh-shell/qsh/cmd/qsh-assistant")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0") // as install.sh builds them
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return filepath.Join(dir, "qsh"), nil
}

// Term is a program running on a pseudo-terminal.
type Term struct {
	t       testing.TB
	cmd     *exec.Cmd
	pty     *os.File
	timeout time.Duration

	mu      sync.Mutex
	raw     []byte          // everything read, escape sequences included
	clean   strings.Builder // raw[:cut] with escape sequences removed
	cut     int             // how much of raw clean covers
	mark    int             // offset in the stripped output where waits start
	changed chan struct{}
	readErr error
	exited  chan struct{}
	status  int
}

type config struct {
	env        []string
	argv0      string
	args       []string
	dir        string
	rows, cols uint16
}

// Option configures [Start].
type Option func(*config)

// Env adds KEY=value pairs to the program's environment (which starts with
// only PATH, TERM=xterm and LANG=C.UTF-8, so tests do not depend on the
// user's).
func Env(kv ...string) Option { return func(c *config) { c.env = append(c.env, kv...) } }

// Args sets the program's arguments after argv[0].
func Args(args ...string) Option { return func(c *config) { c.args = args } }

// Argv0 sets the program's argv[0] (e.g. "-qsh", as login does).
func Argv0(name string) Option { return func(c *config) { c.argv0 = name } }

// Dir sets the working directory.
func Dir(dir string) Option { return func(c *config) { c.dir = dir } }

// Size sets the terminal size.
func Size(rows, cols uint16) Option { return func(c *config) { c.rows, c.cols = rows, cols } }

// Start runs bin on a new pseudo-terminal. The program is killed when the
// test ends.
func Start(t testing.TB, bin string, opts ...Option) *Term {
	t.Helper()
	c := config{
		env:  []string{"PATH=" + os.Getenv("PATH"), "TERM=xterm", "LANG=C.UTF-8"},
		rows: 24, cols: 80,
	}
	for _, o := range opts {
		o(&c)
	}
	cmd := exec.Command(bin, c.args...)
	if c.argv0 != "" {
		cmd.Args[0] = c.argv0
	}
	cmd.Env = c.env
	cmd.Dir = c.dir
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: c.rows, Cols: c.cols})
	if err != nil {
		t.Fatalf("shelltest: start %s: %v", bin, err)
	}
	tm := &Term{t: t, cmd: cmd, pty: f, timeout: Timeout,
		changed: make(chan struct{}), exited: make(chan struct{}), status: -1}
	go tm.read()
	go func() {
		err := cmd.Wait()
		tm.mu.Lock()
		tm.status = cmd.ProcessState.ExitCode()
		if err != nil && tm.status < 0 {
			tm.status = -1
		}
		tm.mu.Unlock()
		close(tm.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-tm.exited:
		default:
			cmd.Process.Kill()
			<-tm.exited
		}
		f.Close()
	})
	return tm
}

// cpr is the cursor position query; the terminal answers it.
var cpr = []byte("\x1b[6n")

func (tm *Term) read() {
	buf := make([]byte, 32*1024)
	for {
		n, err := tm.pty.Read(buf)
		tm.mu.Lock()
		if n > 0 {
			start := max(len(tm.raw)-len(cpr)+1, 0)
			tm.raw = append(tm.raw, buf[:n]...)
			queries := bytes.Count(tm.raw[start:], cpr)
			for range queries {
				tm.pty.Write([]byte("\x1b[1;1R"))
			}
			tm.advance()
		}
		if err != nil {
			tm.readErr = err
		}
		close(tm.changed)
		tm.changed = make(chan struct{})
		tm.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// advance strips what was read since the last call, except a trailing
// escape sequence that may still be incomplete. Stripping incrementally
// keeps long outputs (a pasted 1 MB line echoed rune by rune) linear.
func (tm *Term) advance() {
	end := len(tm.raw)
	if i := bytes.LastIndexByte(tm.raw[tm.cut:], 0x1b); i >= 0 && end-(tm.cut+i) < 256 {
		end = tm.cut + i
	}
	tm.clean.WriteString(Strip(string(tm.raw[tm.cut:end])))
	tm.cut = end
}

// stripped is all output with escape sequences removed; tm.mu is held.
func (tm *Term) stripped() string {
	return tm.clean.String() + Strip(string(tm.raw[tm.cut:]))
}

// SetTimeout changes how long waits last before failing the test.
func (tm *Term) SetTimeout(d time.Duration) { tm.timeout = d }

// Type sends keys to the program as if typed.
func (tm *Term) Type(keys ...string) {
	tm.t.Helper()
	for _, k := range keys {
		if _, err := io.WriteString(tm.pty, k); err != nil {
			tm.t.Fatalf("shelltest: type %q: %v", k, err)
		}
	}
}

// Line types line and Enter.
func (tm *Term) Line(line string) { tm.t.Helper(); tm.Type(line, Enter) }

// Output is everything the program printed, with escape sequences and
// carriage returns removed.
func (tm *Term) Output() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.stripped()
}

// Raw is everything the program printed, escape sequences included.
func (tm *Term) Raw() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return string(tm.raw)
}

// Resize changes the terminal's size; the kernel tells the program with
// SIGWINCH.
func (tm *Term) Resize(rows, cols uint16) {
	tm.t.Helper()
	if err := pty.Setsize(tm.pty, &pty.Winsize{Rows: rows, Cols: cols}); err != nil {
		tm.t.Fatalf("shelltest: resize: %v", err)
	}
}

// Mark makes later waits look only at output printed from now on.
func (tm *Term) Mark() {
	tm.mu.Lock()
	tm.mark = len(tm.stripped())
	tm.mu.Unlock()
}

// WaitFor waits until text appears in the output after the mark, moves the
// mark past it, and returns the output up to and including it. It fails the
// test on timeout, showing the output.
func (tm *Term) WaitFor(text string) string {
	tm.t.Helper()
	searched := 0 // text does not start before this offset of the tail
	return tm.wait(fmt.Sprintf("%q", text), func(s string) int {
		from := max(0, min(searched, len(s)-len(text)))
		if i := strings.Index(s[from:], text); i >= 0 {
			return from + i + len(text)
		}
		searched = len(s) - len(text) + 1
		return -1
	})
}

// WaitMatch is [Term.WaitFor] with a regular expression; it returns the
// match.
func (tm *Term) WaitMatch(re string) string {
	tm.t.Helper()
	rx := regexp.MustCompile(re)
	var match string
	tm.wait("/"+re+"/", func(s string) int {
		loc := rx.FindStringIndex(s)
		if loc == nil {
			return -1
		}
		match = s[loc[0]:loc[1]]
		return loc[1]
	})
	return match
}

func (tm *Term) wait(what string, find func(string) int) string {
	tm.t.Helper()
	deadline := time.After(tm.timeout)
	for {
		tm.mu.Lock()
		out := tm.stripped()
		tail := out[min(tm.mark, len(out)):]
		ch := tm.changed
		readErr := tm.readErr
		if end := find(tail); end >= 0 {
			tm.mark += end
			tm.mu.Unlock()
			return tail[:end]
		}
		tm.mu.Unlock()
		if readErr != nil {
			tm.t.Fatalf("shelltest: waiting for %s: program ended (%v); output after mark:\n%s", what, readErr, tail)
		}
		select {
		case <-ch:
		case <-deadline:
			tm.t.Fatalf("shelltest: timed out after %v waiting for %s; output after mark:\n%s", tm.timeout, what, tail)
		}
	}
}

// Exited reports whether the program has ended.
func (tm *Term) Exited() bool {
	select {
	case <-tm.exited:
		return true
	default:
		return false
	}
}

// WaitExit waits for the program to end and returns its exit status (-1
// if killed by a signal). It fails the test on timeout.
func (tm *Term) WaitExit() int {
	tm.t.Helper()
	select {
	case <-tm.exited:
	case <-time.After(tm.timeout):
		tm.t.Fatalf("shelltest: program did not exit within %v; output:\n%s", tm.timeout, tm.Output())
	}
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.status
}

// ansi matches the escape sequences terminals interpret: CSI, OSC, and
// two-byte escapes (ESC 7 and ESC 8 save and restore the cursor).
var ansi = regexp.MustCompile(`\x1b\[[0-9;?<=>]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[0-9=>@-Z\\-_]`)

// Strip removes escape sequences, carriage returns and backspaced
// characters' markers from terminal output.
func Strip(s string) string {
	s = ansi.ReplaceAllString(s, "")
	return strings.NewReplacer("\r", "", "\a", "").Replace(s)
}
