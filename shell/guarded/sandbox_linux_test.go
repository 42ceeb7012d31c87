package guarded

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/creack/pty"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/policy/danger"
	"github.com/qsh-shell/qsh/policy/sandbox"
	"github.com/qsh-shell/qsh/policy/sandbox/confine"
)

// TestMain lets this test binary start confined programs, as qsh does.
func TestMain(m *testing.M) {
	confine.Main(os.Args)
	os.Exit(m.Run())
}

// TestSandbox checks a confined run: its programs are held by the kernel,
// and the shell's own opens for it by the same policy, refused, not just
// judged.
func TestSandbox(t *testing.T) {
	if sandbox.ABI() < 1 {
		needs.Missing(t, "Landlock is not available on this kernel")
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home, ws := filepath.Join(root, "home"), filepath.Join(root, "ws")
	for _, f := range []string{"home/.bashrc", "home/.ssh/id_rsa", "ws/.git/HEAD"} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755)
		os.WriteFile(filepath.Join(root, f), []byte("SECRET-OR-RC\n"), 0o644)
	}
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TMPDIR=" + ws}
	p, _ := sandbox.Compute(sandbox.Settings{Mode: sandbox.Workspace, Net: sandbox.NetOn}, sandbox.Place{Dir: ws, Home: home, Environ: env})
	run := Local(shellIn(ws, env))
	dw := danger.Workspace{Dir: ws, Home: home}
	for _, tc := range []struct {
		command   string
		unguarded bool
		status    int
		denied    string // the one line in Result.Denied
	}{
		{command: `echo built > out.txt && cat out.txt`},
		{command: `echo evil >> ~/.bashrc`, status: 1, denied: "sandbox: write to ~/.bashrc denied"},
		{command: `read -r line < ~/.ssh/id_rsa; echo "$line"`, denied: "sandbox: access to ~/.ssh/id_rsa denied (it holds secrets)"},
		{command: `echo "$(< ~/.ssh/id_rsa)"`, denied: "sandbox: access to ~/.ssh/id_rsa denied (it holds secrets)"},
		// .. after a link is taken where the link leads, as the kernel does.
		{command: `ln -s ~/.ssh s && echo evil >> s/../.bashrc`, status: 1, denied: "sandbox: write to ~/.bashrc denied"},
		{command: `sh -c 'echo evil >> ~/.bashrc'`, status: 2},
		{command: `cat ~/.ssh/id_rsa`, status: 1},
		{command: `sh -c 'touch ~/pwned'`, unguarded: true, status: 1},
	} {
		var out bytes.Buffer
		r := run(context.Background(), Request{Command: tc.command, Workspace: dw, Approved: danger.Dangerous,
			Unguarded: tc.unguarded, Sandbox: &p}, &out)
		if r.Err != nil || r.Stopped != nil || r.Status != tc.status {
			t.Errorf("%s: %+v, want status %d\n%s", tc.command, r, tc.status, out.String())
		}
		if got := strings.Join(r.Denied, "\n"); got != tc.denied {
			t.Errorf("%s: denied %q, want %q", tc.command, got, tc.denied)
		}
		if strings.Contains(out.String(), "SECRET") {
			t.Errorf("%s: the secret was read:\n%s", tc.command, out.String())
		}
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".bashrc")); string(b) != "SECRET-OR-RC\n" {
		t.Errorf("~/.bashrc = %q", b)
	}
	if _, err := os.Stat(filepath.Join(home, "pwned")); err == nil {
		t.Errorf("the unguarded run wrote at home")
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "out.txt")); string(b) != "built\n" {
		t.Errorf("out.txt = %q", b)
	}
}

// TestSandboxNoTerminal checks that a confined program cannot reach the
// terminal of the shell that runs it: through /dev/tty, TIOCSTI would type
// commands into the user's shell. The test runs itself again in a session
// whose controlling terminal is a pseudo-terminal, as qsh's is.
func TestSandboxNoTerminal(t *testing.T) {
	if sandbox.ABI() < 1 {
		needs.Missing(t, "Landlock is not available on this kernel")
	}
	if os.Getenv("QSH_TEST_CTTY") == "1" {
		noTerminalChild()
		return
	}
	ptm, tty, err := pty.Open()
	if err != nil {
		needs.Missing(t, "no pseudo-terminal: %v", err)
	}
	defer ptm.Close()
	defer tty.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSandboxNoTerminal$")
	cmd.Env = append(os.Environ(), "QSH_TEST_CTTY=1")
	cmd.Stdin = tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	out, _ := cmd.CombinedOutput()
	switch s := string(out); {
	case strings.Contains(s, "NO-CTTY-IN-TEST"):
		t.Skip("the test process got no controlling terminal")
	case !strings.Contains(s, "CONFINED-RAN"):
		t.Fatalf("the confined run did not run:\n%.2000s", s)
	case strings.Contains(s, "TTY-OPENED"):
		t.Fatalf("a confined program opened the user's terminal:\n%.2000s", s)
	}
}

// noTerminalChild is TestSandboxNoTerminal's run with a terminal: it
// prints what the confined program reached.
func noTerminalChild() {
	if f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err != nil {
		fmt.Println("NO-CTTY-IN-TEST", err)
		return
	} else {
		f.Close()
	}
	ws, _ := os.MkdirTemp("", "qsh-ctty-")
	defer os.RemoveAll(ws)
	ws, _ = filepath.EvalSymlinks(ws)
	env := []string{"HOME=" + ws, "PATH=" + os.Getenv("PATH"), "TMPDIR=" + ws}
	p, _ := sandbox.Compute(sandbox.Settings{Mode: sandbox.Workspace, Net: sandbox.NetOn}, sandbox.Place{Dir: ws, Home: ws, Environ: env})
	var out bytes.Buffer
	Local(shellIn(ws, env))(context.Background(), Request{Workspace: danger.Workspace{Dir: ws, Home: ws},
		Approved: danger.Dangerous, Sandbox: &p,
		Command: `sh -c 'echo CONFINED-RAN; if : >/dev/tty; then echo TTY-OPENED; fi'`}, &out)
	fmt.Println(out.String())
}
