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
//
// The terminal echoes what is typed: to know that a line runs, wait for
// text it prints that the line does not hold (echo "loop""ing", not echo
// looping, whose echo is there before Enter is read).
//
// Waits wait for what the program prints; their timeout ([Timeout]) is a
// safety net, generous and scaled by QSH_TEST_TIMEOUT_SCALE (package
// internal/testtime). A failed wait shows the end of what it saw ([Tail]),
// never megabytes; a test of a large output keeps only its end ([Keep]) and
// counts the rest ([Term.Seen]).
package shelltest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/creack/pty"

	"github.com/qsh-shell/qsh/internal/testtime"
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

// defaultTimeout bounds a wait, before the scale: long enough for a start
// of qsh built with -race on two cores that other work keeps busy.
const defaultTimeout = 30 * time.Second

// Timeout bounds every wait unless [Term.SetTimeout] changes it: 30 s,
// scaled by QSH_TEST_TIMEOUT_SCALE. Tests that poll for an event nothing
// announces (a process appearing) give up after it too.
func Timeout() time.Duration { return testtime.Scaled(defaultTimeout) }

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
	t   testing.TB
	cmd *exec.Cmd
	pty *os.File // the master: what the program prints, what is typed
	// tty is the slave, held open for the program's whole life and after:
	// closed, Linux may drop what the program wrote last (the master's
	// read fails before the data reaches it), so the end of the output
	// is found by a marker written after the program's exit instead.
	tty     *os.File
	drained chan struct{} // closed once the end marker has been read
	timeout time.Duration
	keep    int // bytes of output kept at least; 0 keeps all ([Keep])

	mu      sync.Mutex
	raw     []byte          // what is kept of the output, escape sequences included
	clean   strings.Builder // raw[:cut] with escape sequences removed
	cut     int             // how much of raw clean covers
	dropped int             // stripped output dropped before clean's start
	seen    int64           // bytes read in all
	mark    int             // offset in all the stripped output where waits start
	changed chan struct{}
	readErr error
	exiting bool          // the program has exited: the end marker comes
	ended   bool          // the end marker was read
	exited  chan struct{} // closed when the program has exited and all it wrote is read
	status  int
}

type config struct {
	keep       int
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

// Keep keeps only the last n bytes (or a little more) of the output: a
// test of a program that prints megabytes, which waits for what comes at
// the end and counts the rest ([Term.Seen]). Output and Raw return what is
// kept.
func Keep(n int) Option { return func(c *config) { c.keep = max(n, 4<<10) } }

// Size sets the terminal size.
func Size(rows, cols uint16) Option { return func(c *config) { c.rows, c.cols = rows, cols } }

// Start runs bin on a new pseudo-terminal. The program, and every process
// it started, is killed when the test ends.
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
	// Every process the program starts inherits the tag, so the test's
	// end can find them all, orphans included.
	tag := fmt.Sprintf("SHELLTEST_TERM=%d.%d", os.Getpid(), terms.Add(1))
	cmd.Env = append(c.env, tag)
	cmd.Dir = c.dir
	DefaultSignals()
	f, tty, err := pty.Open()
	if err == nil {
		err = pty.Setsize(f, &pty.Winsize{Rows: c.rows, Cols: c.cols})
	}
	if err == nil {
		// As a login does: a session of its own, the terminal its
		// controlling one.
		cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
		err = cmd.Start()
	}
	if err != nil {
		if f != nil {
			f.Close()
			tty.Close()
		}
		t.Fatalf("shelltest: start %s: %v", bin, err)
	}
	tm := &Term{t: t, cmd: cmd, pty: f, tty: tty, timeout: Timeout(), keep: c.keep, drained: make(chan struct{}),
		changed: make(chan struct{}), exited: make(chan struct{}), status: -1}
	go tm.read()
	go func() {
		err := cmd.Wait()
		tm.mu.Lock()
		tm.status = cmd.ProcessState.ExitCode()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			// As a shell reports it: a program that dies of Ctrl-C,
			// as bash does, ends with 130 for its parent shell.
			tm.status = 128 + int(ws.Signal())
		} else if err != nil && tm.status < 0 {
			tm.status = -1
		}
		tm.mu.Unlock()
		// What the program wrote is ahead of the marker in the terminal.
		tm.mu.Lock()
		tm.exiting = true
		tm.mu.Unlock()
		if _, err := tty.Write(endMarker); err == nil {
			<-tm.drained
		}
		close(tm.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-tm.exited:
		default:
			cmd.Process.Kill()
			<-tm.exited
		}
		if left := endDescendants(tag, tm.timeout); len(left) > 0 {
			t.Logf("shelltest: processes %v outlived the test", left)
		}
		tty.Close()
		f.Close()
	})
	return tm
}

// terms counts the programs started, to tag each.
var terms atomic.Int64

// DefaultSignals makes SIGHUP, SIGINT and SIGQUIT default in the programs
// this process starts from now on, as a login gives them; [Start] calls it.
// A program inherits an ignored signal, and tests run under nohup, or as a
// background job of a script (SIGINT and SIGQUIT ignored), would find a
// shell that cannot be hung up or interrupted, or a trap that bash says
// is ignored. It catches those this process ignores: a caught signal is
// default again in a program once it starts.
func DefaultSignals() { defaultSignals.Do(catchIgnored) }

var defaultSignals sync.Once

func catchIgnored() {
	for _, sig := range []os.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT} {
		if signal.Ignored(sig) {
			signal.Notify(make(chan os.Signal, 1), sig)
		}
	}
}

// endMarker is written to the terminal once the program has exited: when
// the master reads it, all the program wrote is in.
var endMarker = []byte("\x00shelltest: the program exited\x00")

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
			tm.seen += int64(n)
			// Whole past the cut: advance holds back its start.
			if i := bytes.Index(tm.raw[tm.cut:], endMarker); i >= 0 && tm.exiting && !tm.ended {
				i += tm.cut
				tm.raw = append(tm.raw[:i], tm.raw[i+len(endMarker):]...)
				tm.seen -= int64(len(endMarker))
				tm.ended = true
				close(tm.drained)
			}
			queries := bytes.Count(tm.raw[start:], cpr)
			for range queries {
				tm.pty.Write([]byte("\x1b[1;1R"))
			}
			tm.advance()
			tm.trim()
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
	if i := tm.cut + bytes.LastIndexByte(tm.raw[tm.cut:], 0x1b); i >= tm.cut && end-i < 256 {
		// Held back unless complete: a prompt that ends with one (bracketed
		// paste on) would otherwise be stripped again at every look.
		if loc := ansi.FindIndex(tm.raw[i:]); loc == nil || loc[0] != 0 {
			end = i
		}
	}
	if tm.exiting && !tm.ended {
		end -= markerStart(tm.raw[tm.cut:end])
	}
	tm.clean.WriteString(Strip(string(tm.raw[tm.cut:end])))
	tm.cut = end
}

// trim drops output before the last tm.keep bytes, when there is twice
// that: the copies cost as much as the reads.
func (tm *Term) trim() {
	if tm.keep == 0 {
		return
	}
	if over := tm.clean.Len() - tm.keep; over > tm.keep {
		rest := tm.clean.String()[over:]
		tm.clean = strings.Builder{}
		tm.clean.WriteString(rest)
		tm.dropped += over
	}
	if over := tm.cut - tm.keep; over > tm.keep {
		tm.raw = append([]byte(nil), tm.raw[over:]...)
		tm.cut -= over
	}
}

// stripped is the output kept, with escape sequences removed, and the
// offset of its start in all the stripped output; tm.mu is held.
func (tm *Term) stripped() (string, int) {
	return tm.clean.String() + Strip(string(tm.raw[tm.cut:])), tm.dropped
}

// SetTimeout changes how long waits last before failing the test; d is
// scaled as [Timeout] is.
func (tm *Term) SetTimeout(d time.Duration) { tm.timeout = testtime.Scaled(d) }

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
	s, _ := tm.stripped()
	return s
}

// Seen is how many bytes the program printed in all, escape sequences
// included, kept or not.
func (tm *Term) Seen() int64 {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.seen
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
	s, at := tm.stripped()
	tm.mark = at + len(s)
	tm.mu.Unlock()
}

// WaitFor waits until text appears in the output after the mark, moves the
// mark past it, and returns the output up to and including it. It fails the
// test on timeout, showing the output.
func (tm *Term) WaitFor(text string) string {
	tm.t.Helper()
	searched := 0 // text does not start before this offset of all the output
	return tm.wait(fmt.Sprintf("%q", text), func(s string, at int) int {
		from := max(0, min(searched-at, len(s)-len(text)))
		if i := strings.Index(s[from:], text); i >= 0 {
			return from + i + len(text)
		}
		searched = at + len(s) - len(text) + 1
		return -1
	})
}

// WaitMatch is [Term.WaitFor] with a regular expression; it returns the
// match.
func (tm *Term) WaitMatch(re string) string {
	tm.t.Helper()
	rx := regexp.MustCompile(re)
	var match string
	tm.wait("/"+re+"/", func(s string, _ int) int {
		loc := rx.FindStringIndex(s)
		if loc == nil {
			return -1
		}
		match = s[loc[0]:loc[1]]
		return loc[1]
	})
	return match
}

// wait waits until find finds what it looks for in the output after the
// mark, given with the offset of its start in all the output; find returns
// where what it found ends, or -1.
func (tm *Term) wait(what string, find func(s string, at int) int) string {
	tm.t.Helper()
	deadline := time.After(tm.timeout)
	for {
		tm.mu.Lock()
		out, at := tm.stripped()
		from := min(max(tm.mark-at, 0), len(out))
		tail := out[from:]
		ch := tm.changed
		readErr, ended, status := tm.readErr, tm.ended, tm.status
		seen := tm.seen
		if end := find(tail, at+from); end >= 0 {
			tm.mark = at + from + end
			tm.mu.Unlock()
			return tail[:end]
		}
		tm.mu.Unlock()
		if ended {
			tm.t.Fatalf("shelltest: waiting for %s: the program exited (status %d) after printing %d bytes; output after mark:\n%s",
				what, status, seen, Tail(tail))
		}
		if readErr != nil {
			tm.t.Fatalf("shelltest: waiting for %s: the terminal failed (%v) after %d bytes; output after mark:\n%s",
				what, readErr, seen, Tail(tail))
		}
		select {
		case <-ch:
		case <-deadline:
			tm.t.Fatalf("shelltest: timed out after %v (QSH_TEST_TIMEOUT_SCALE scales it) waiting for %s; %d bytes printed in all; output after mark:\n%s",
				tm.timeout, what, seen, Tail(tail))
		}
	}
}

// Pid is the program's process ID.
func (tm *Term) Pid() int { return tm.cmd.Process.Pid }

// Exited reports whether the program has ended.
func (tm *Term) Exited() bool {
	select {
	case <-tm.exited:
		return true
	default:
		return false
	}
}

// WaitExit waits for the program to end and returns its exit status, as a
// shell's $? says it: 128+N when signal N killed it. It fails the test on
// timeout.
func (tm *Term) WaitExit() int {
	tm.t.Helper()
	select {
	case <-tm.exited:
	case <-time.After(tm.timeout):
		tm.t.Fatalf("shelltest: program did not exit within %v (QSH_TEST_TIMEOUT_SCALE scales it); output:\n%s", tm.timeout, Tail(tm.Output()))
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
	if !strings.ContainsAny(s, "\x1b\r\a") {
		return s // most of a large output: no copy, no regexp
	}
	s = ansi.ReplaceAllString(s, "")
	return strings.NewReplacer("\r", "", "\a", "").Replace(s)
}

// tailMax is how much of an output a failure shows.
const tailMax = 2 << 10

// Tail is the end of an output for a failure message: at most 2 KiB of
// it, saying how much came before.
func Tail(s string) string {
	if len(s) <= tailMax {
		return s
	}
	cut := len(s) - tailMax
	for cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut++
	}
	return fmt.Sprintf("[%d bytes before this]\n%s", cut, s[cut:])
}

// markerStart is how many bytes at the end of b may be the start of the
// end marker.
func markerStart(b []byte) int {
	for n := min(len(b), len(endMarker)-1); n > 0; n-- {
		if bytes.HasSuffix(b, endMarker[:n]) {
			return n
		}
	}
	return 0
}
