package capture

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/internal/testtime"
)

// The test binary plays the outer qsh and a fake inner shell, as the
// real qsh re-executes itself.
const roleEnv = "QSH_CAPTURE_TEST_ROLE"

func TestMain(m *testing.M) {
	switch os.Getenv(roleEnv) {
	case "outer":
		os.Exit(fakeOuter())
	case "inner":
		os.Exit(fakeInner())
	}
	os.Exit(m.Run())
}

// fakeOuter is what cmd/qsh does on a terminal with capture on.
func fakeOuter() int {
	inner := exec.Command(os.Args[0])
	inner.Env = append(os.Environ(), roleEnv+"=inner")
	status, err := Proxy(inner, os.Stdin, os.Stdout, Tail(16<<10))
	if err != nil {
		fmt.Println("proxy:", err)
		return 99
	}
	return status
}

// fakeInner is a tiny REPL wired the way qsh's must be: marks around the
// prompt and each command, `?N` prints the record of the last N commands.
func fakeInner() int {
	c, err := Dial()
	if err != nil || c == nil || Inner() || os.Getenv(EnvID) != "" {
		fmt.Println("dial:", err, c == nil)
		return 98
	}
	defer c.Close()
	// Like an interactive shell: Ctrl-C and Ctrl-Z are for the job, not for
	// us. Caught, not ignored: a caught signal is default again in
	// children, an ignored one stays ignored (and cannot be trapped).
	signal.Notify(make(chan os.Signal, 1), syscall.SIGINT, syscall.SIGQUIT,
		syscall.SIGTSTP, syscall.SIGTTOU, syscall.SIGTTIN)
	in := bufio.NewReader(os.Stdin)
	for {
		fmt.Print(c.PromptStart(), "$ ", c.PromptEnd())
		line, err := in.ReadString('\n')
		if err != nil {
			return 0
		}
		line = strings.TrimSpace(line)
		switch {
		case line == "":
		case line == "flood-exit":
			// Exit right after a burst: the proxy must still show it all.
			os.Stdout.Write(bytes.Repeat([]byte("flood\n"), 50000))
			fmt.Println("LAST LINE")
			return 5
		case line == "die":
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		case strings.HasPrefix(line, "exit "):
			n, _ := strconv.Atoi(line[5:])
			return n
		case strings.HasPrefix(line, "?"):
			n, _ := strconv.Atoi(line[1:])
			outs, err := c.Outputs(n)
			b, _ := json.Marshal(outs)
			fmt.Printf("RECORD %s %v\n", b, err)
		default:
			fmt.Print(c.CommandStart())
			cmd := exec.Command("sh", "-c", line)
			cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
			err := cmd.Run()
			fmt.Print(c.CommandEnd(statusOf(cmd.ProcessState, err)))
		}
	}
}

// screen reads what the user's terminal shows, keeping the last MiB.
type screen struct {
	t       *testing.T
	mu      sync.Mutex
	buf     []byte
	base    int64         // absolute position of buf[0]
	changed chan struct{} // closed and replaced at every read
	done    chan struct{}
}

func newScreen(t *testing.T, master *os.File) *screen {
	s := &screen{t: t, changed: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		b := make([]byte, 64<<10)
		for {
			n, err := master.Read(b)
			s.mu.Lock()
			s.buf = append(s.buf, b[:n]...)
			if over := len(s.buf) - 1<<20; over > 0 {
				s.buf = append(s.buf[:0], s.buf[over:]...)
				s.base += int64(over)
			}
			close(s.changed)
			s.changed = make(chan struct{})
			s.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return s
}

func (s *screen) pos() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.base + int64(len(s.buf))
}

// waitFor waits until re matches what the screen showed since from, and
// returns the match and the position after it.
func (s *screen) waitFor(from int64, re string) ([]string, int64) {
	s.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.After(testtime.Scaled(time.Minute))
	searched := from // what re is looked for in starts after this, less a margin
	for {
		s.mu.Lock()
		// The patterns are short: look again only at what came since.
		start := max(from, searched-4096) - s.base
		start = max(start, 0)
		searched = s.base + int64(len(s.buf))
		tail := s.buf[start:]
		loc := rx.FindSubmatchIndex(tail)
		var m []string
		if loc != nil {
			for i := 0; i < len(loc); i += 2 {
				if loc[i] >= 0 {
					m = append(m, string(tail[loc[i]:loc[i+1]]))
				} else {
					m = append(m, "")
				}
			}
		}
		end := s.base + start + int64(max(0, loc2(loc)))
		shown := string(s.buf[max(0, len(s.buf)-300):])
		ch := s.changed
		s.mu.Unlock()
		if m != nil {
			return m, end
		}
		select {
		case <-ch:
		case <-s.done:
			s.t.Fatalf("waiting for %q: the terminal closed; the screen ends with %q", re, shown)
		case <-deadline:
			s.t.Fatalf("waiting for %q; the screen ends with %q", re, shown)
		}
	}
}

func loc2(loc []int) int {
	if loc == nil {
		return 0
	}
	return loc[1]
}

// session is a fake qsh with capture, on a terminal of its own.
type session struct {
	*screen
	cmd    *exec.Cmd
	master *os.File
	id     string
}

func startSession(t *testing.T) *session {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), roleEnv+"=outer", "TERM=xterm-256color", "LC_ALL=C")
	// Not pty.Start: its master blocks in read, and Close then cannot
	// hang up the terminal while the screen reads it.
	master, slave, err := openPty()
	if err != nil {
		t.Fatal(err)
	}
	setSize(t, master, 24, 80)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	err = cmd.Start()
	slave.Close()
	if err != nil {
		t.Fatal(err)
	}
	s := &session{screen: newScreen(t, master), cmd: cmd, master: master, id: strconv.Itoa(cmd.Process.Pid)}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		master.Close()
		<-s.done
	})
	s.waitPrompt(0)
	return s
}

// waitPrompt waits for the fake shell's prompt, marks included, after from.
func (s *session) waitPrompt(from int64) int64 {
	s.t.Helper()
	_, end := s.waitFor(from, regexp.QuoteMeta(mark('A', s.id, 0)+"$ "+mark('B', s.id, 0)))
	return end
}

func (s *session) typ(keys string) int64 {
	from := s.pos()
	if _, err := s.master.Write([]byte(keys)); err != nil {
		s.t.Fatal(err)
	}
	return from
}

// run types line and waits for the next prompt.
func (s *session) run(line string) (shown string, next int64) {
	s.t.Helper()
	from := s.typ(line + "\r")
	end := s.waitPrompt(from)
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.buf[max(from-s.base, 0) : end-s.base]), end
}

func (s *session) record(n int) []Output {
	s.t.Helper()
	shown, _ := s.run(fmt.Sprintf("?%d", n))
	m := regexp.MustCompile(`RECORD (\[.*\]|null) (.*)\r\n`).FindStringSubmatch(shown)
	if m == nil || m[2] != "<nil>" {
		s.t.Fatalf("no record in %q", shown)
	}
	var outs []Output
	if err := json.Unmarshal([]byte(m[1]), &outs); err != nil {
		s.t.Fatal(err)
	}
	return outs
}

func (s *session) exit(t *testing.T, within time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(testtime.Scaled(within)):
		t.Fatalf("the proxy did not exit within %v", testtime.Scaled(within))
	}
	return statusOf(s.cmd.ProcessState, nil)
}

// statusOf is exitStatus for a process os/exec ran.
func statusOf(ps *os.ProcessState, err error) int {
	if ps == nil {
		return exitStatus(0, err)
	}
	return exitStatus(ps.Sys().(syscall.WaitStatus), nil)
}

func TestProxySession(t *testing.T) {
	t.Parallel()
	s := startSession(t)

	// Colour reaches the terminal byte for byte, marks too; the record
	// has the text.
	shown, _ := s.run(`printf '\033[31mred\033[0m \033]8;;http://x/\033\\link\033]8;;\033\\\n'; exit 3`)
	want := mark('C', s.id, 0) + "\x1b[31mred\x1b[0m \x1b]8;;http://x/\x1b\\link\x1b]8;;\x1b\\\r\n" + mark('D', s.id, 3)
	if !strings.Contains(shown, want) {
		t.Errorf("the terminal showed %q, want it to contain %q", shown, want)
	}
	if got := s.record(1); len(got) != 1 || got[0] != (Output{Status: 3, Text: "red link\n", Size: 42}) {
		t.Errorf("record = %+v", got)
	}

	// A resize of the user's terminal reaches the inner terminal. The
	// proxy learns of it by a signal, so the shell may still see the old
	// size for an instant.
	setSize(t, s.master, 41, 101)
	if !testtime.Until(10*time.Second, func() bool {
		shown, _ = s.run("stty size")
		return strings.Contains(shown, "41 101\r\n")
	}) {
		t.Fatalf("stty size after a resize to 41x101: %q", shown)
	}

	// Ctrl-C interrupts the running command, not the shell or the proxy.
	from := s.typ("echo started; sleep 20; echo not interrupted\r")
	_, after := s.waitFor(from, `started\r\n`)
	// Typed again until it lands: sleep may not have started yet.
	interrupted := func() bool {
		s.typ("\x03")
		return strings.Contains(s.tail(after), mark('D', s.id, 130))
	}
	if !testtime.Until(time.Minute, interrupted) {
		t.Fatalf("Ctrl-C did not interrupt sleep: %q", s.tail(after))
	}
	s.waitPrompt(after)
	if strings.Contains(s.tail(after), "not interrupted") {
		t.Fatalf("sleep was not interrupted: %q", s.tail(after))
	}
	if got := s.record(1); len(got) != 1 || got[0].Status != 130 || !strings.HasPrefix(got[0].Text, "started\n") {
		t.Errorf("record after Ctrl-C = %+v", got)
	}

	// Ctrl-Z reaches the foreground job too. Behind the proxy the shell is
	// a session leader: the kernel drops a default stop for its job (an
	// orphaned process group) but delivers the signal to a handler.
	from = s.typ(`trap 'echo got TSTP; exit 5' TSTP; echo waiting; while :; do :; done` + "\r")
	_, after = s.waitFor(from, `waiting\r\n`)
	stopped := func() bool {
		s.typ("\x1a")
		return strings.Contains(s.tail(after), mark('D', s.id, 5))
	}
	if !testtime.Until(time.Minute, stopped) {
		t.Fatalf("Ctrl-Z did not reach the job: %q", s.tail(after))
	}
	s.waitPrompt(after)
	if !strings.Contains(s.tail(after), "got TSTP") {
		t.Errorf("after Ctrl-Z: %q", s.tail(after))
	}

	// 50 MB of output: the terminal gets it all, the record keeps the tail.
	s.run(fmt.Sprintf(`head -c %d /dev/zero | tr '\0' x; echo; echo the end`, bigOutput))
	got := s.record(1)
	if len(got) != 1 || got[0].Size != bigOutput+2+9 || len(got[0].Text) > 16<<10 || !strings.HasSuffix(got[0].Text, "xxx\nthe end\n") {
		t.Errorf("record of %d bytes: size %d, %d bytes of text", bigOutput, got[0].Size, len(got[0].Text))
	}

	// The record holds the last commands, oldest first; `?` lines are not
	// commands.
	got = s.record(4)
	if len(got) != 4 || got[0].Status != 0 || !strings.HasSuffix(got[0].Text, "41 101\n") || got[1].Status != 130 ||
		got[2].Status != 5 || got[3].Size != bigOutput+11 {
		t.Errorf("record(4) = %+v", got)
	}

	// A background job that keeps the terminal open does not keep the
	// proxy alive once the shell exits; the exit status comes through.
	shown, _ = s.run(`sh -c 'trap "" HUP; exec sleep 30' & echo bg=$!`)
	if m := regexp.MustCompile(`bg=(\d+)`).FindStringSubmatch(shown); m != nil {
		pid, _ := strconv.Atoi(m[1])
		t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	}
	s.typ("exit 7\r")
	if st := s.exit(t, 5*time.Second); st != 7 {
		t.Errorf("exit status %d, want 7", st)
	}
}

func (s *screen) tail(from int64) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.buf[max(from-s.base, 0):])
}

// TestProxyDrain checks that what the shell printed just before it exited
// all reaches the terminal, and that a background job that goes on
// writing to the terminal does not keep the proxy alive.
func TestProxyDrain(t *testing.T) {
	t.Parallel()
	s := startSession(t)
	shown, _ := s.run(`sh -c 'trap "" HUP; while :; do echo spam; sleep 0.01; done' & echo bg=$!`)
	if m := regexp.MustCompile(`bg=(\d+)`).FindStringSubmatch(shown); m != nil {
		pid, _ := strconv.Atoi(m[1])
		t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	}
	from := s.typ("flood-exit\r")
	start := time.Now()
	if st := s.exit(t, drainMax+10*time.Second); st != 5 {
		t.Errorf("exit status %d, want 5", st)
	}
	t.Logf("the proxy ended %v after the shell was asked to exit", time.Since(start))
	s.waitFor(from, `LAST LINE`)
}

func TestProxyKilledInner(t *testing.T) {
	t.Parallel()
	s := startSession(t)
	s.typ("die\r")
	if st := s.exit(t, 5*time.Second); st != 128+9 {
		t.Errorf("exit status %d, want %d", st, 128+9)
	}
}

// TestProxyTerminalGone closes the user's terminal under a running
// session: the inner shell is hung up and the proxy ends.
func TestProxyTerminalGone(t *testing.T) {
	t.Parallel()
	s := startSession(t)
	s.master.Close()
	s.exit(t, hangupGrace+10*time.Second)
}

// TestProxyPager runs less and vi through the proxy: they open, work and
// quit, and what they drew on the alternate screen stays out of the record.
func TestProxyPager(t *testing.T) {
	t.Parallel()
	needs.Tool(t, "less")
	file := filepath.Join(t.TempDir(), "text")
	var text strings.Builder
	for i := range 200 {
		fmt.Fprintf(&text, "line %d of the file\n", i)
	}
	os.WriteFile(file, []byte(text.String()), 0o644)
	s := startSession(t)
	from := s.typ("less " + file + "\r")
	_, after := s.waitFor(from, `line 5 of the file`)
	s.typ("G")
	_, after = s.waitFor(after, `line 199 of the file`)
	s.typ("q")
	s.waitPrompt(after)
	if got := s.record(1); len(got) != 1 || got[0].Status != 0 || strings.Contains(got[0].Text, "line 5") {
		t.Errorf("record of less = %+v", got)
	}
	needs.Tool(t, "vi")
	from = s.typ("vi -u NONE " + file + "\r")
	_, after = s.waitFor(from, `line 5 of the file`)
	s.typ("Gdd:wq\r")
	s.waitPrompt(after)
	if got := s.record(1); len(got) != 1 || got[0].Status != 0 || strings.Contains(got[0].Text, "line 5") {
		t.Errorf("record of vi = %+v", got)
	}
	if data, _ := os.ReadFile(file); strings.Contains(string(data), "line 199") || !strings.Contains(string(data), "line 198") {
		t.Errorf("vi did not delete the last line: ...%q", data[max(0, len(data)-60):])
	}
}

// TestProxyInProcess runs Proxy in the test process itself, to check that
// it leaves no goroutine behind and gives the terminal back as it was.
func TestProxyInProcess(t *testing.T) {
	master, slave, err := openPty()
	if err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	defer slave.Close()
	scr := newScreen(t, master)
	before := termios(t, slave)
	signal.Stop(make(chan os.Signal, 1)) // the signal package's own goroutine, once and for all
	signal.Notify(make(chan os.Signal, 1), syscall.SIGWINCH)
	goroutines := runtime.NumGoroutine()

	inner := exec.Command("sh", "-c", `printf "\033]133;C;aid=$QSH_CAPTURE_ID\007\033[1mbold\033[0m\n\033]133;D;5;aid=$QSH_CAPTURE_ID\007"; exit 4`)
	status, err := Proxy(inner, slave, slave)
	if err != nil || status != 4 {
		t.Fatalf("Proxy = %d, %v; want 4", status, err)
	}
	scr.waitFor(0, regexp.QuoteMeta("\x1b[1mbold\x1b[0m\r\n\x1b]133;D;5;aid="))
	if after := termios(t, slave); after != before {
		t.Errorf("terminal modes after Proxy\n%+v\nwant\n%+v", after, before)
	}
	if !testtime.Until(30*time.Second, func() bool { return runtime.NumGoroutine() <= goroutines }) {
		buf := make([]byte, 1<<16)
		t.Fatalf("%d goroutines before Proxy, %d after:\n%s", goroutines, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
	}

	// An inner shell that cannot start is an error, and the terminal is
	// left alone: the caller runs the shell itself.
	_, err = Proxy(exec.Command(filepath.Join(t.TempDir(), "no-such-shell")), slave, slave)
	if err == nil || !strings.Contains(err.Error(), "start the inner shell") {
		t.Fatalf("Proxy of a missing shell: %v", err)
	}
	if after := termios(t, slave); after != before {
		t.Errorf("terminal modes after a failed Proxy differ")
	}
	// Not a terminal: an error too.
	r, w, _ := os.Pipe()
	defer r.Close()
	defer w.Close()
	if _, err := Proxy(exec.Command("true"), r, w); err == nil {
		t.Fatal("Proxy on a pipe: no error")
	}
}

func setSize(t *testing.T, f *os.File, rows, cols uint16) {
	t.Helper()
	err := withFd(f, func(fd int) error {
		return unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, &unix.Winsize{Row: rows, Col: cols})
	})
	if err != nil {
		t.Fatal(err)
	}
}

func termios(t *testing.T, f *os.File) unix.Termios {
	t.Helper()
	var tio *unix.Termios
	err := withFd(f, func(fd int) (err error) {
		tio, err = unix.IoctlGetTermios(fd, getTermios)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return *tio
}

func TestDialWithoutProxy(t *testing.T) {
	if c, err := Dial(); c != nil || err != nil {
		t.Fatalf("Dial outside a proxy = %v, %v", c, err)
	}
	var c *Client // capture off: the same calls do nothing
	if c.PromptStart()+c.PromptEnd()+c.CommandStart()+c.CommandEnd(1) != "" {
		t.Fatal("a nil Client printed marks")
	}
	if outs, err := c.Outputs(3); outs != nil || err != nil || c.Close() != nil {
		t.Fatalf("nil Client: %v, %v", outs, err)
	}
	t.Setenv(EnvFD, "banana")
	if _, err := Dial(); err == nil || Inner() {
		t.Fatalf("Dial with %s=banana: %v", EnvFD, err)
	}
}
