package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// historyEntries is the size of the history the first prompt is timed with.
const historyEntries = 10000

// session is a shell started on a pseudo-terminal.
type session struct {
	cmd *exec.Cmd
	tty *os.File
	out chan []byte
}

// csi matches control sequences (colours, erase line, …), dropped before
// looking for the prompt.
var csi = regexp.MustCompile(`\x1b\[[0-9;:?]*[A-Za-z]`)

// startShell starts sh on a new pty in dir with env and waits for its first
// prompt: output ending in "$ " or "# " once colours are dropped. It answers
// readline's cursor-position query as a terminal would.
func startShell(b *testing.B, sh, dir string, env []string) (*session, time.Duration) {
	b.Helper()
	cmd := exec.Command(sh)
	cmd.Env = env
	cmd.Dir = dir
	t0 := time.Now()
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		b.Fatal(err)
	}
	s := &session{cmd: cmd, tty: tty, out: make(chan []byte, 16)}
	go func() {
		defer close(s.out)
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			if n > 0 {
				s.out <- append([]byte(nil), buf[:n]...)
			}
			if err != nil {
				return
			}
		}
	}()
	var seen []byte
	timeout := time.After(10 * time.Second)
	for {
		select {
		case chunk, ok := <-s.out:
			if !ok {
				s.stop()
				b.Fatalf("%s exited before its prompt; it printed %q", sh, seen)
			}
			seen = append(seen, chunk...)
			if bytes.Contains(chunk, []byte("\x1b[6n")) {
				tty.WriteString("\x1b[1;1R")
			}
			plain := csi.ReplaceAllString(string(seen), "")
			if strings.HasSuffix(plain, "$ ") || strings.HasSuffix(plain, "# ") {
				return s, time.Since(t0)
			}
		case <-timeout:
			s.stop()
			b.Fatalf("no prompt from %s in 10s; it printed %q", sh, seen)
		}
	}
}

func (s *session) stop() {
	s.cmd.Process.Kill()
	s.tty.Close()
	s.cmd.Wait()
	for range s.out {
	}
}

// rss reads the resident set size of the session's process, in bytes.
func (s *session) rss() (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb * 1024, err
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", s.cmd.Process.Pid)
}

// shellEnv makes a home directory with a history of historyEntries
// commands, and the environment a user's terminal session would have.
func shellEnv(b *testing.B) (home string, env []string) {
	b.Helper()
	home = b.TempDir()
	hist := filepath.Join(home, ".local", "state", "qsh", "history")
	if err := os.MkdirAll(filepath.Dir(hist), 0o700); err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	for i := range historyEntries {
		fmt.Fprintf(&buf, "git commit -m 'change number %d' && go test ./... | grep -v ok%d\n", i, i%7)
	}
	if err := os.WriteFile(hist, buf.Bytes(), 0o600); err != nil {
		b.Fatal(err)
	}
	return home, []string{
		"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "LANG=C.UTF-8",
		"USER=bench", "QSH_HISTFILE=" + hist, "XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
	}
}

// BenchmarkFirstPrompt times the start of an interactive shell on a pty,
// up to its first prompt, with a 10,000-entry history for qsh (the bar is
// 5 ms). qsh with an empty history and gosh, which has none, are the
// references.
func BenchmarkFirstPrompt(b *testing.B) {
	for _, name := range []string{"qsh", "qsh-nohistory", "gosh"} {
		b.Run(name, func(b *testing.B) {
			sh := shell(b, strings.TrimSuffix(name, "-nohistory"))
			home, env := shellEnv(b)
			if strings.HasSuffix(name, "-nohistory") {
				env = append(env, "QSH_HISTFILE="+filepath.Join(home, "empty-history"))
			}
			var total time.Duration
			for b.Loop() {
				s, d := startShell(b, sh, home, env)
				b.StopTimer()
				s.stop()
				b.StartTimer()
				total += d
			}
			b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "ms-to-prompt")
		})
	}
}

// BenchmarkIdleMemory reports the resident memory of a shell sitting at its
// prompt with a 10,000-entry history (the bar is 10 MB), and with none.
func BenchmarkIdleMemory(b *testing.B) {
	for _, name := range []string{"qsh", "qsh-nohistory", "gosh"} {
		b.Run(name, func(b *testing.B) {
			sh := shell(b, strings.TrimSuffix(name, "-nohistory"))
			home, env := shellEnv(b)
			if strings.HasSuffix(name, "-nohistory") {
				env = append(env, "QSH_HISTFILE="+filepath.Join(home, "empty-history"))
			}
			var most int64
			for b.Loop() {
				s, _ := startShell(b, sh, home, env)
				time.Sleep(300 * time.Millisecond) // idle: let start-up work settle
				n, err := s.rss()
				s.stop()
				if err != nil {
					b.Fatal(err)
				}
				most = max(most, n)
			}
			b.ReportMetric(float64(most)/(1<<20), "RSS-MB")
		})
	}
}
