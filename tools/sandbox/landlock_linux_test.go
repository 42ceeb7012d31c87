package sandbox

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/tools/sandbox/confine"
)

// dialEnv makes this test binary, started confined, dial the address it
// names and say how it went (see TestMain).
const dialEnv = "SANDBOX_TEST_DIAL"

func requireLandlock(t testing.TB) {
	t.Helper()
	if ABI() < 1 {
		t.Skip("Landlock is not available on this kernel")
	}
}

// confined runs name with args under p, this test binary being the
// program that confines itself (TestMain calls confine.Main).
func confined(t *testing.T, p Policy, env []string, name string, args ...string) (string, error) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c, err := Prepare(p, exe)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed", name)
	}
	prog, argv, files := c.Wrap(path, append([]string{name}, args...))
	cmd := &exec.Cmd{Path: prog, Args: argv, ExtraFiles: files, Env: env}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestLandlock runs real programs under a policy computed for a home
// directory with secrets and a workspace, and checks what the kernel let
// them do.
func TestLandlock(t *testing.T) {
	requireLandlock(t)
	root := tree(t, "home/.bashrc", "home/.ssh/id_rsa", "home/.aws/credentials", "home/.cache/",
		"ws/.git/", "ws/src/main.c", "tmp/")
	home, ws := filepath.Join(root, "home"), filepath.Join(root, "ws")
	os.WriteFile(filepath.Join(home, ".ssh/id_rsa"), []byte("PRIVATE-KEY-SECRET\n"), 0o600)
	env := []string{"HOME=" + home, "TMPDIR=" + filepath.Join(root, "tmp"), "PATH=" + os.Getenv("PATH"), "WS=" + ws}
	p, _ := Compute(Workspace, true, Place{Dir: filepath.Join(ws, "src"), Home: home, Environ: env})
	tests := []struct {
		name   string
		script string
		ok     bool
		out    string // in the output
	}{
		{"write in the workspace", `echo built > "$WS/out.o" && cat "$WS/out.o"`, true, "built"},
		{"write in the cache", `mkdir -p ~/.cache/tool && echo x > ~/.cache/tool/f`, true, ""},
		{"mktemp in TMPDIR", `f=$(mktemp) && echo t > "$f"`, true, ""},
		{"/dev/null", `echo x > /dev/null`, true, ""},
		{"/dev/stdout", `echo to-stdout > /dev/stdout`, true, "to-stdout"},
		{"read at home", `cat ~/.bashrc`, true, "x"},
		{"read the system", `head -c 5 /etc/passwd`, true, "root"},
		{"list a secret directory's names", `ls ~/.ssh`, true, "id_rsa"},
		{"append to ~/.bashrc", `echo evil >> ~/.bashrc`, false, "Permission denied"},
		{"create at home", `touch ~/pwned`, false, "Permission denied"},
		{"read a key", `cat ~/.ssh/id_rsa`, false, "Permission denied"},
		{"read credentials", `cat ~/.aws/credentials`, false, "Permission denied"},
		{"a child of a child", `sh -c 'sh -c "echo evil >> ~/.bashrc"'`, false, "Permission denied"},
		// Other processes' /proc/*/environ stay readable: Landlock cannot
		// tell them from /proc/self (see README).
		{"signal a process outside", `kill -0 $PPID`, false, "not permitted"},
		{"write outside", `touch "$WS/../outside"`, false, "Permission denied"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if strings.HasPrefix(tc.script, "kill") && ABI() < 6 {
				t.Skipf("Landlock ABI %d does not scope signals (6 does)", ABI())
			}
			out, err := confined(t, p, env, "sh", "-c", tc.script)
			if (err == nil) != tc.ok || !strings.Contains(out, tc.out) {
				t.Errorf("%s: err %v, want ok %v; output:\n%s", tc.script, err, tc.ok, out)
			}
			if strings.Contains(out, "PRIVATE-KEY-SECRET") {
				t.Errorf("the key was read:\n%s", out)
			}
		})
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".bashrc")); string(b) != "x\n" {
		t.Errorf("~/.bashrc = %q", b)
	}
	for _, f := range []string{filepath.Join(home, "pwned"), filepath.Join(root, "outside")} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s was created", f)
		}
	}

	ro, _ := Compute(ReadOnly, true, Place{Dir: ws, Home: home, Environ: env})
	if out, err := confined(t, ro, env, "sh", "-c", `touch "$WS/new"`); err == nil {
		t.Errorf("readonly: a write in the workspace succeeded:\n%s", out)
	}
	if out, err := confined(t, ro, env, "sh", "-c", `f=$(mktemp) && rm "$f"`); err != nil {
		t.Errorf("readonly: the temp dir: %v\n%s", err, out)
	}
}

// TestLandlockNet checks QSH_AI_SANDBOX_NET=off: TCP connect denied.
func TestLandlockNet(t *testing.T) {
	requireLandlock(t)
	if ABI() < 4 {
		t.Skipf("Landlock ABI %d cannot deny TCP (4 is needed)", ABI())
	}
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback: %v", err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	exe, _ := os.Executable()
	env := []string{dialEnv + "=" + l.Addr().String()}
	for _, on := range []bool{true, false} {
		p := Policy{Mode: Workspace, Net: on, Write: []string{"/dev/null"}}
		out, err := confined(t, p, env, exe)
		if (err == nil) != on {
			t.Errorf("net %v: dial: %v\n%s", on, err, out)
		}
	}
}

func TestMain(m *testing.M) {
	confine.Main(os.Args)
	if addr := os.Getenv(dialEnv); addr != "" {
		c, err := net.Dial("tcp4", addr)
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		c.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}
