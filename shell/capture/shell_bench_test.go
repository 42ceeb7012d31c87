package capture

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/qsh-shell/qsh/internal/needs"
)

// BenchmarkShellCat types `cat` of a 100 MB file into an interactive
// shell on a terminal and times it until the terminal has shown it all:
// bash, bash behind script(1) (a relay like capture's), and the qsh binary
// named by $QSH_BIN with capture off and on. Without QSH_BIN only the bash
// ones run.
//
//	go build -o /tmp/qsh ./cmd/qsh && QSH_BIN=/tmp/qsh go test -run - -bench ShellCat ./shell/capture
func BenchmarkShellCat(b *testing.B) {
	const size = 100 << 20
	dir := b.TempDir()
	file := filepath.Join(dir, "big")
	line := append(bytes.Repeat([]byte("0123456789"), 7), '\n')
	if err := os.WriteFile(file, bytes.Repeat(line, size/len(line)), 0o644); err != nil {
		b.Fatal(err)
	}
	env := []string{"HOME=" + dir, "XDG_STATE_HOME=" + dir, "PATH=" + os.Getenv("PATH"), "TERM=xterm", "PS1=$ "}
	type shell struct {
		name string
		argv []string
		env  []string
	}
	bash := []string{"bash", "--norc", "--noprofile", "-i"}
	shells := []shell{
		{"bash", bash, nil},
		// The same relay as capture's, by the standard tool: what any pty
		// in between costs.
		{"bash-in-script", []string{"script", "-q", "-e", "-c", strings.Join(bash, " "), "/dev/null"}, nil},
	}
	if qsh := os.Getenv("QSH_BIN"); qsh != "" {
		shells = append(shells,
			shell{"qsh-capture-off", []string{qsh}, []string{"QSH_CAPTURE=off"}},
			shell{"qsh-capture-on", []string{qsh}, []string{"QSH_CAPTURE=on"}},
		)
	}
	for _, sh := range shells {
		b.Run(sh.name, func(b *testing.B) {
			if _, err := exec.LookPath(sh.argv[0]); err != nil {
				needs.Missing(b, "%v", err)
			}
			t := startTerm(b, sh.argv, append(env, sh.env...))
			defer t.close()
			// printf, so that the echo of the typed line does not match.
			t.typeAndWait(`printf 'READ\131\n'`+"\r", "READY\r\n")
			b.SetBytes(size)
			for b.Loop() {
				t.typeAndWait("cat "+file+`; printf 'CAT\055DONE\n'`+"\r", "CAT-DONE\r\n")
			}
		})
	}
}

// nullTerm is a terminal emulator that renders nothing: it reads as fast
// as it can, answers cursor position queries (line editors wait for them),
// and watches for a string.
type nullTerm struct {
	b      *testing.B
	cmd    *exec.Cmd
	master *os.File
	done   chan struct{}

	mu    sync.Mutex
	tail  []byte
	want  string
	found chan struct{}
}

func startTerm(b *testing.B, argv, env []string) *nullTerm {
	master, slave, err := openPty()
	if err != nil {
		b.Fatal(err)
	}
	setSizeB(master, 24, 80)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	slave.Close()
	t := &nullTerm{b: b, cmd: cmd, master: master, done: make(chan struct{})}
	go t.read()
	return t
}

func (t *nullTerm) read() {
	defer close(t.done)
	buf := make([]byte, 64<<10)
	for {
		n, err := t.master.Read(buf)
		t.mu.Lock()
		t.tail = append(t.tail, buf[:n]...)
		if t.want != "" && bytes.Contains(t.tail, []byte(t.want)) {
			close(t.found)
			t.want = ""
		}
		if i := bytes.LastIndex(t.tail, []byte("\x1b[6n")); i >= 0 {
			t.master.WriteString("\x1b[1;1R")
			t.tail = append(t.tail[:0], t.tail[i+4:]...)
		}
		// Enough to find a string split between reads, or see what went
		// wrong.
		if len(t.tail) > 4096 {
			t.tail = append(t.tail[:0], t.tail[len(t.tail)-256:]...)
		}
		t.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// typeAndWait types keys and waits until want went by.
func (t *nullTerm) typeAndWait(keys, want string) {
	t.mu.Lock()
	t.tail, t.want, t.found = t.tail[:0], want, make(chan struct{})
	found := t.found
	t.mu.Unlock()
	if _, err := t.master.WriteString(keys); err != nil {
		t.b.Fatal(err)
	}
	select {
	case <-found:
	case <-time.After(20 * time.Second):
		t.mu.Lock()
		defer t.mu.Unlock()
		t.b.Fatalf("waiting for %q, the screen ends with %q", want, t.tail)
	}
}

func (t *nullTerm) close() {
	t.cmd.Process.Kill()
	t.cmd.Wait()
	t.master.Close()
	<-t.done
}

func setSizeB(f *os.File, rows, cols uint16) {
	withFd(f, func(fd int) error {
		return unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, &unix.Winsize{Row: rows, Col: cols})
	})
}
