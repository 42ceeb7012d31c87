package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/qsh-shell/qsh/internal/needs"
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
// prompt. It answers readline's cursor-position queries as a terminal
// would.
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
				if bytes.Contains(buf[:n], []byte("\x1b[6n")) {
					tty.WriteString("\x1b[1;1R")
				}
				s.out <- append([]byte(nil), buf[:n]...)
			}
			if err != nil {
				return
			}
		}
	}()
	s.waitPrompt(b, sh)
	return s, time.Since(t0)
}

// waitPrompt waits for output ending in "$ " or "# " once colours are
// dropped: the shell's next prompt.
func (s *session) waitPrompt(b *testing.B, sh string) {
	b.Helper()
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
			plain := csi.ReplaceAllString(string(seen), "")
			if strings.HasSuffix(plain, "$ ") || strings.HasSuffix(plain, "# ") {
				return
			}
		case <-timeout:
			s.stop()
			b.Fatalf("no prompt from %s in 10s; it printed %q", sh, seen)
		}
	}
}

// expect waits for output that matches re.
func (s *session) expect(b *testing.B, sh string, re *regexp.Regexp) {
	b.Helper()
	var seen []byte
	timeout := time.After(10 * time.Second)
	for !re.Match(seen) {
		select {
		case chunk, ok := <-s.out:
			if !ok {
				b.Fatalf("%s exited; it printed %q", sh, seen)
			}
			seen = append(seen, chunk...)
		case <-timeout:
			s.stop()
			b.Fatalf("no %s from %s in 10s; it printed %q", re, sh, seen)
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

// memory is what a session's processes hold.
type memory struct {
	pss   int64 // proportional set size of the shell and its descendants
	rss   int64 // resident set of the shell's own process
	procs int
}

// memory measures the session: the shell's process and its descendants
// (with capture on, qsh runs itself again behind a proxy). PSS splits each
// shared page among the processes mapping it, so the two qsh processes
// count their shared binary once, and the total is what the session adds
// to the machine.
func (s *session) memory() (memory, error) {
	pids, err := tree(s.cmd.Process.Pid)
	if err != nil {
		return memory{}, err
	}
	m := memory{procs: len(pids)}
	for _, pid := range pids {
		kb, err := procField(fmt.Sprintf("/proc/%d/smaps_rollup", pid), "Pss:")
		if err != nil {
			return m, err
		}
		m.pss += kb * 1024
	}
	kb, err := procField(fmt.Sprintf("/proc/%d/status", pids[0]), "VmRSS:")
	m.rss = kb * 1024
	return m, err
}

// tree is pid and its descendants, from the parent pids in /proc.
func tree(pid int) ([]int, error) {
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	children := map[int][]int{}
	for _, d := range dirs {
		p, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
		if err != nil {
			continue // gone since ReadDir
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(stat, ')')
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 2 {
			continue
		}
		if ppid, err := strconv.Atoi(f[1]); err == nil {
			children[ppid] = append(children[ppid], p)
		}
	}
	pids := []int{pid}
	for i := 0; i < len(pids); i++ {
		pids = append(pids, children[pids[i]]...)
	}
	return pids, nil
}

// procField reads a "Name:  value kB" line of a /proc file, in kB.
func procField(path, name string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name); ok {
			return strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
		}
	}
	return 0, fmt.Errorf("no %s in %s", name, path)
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

// variants are the shells the prompt benchmarks compare: qsh as a user
// gets it (capture on, a 10,000-entry history), qsh without the capture
// proxy (one process instead of two), qsh with an empty history, and gosh,
// which has neither.
var variants = []struct {
	name, shell string
	env         []string // added to shellEnv's
	empty       bool     // an empty history instead
}{
	{"qsh", "qsh", nil, false},
	{"qsh-nocapture", "qsh", []string{"QSH_CAPTURE=off"}, false},
	{"qsh-nohistory", "qsh", nil, true},
	{"gosh", "gosh", nil, false},
}

// BenchmarkFirstPrompt times the start of an interactive shell on a pty,
// up to its first prompt, and reports the median (the bar is 5 ms for qsh
// with a 10,000-entry history).
func BenchmarkFirstPrompt(b *testing.B) {
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			sh := shell(b, v.shell)
			home, env := shellEnv(b)
			env = append(env, v.env...)
			if v.empty {
				env = append(env, "QSH_HISTFILE="+filepath.Join(home, "empty-history"))
			}
			var times []time.Duration
			for b.Loop() {
				s, d := startShell(b, sh, home, env)
				b.StopTimer()
				s.stop()
				b.StartTimer()
				times = append(times, d)
			}
			// The median: on a shared machine, a few starts that wait
			// for a busy CPU would otherwise decide the figure.
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-to-prompt")
		})
	}
}

// BenchmarkIdleMemory reports the memory of a shell sitting at its prompt
// (the bar is 10 MB), the most over the runs:
//   - PSS-MB: the session's whole process tree (with capture on, the
//     outer qsh, which is the capture proxy, and the inner one, the
//     shell), shared pages split among its processes: what the bar
//     applies to;
//   - RSS-MB: the resident set of the process the terminal started, what
//     ps shows for it;
//   - used-PSS-MB: the tree once a command line has run. qsh hands its
//     history to the line editor at the first key press, not before the
//     first prompt, so only this counts the editor's copy of it.
func BenchmarkIdleMemory(b *testing.B) {
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			sh := shell(b, v.shell)
			home, env := shellEnv(b)
			env = append(env, v.env...)
			if v.empty {
				env = append(env, "QSH_HISTFILE="+filepath.Join(home, "empty-history"))
			}
			var first, used memory
			for b.Loop() {
				s, _ := startShell(b, sh, home, env)
				time.Sleep(300 * time.Millisecond) // idle: let start-up work settle
				m, err := s.memory()
				if err == nil {
					s.tty.WriteString("true\r")
					s.waitPrompt(b, sh)
					time.Sleep(300 * time.Millisecond)
					var u memory
					u, err = s.memory()
					used.pss = max(used.pss, u.pss)
				}
				s.stop()
				if err != nil {
					b.Fatal(err)
				}
				first.pss, first.rss = max(first.pss, m.pss), max(first.rss, m.rss)
				first.procs = m.procs
			}
			b.ReportMetric(float64(first.pss)/(1<<20), "PSS-MB")
			b.ReportMetric(float64(first.rss)/(1<<20), "RSS-MB")
			b.ReportMetric(float64(used.pss)/(1<<20), "used-PSS-MB")
			b.ReportMetric(float64(first.procs), "procs")
		})
	}
}

// debianRC gives home the rc files a Debian user starts with, for both
// shells: bash, interactive and not a login shell, reads
// /etc/bash.bashrc and then ~/.bashrc (/etc/skel's, which loads
// bash-completion); qsh reads ~/.qshrc alone, which sources the same two.
// bash gets the benchmark's history too, as ~/.bash_history.
func debianRC(b *testing.B, home string) {
	b.Helper()
	for _, f := range []string{"/etc/bash.bashrc", "/etc/skel/.bashrc", "/usr/share/bash-completion/bash_completion"} {
		if _, err := os.Stat(f); err != nil {
			needs.Missing(b, "no %s", f)
		}
	}
	skel, err := os.ReadFile("/etc/skel/.bashrc")
	if err != nil {
		b.Fatal(err)
	}
	hist, err := os.ReadFile(filepath.Join(home, ".local", "state", "qsh", "history"))
	if err != nil {
		b.Fatal(err)
	}
	for name, data := range map[string][]byte{
		".bashrc":       skel,
		".qshrc":        []byte(". /etc/bash.bashrc\n. ~/.bashrc\n"),
		".bash_history": hist,
	} {
		if err := os.WriteFile(filepath.Join(home, name), data, 0o600); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFirstPromptBashrc times the first prompt of qsh and of bash
// with Debian's default rc files (bash-completion loaded), started in turn
// in each iteration so that both see the same load. It reports the median
// of each and the median of the differences, qsh's minus bash's (issue 27:
// at most 5 ms).
func BenchmarkFirstPromptBashrc(b *testing.B) {
	qsh, bash := shell(b, "qsh"), shell(b, "bash")
	home, env := shellEnv(b)
	debianRC(b, home)
	// Both load bash-completion: it defines _comp_initialize (2.12) or
	// _init_completion (2.11) and says its version.
	for _, sh := range []string{qsh, bash} {
		s, _ := startShell(b, sh, home, env)
		s.tty.WriteString("echo loaded-${BASH_COMPLETION_VERSINFO[0]}-$(type -t _init_completion _comp_initialize)\r")
		s.expect(b, sh, regexp.MustCompile(`loaded-2-function`))
		s.stop()
	}
	var tq, tb, diff []time.Duration
	for b.Loop() {
		s, dq := startShell(b, qsh, home, env)
		b.StopTimer()
		s.stop()
		b.StartTimer()
		s, db := startShell(b, bash, home, env)
		b.StopTimer()
		s.stop()
		b.StartTimer()
		tq, tb, diff = append(tq, dq), append(tb, db), append(diff, dq-db)
	}
	median := func(ds []time.Duration) float64 {
		slices.Sort(ds)
		return float64(ds[len(ds)/2].Microseconds()) / 1000
	}
	b.ReportMetric(median(tq), "qsh-ms-to-prompt")
	b.ReportMetric(median(tb), "bash-ms-to-prompt")
	b.ReportMetric(median(diff), "qsh-bash-ms")
}
