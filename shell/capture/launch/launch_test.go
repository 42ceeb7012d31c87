package launch

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/qsh-shell/qsh/internal/needs"
)

// userTerminal opens a pseudo-terminal to play the user's, and returns its
// master and slave descriptors.
func userTerminal(t *testing.T) (master, slave int) {
	t.Helper()
	master, slave, err := openPty()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Close(master)
		syscall.Close(slave)
	})
	ws := winsize{Row: 30, Col: 101}
	if err := ioctl(slave, syscall.TIOCSWINSZ, unsafe.Pointer(&ws)); err != nil {
		t.Fatal(err)
	}
	return master, slave
}

func openFds(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/dev/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(fds)
}

func TestStart(t *testing.T) {
	sh := needs.Tool(t, "sh")
	_, tty := userTerminal(t)
	before, err := getTermios(tty)
	if err != nil {
		t.Fatal(err)
	}
	// The inner shell says what it got: its terminal's size and modes, its
	// session, the socket and the variables naming it.
	script := `stty size; stty -a | grep -o -- '-\{0,1\}icanon'; ` +
		`[ "$(ps -o sid= -p $$ | tr -d ' ')" = $$ ] && echo session-leader; ` +
		`[ -S /dev/fd/3 ] && echo socket; echo "fd=$QSH_CAPTURE_FD id=$QSH_CAPTURE_ID x=$X"; exit 3`
	env := []string{"PATH=" + os.Getenv("PATH"), "X=old", EnvFD + "=9", "X=new"}
	in, err := Start(sh, []string{"sh", "-c", script}, env, tty)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := getTermios(tty)
	if raw.Lflag&(syscall.ICANON|syscall.ECHO|syscall.ISIG) != 0 || raw.Oflag&syscall.OPOST != 0 {
		t.Errorf("the user's terminal is not in raw mode after Start: %+v", raw)
	}
	var out []byte
	buf := make([]byte, 4096)
	for {
		n, err := syscall.Read(in.Master, buf)
		if n <= 0 || err != nil {
			break // EIO once the inner shell has exited
		}
		out = append(out, buf[:n]...)
	}
	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(in.Pid, &ws, 0, nil); err != nil || ws.ExitStatus() != 3 {
		t.Errorf("wait: %v, status %d; want 3", err, ws.ExitStatus())
	}
	got := strings.ReplaceAll(string(out), "\r\n", "\n")
	want := "30 101\nicanon\nsession-leader\nsocket\nfd=3 id=" + in.ID + " x=new\n"
	if got != want {
		t.Errorf("the inner shell printed\n%q\nwant\n%q", got, want)
	}
	if in.ID != strconv.Itoa(os.Getpid()) {
		t.Errorf("ID = %q, want this process's pid", in.ID)
	}
	syscall.Close(in.Master)
	syscall.Close(in.Socket)
	if err := in.Restore(); err != nil {
		t.Fatal(err)
	}
	if after, _ := getTermios(tty); after != before {
		t.Errorf("Restore left\n%+v\nwant\n%+v", after, before)
	}
}

// A failed start leaves the terminal as it was and nothing open.
func TestStartFails(t *testing.T) {
	_, tty := userTerminal(t)
	before, _ := getTermios(tty)
	fds := openFds(t)
	missing := filepath.Join(t.TempDir(), "no-such-shell")
	_, err := Start(missing, []string{"qsh"}, nil, tty)
	if err == nil || !strings.Contains(err.Error(), "start the inner shell") {
		t.Fatalf("Start(%s) = %v", missing, err)
	}
	if after, _ := getTermios(tty); after != before {
		t.Error("a failed Start changed the terminal's modes")
	}
	if n := openFds(t); n != fds {
		t.Errorf("%d descriptors open after a failed Start, %d before", n, fds)
	}
	r, w, _ := os.Pipe()
	defer r.Close()
	defer w.Close()
	if _, err := Start("/bin/true", []string{"true"}, nil, int(r.Fd())); err == nil || !strings.Contains(err.Error(), "terminal") {
		t.Errorf("Start on a pipe = %v", err)
	}
	if Terminal(int(r.Fd())) || !Terminal(tty) {
		t.Error("Terminal is wrong about a pipe or a terminal")
	}
}

// Raw after a job-control shell reset the terminal puts raw mode back.
func TestRawAgain(t *testing.T) {
	_, tty := userTerminal(t)
	in := &Inner{tty: tty}
	in.saved, _ = getTermios(tty)
	if err := in.Raw(); err != nil {
		t.Fatal(err)
	}
	in.Restore()
	if err := in.Raw(); err != nil {
		t.Fatal(err)
	}
	if t2, _ := getTermios(tty); t2.Lflag&syscall.ICANON != 0 {
		t.Error("Raw did not turn canonical mode off")
	}
}

func TestDedup(t *testing.T) {
	for _, tc := range []struct {
		env, drop, want []string
	}{
		{nil, nil, []string{}},
		{[]string{"A=1", "B=2", "A=3"}, nil, []string{"B=2", "A=3"}},
		{[]string{"A=1", "QSH_CAPTURE_FD=4", "B=", "QSH_CAPTURE_ID=7"}, []string{EnvFD, EnvID}, []string{"A=1", "B="}},
		{[]string{"A", "A=1", "=x"}, nil, []string{"A=1", "=x"}},
		{[]string{"AB=1", "A=2"}, []string{"A"}, []string{"AB=1"}},
	} {
		if got := dedup(tc.env, tc.drop...); !slices.Equal(got, tc.want) {
			t.Errorf("dedup(%q, %q) = %q, want %q", tc.env, tc.drop, got, tc.want)
		}
	}
}
