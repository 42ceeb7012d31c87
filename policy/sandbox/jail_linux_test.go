package sandbox

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/internal/testtime"
	"github.com/qsh-shell/qsh/policy/sandbox/confine"
	"github.com/qsh-shell/qsh/policy/sandbox/proxy"
	"github.com/qsh-shell/qsh/policy/sandbox/sandboxtest"
)

// attackEnv makes this test binary, started in a jail, run the attacks
// its arguments name (package sandboxtest) instead of the tests.
const attackEnv = "SANDBOX_TEST_ATTACK"

func TestMain(m *testing.M) {
	confine.Main(os.Args)
	if os.Getenv(attackEnv) == "1" {
		sandboxtest.Main(os.Args[1:])
	}
	os.Exit(m.Run())
}

func requireLandlock(t testing.TB) {
	t.Helper()
	if ABI() < 1 {
		needs.Missing(t, "Landlock is not available on this kernel")
	}
}

// jailed runs name with args in j, in dir, with env (and the jail's own
// variables), and returns what it printed and how it exited.
func jailed(t *testing.T, j *Jail, env []string, dir, name string, args ...string) (string, syscall.WaitStatus) {
	t.Helper()
	env = j.Environ(env)
	path := name
	if !filepath.IsAbs(name) {
		var err error
		if path, err = exec.LookPath(name); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	var out bytes.Buffer
	p, err := j.Start(Spec{Path: path, Args: append([]string{name}, args...), Env: env, Dir: dir, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	ws, err := p.Wait()
	if err != nil && err != ErrOutputHeld {
		t.Fatalf("%s: %v", name, err)
	}
	return out.String(), ws
}

// attack runs this test binary in j as the attacks names, and returns
// their lines.
func attack(t *testing.T, j *Jail, env []string, dir string, names ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env = append(env, attackEnv+"=1")
	out, _ := jailed(t, j, env, dir, exe, names...)
	return out
}

// place is a home with secrets and an rc file, a workspace (a git
// repository) and the environment for them, under a new temp dir.
type place struct {
	root, home, ws string
	env            []string
}

func newPlace(t testing.TB) place {
	t.Helper()
	return newPlaceIn(t, t.TempDir())
}

// outsideTmp is a new directory outside /tmp and $TMPDIR, where a user's
// home and projects are: none of it is put back into a private /tmp.
func outsideTmp(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("/var/tmp", "qsh-sandbox-test-")
	if err != nil {
		needs.Missing(t, "no directory outside /tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func newPlaceIn(t testing.TB, base string) place {
	t.Helper()
	root := treeIn(t, base, "home/.bashrc", "home/.qshrc", "state/qsh/history", "home/.ssh/id_rsa", "home/.aws/credentials", "home/.cache/", "home/notes.txt",
		"ws/.git/config", "ws/.git/HEAD", "ws/.git/objects/", "ws/.git/refs/heads/", "ws/src/main.c", "tmp/")
	home, ws := filepath.Join(root, "home"), filepath.Join(root, "ws")
	for _, f := range []string{"home/.ssh/id_rsa", "home/.qshrc", "state/qsh/history"} {
		os.WriteFile(filepath.Join(root, f), []byte("PRIVATE-KEY-SECRET\n"), 0o600)
	}
	os.WriteFile(filepath.Join(ws, ".git/HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.WriteFile(filepath.Join(ws, ".git/config"), []byte("[core]\n\trepositoryformatversion = 0\n\tbare = false\n"), 0o644)
	exe, _ := os.Executable()
	// The test binary, which runs the attacks, is under /tmp: on PATH, a
	// jail keeps it.
	env := []string{"HOME=" + home, "TMPDIR=" + filepath.Join(root, "tmp"), "PATH=" + filepath.Dir(exe) + ":" + os.Getenv("PATH"), "WS=" + ws,
		"XDG_STATE_HOME=" + filepath.Join(root, "state"), "XDG_CONFIG_HOME=" + filepath.Join(root, "config")}
	return place{root, home, ws, env}
}

func (pl place) policy(t testing.TB, s Settings) Policy {
	t.Helper()
	p, _ := Compute(s, Place{Dir: filepath.Join(pl.ws, "src"), Home: pl.home, Environ: pl.env})
	return p
}

// hosts are a namespaced host, one that runs jails as where the kernel
// refuses namespaces, and a namespaced one whose jails are opened ahead
// (see PrepareFor).
func hosts(t *testing.T) map[string]*Host {
	full, reduced, expected := NewHost(), NewHost(), NewHost()
	reduced.noNamespaces = true
	t.Cleanup(func() {
		full.Close()
		reduced.Close()
		expected.Close()
	})
	return map[string]*Host{"namespaces": full, "reduced": reduced, "expected": expected}
}

// TestJailFiles runs real programs in jails, namespaced and reduced, under
// a policy computed for a home directory with secrets and a workspace,
// and checks what the kernel let them do.
func TestJailFiles(t *testing.T) {
	requireLandlock(t)
	for name, h := range hosts(t) {
		for _, where := range []string{"in /tmp", "outside /tmp"} {
			t.Run(name+"/"+where, func(t *testing.T) {
				testJailFiles(t, h, name, where)
			})
		}
	}
}

func testJailFiles(t *testing.T, h *Host, name, where string) {
	pl := newPlace(t)
	if where == "outside /tmp" {
		pl = newPlaceIn(t, outsideTmp(t))
	}
	p := pl.policy(t, Settings{Mode: Workspace, Net: NetOn})
	var ahead *Jail
	if name == "expected" {
		h.PrepareFor(p)
		if ahead = h.live; ahead == nil {
			needs.Missing(t, "nothing prepared: %s", h.noNS)
		}
	}
	j, err := h.Jail(p)
	if err != nil {
		t.Fatal(err)
	}
	if name != "reduced" && !j.Layers().Namespaces {
		noNamespaces(t, j)
	}
	if ahead != nil && j != ahead {
		t.Errorf("the jail opened ahead was not used")
	}
	tests := []struct {
		name   string
		script string
		ok     bool
		out    string // in the output
	}{
		{"write in the workspace", `echo built > "$WS/out.o" && cat "$WS/out.o"`, true, "built"},
		{"write in the cache", `mkdir -p ~/.cache/tool && echo x > ~/.cache/tool/f`, true, ""},
		{"mktemp", `f=$(mktemp) && echo t > "$f" && cat "$f"`, true, "t"},
		{"/dev/null", `echo x > /dev/null`, true, ""},
		{"/dev/stdout", `echo to-stdout > /dev/stdout`, true, "to-stdout"},
		{"read at home", `cat ~/.bashrc`, true, "x"},
		{"read the system", `head -c 5 /etc/passwd`, true, "root"},
		{"read the system's secrets", `for f in /etc/shadow /etc/gshadow /etc/ssl/private/*; do cat "$f" && exit 0; done; exit 1`,
			false, ""},
		{"append to ~/.bashrc", `echo evil >> ~/.bashrc`, false, ""},
		{"create at home", `touch ~/pwned`, false, ""},
		{"read a key", `cat ~/.ssh/id_rsa`, false, "ermission denied"},
		{"read credentials", `cat ~/.aws/credentials`, false, "ermission denied"},
		{"a child of a child", `sh -c 'sh -c "echo evil >> ~/.bashrc"'`, false, ""},
		// Under /tmp, which a namespaced jail's programs have of
		// their own: they may write there, not where it really is.
		{"write outside", `touch "$WS/../outside"`, name != "reduced" && where == "in /tmp", ""},
		{"qsh's own state", `mkdir -p "$XDG_STATE_HOME/qsh" && echo x > "$XDG_STATE_HOME/qsh/audit.jsonl"`,
			name != "reduced" && where == "in /tmp", ""},
		{"qsh's history", `cat "$XDG_STATE_HOME/qsh/history"`, false, ""},
		{"qsh's rc file", `cat ~/.qshrc`, false, "ermission denied"},
	}
	for _, tc := range tests {
		out, ws := jailed(t, j, pl.env, pl.ws, "sh", "-c", tc.script)
		if (ws.ExitStatus() == 0) != tc.ok || !strings.Contains(out, tc.out) {
			t.Errorf("%s: %s: status %d, want ok %v; output:\n%s", tc.name, tc.script, ws.ExitStatus(), tc.ok, out)
		}
		if strings.Contains(out, "PRIVATE-KEY-SECRET") {
			t.Errorf("%s: the key was read:\n%s", tc.name, out)
		}
	}
	j.Reset(0)
	if b, _ := os.ReadFile(filepath.Join(pl.home, ".bashrc")); string(b) != "x\n" {
		t.Errorf("~/.bashrc = %q", b)
	}
	for _, f := range []string{filepath.Join(pl.home, "pwned"), filepath.Join(pl.root, "outside"),
		filepath.Join(pl.root, "state/qsh/audit.jsonl")} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s was created", f)
		}
	}
	if _, err := os.Stat(filepath.Join(pl.ws, "out.o")); err != nil {
		t.Errorf("the workspace was not written: %v", err)
	}
}

// TestJailReadOnly checks readonly mode: the temp dir only.
func TestJailReadOnly(t *testing.T) {
	requireLandlock(t)
	pl := newPlace(t)
	h := NewHost()
	defer h.Close()
	j, err := h.Jail(pl.policy(t, Settings{Mode: ReadOnly, Net: NetOn}))
	if err != nil {
		t.Fatal(err)
	}
	if out, ws := jailed(t, j, pl.env, pl.ws, "sh", "-c", `touch "$WS/new"`); ws.ExitStatus() == 0 {
		t.Errorf("readonly: a write in the workspace succeeded:\n%s", out)
	}
	if out, ws := jailed(t, j, pl.env, pl.ws, "sh", "-c", `f=$(mktemp) && rm "$f"`); ws.ExitStatus() != 0 {
		t.Errorf("readonly: the temp dir:\n%s", out)
	}
}

// namespaced is a jail with namespaces for p, or the test is skipped
// where the kernel gives none.
func namespaced(t *testing.T, h *Host, p Policy) *Jail {
	t.Helper()
	j, err := h.Jail(p)
	if err != nil {
		t.Fatal(err)
	}
	if !j.Layers().Namespaces {
		noNamespaces(t, j)
	}
	return j
}

// noNamespaces skips the test where the kernel gives no namespaces, and
// fails it where it does: the jail could not be made of them.
func noNamespaces(t *testing.T, j *Jail) {
	t.Helper()
	if l, err := Probe(); err != nil || !l.Namespaces {
		needs.Missing(t, "no namespaces here: %v", j.Layers().Reduced)
	}
	t.Fatalf("the jail has no namespaces, which the kernel gives: %q", j.Layers().Reduced)
}

// TestJailNamespaces checks what a namespaced jail's programs see: a
// /tmp of their own (with the places they need from the real one), an
// empty /run/user, their own processes only, no terminal; and that what
// they leave behind dies with the run. Prepared, the jail's process was
// started ahead, before its policy was known: the same walls hold.
func TestJailNamespaces(t *testing.T) {
	requireLandlock(t)
	for _, how := range []string{"opened", "prepared", "expected"} {
		t.Run(how, func(t *testing.T) { testJailNamespaces(t, how) })
	}
}

func testJailNamespaces(t *testing.T, how string) {
	pl := newPlace(t)
	h := NewHost()
	defer h.Close()
	p := pl.policy(t, Settings{Mode: Workspace, Net: NetOff})
	var ahead *Jail
	switch how {
	case "prepared":
		h.Prepare()
		if h.spare == nil {
			needs.Missing(t, "nothing prepared: %s", h.noNS)
		}
	case "expected":
		h.PrepareFor(p)
		if ahead = h.live; ahead == nil {
			needs.Missing(t, "nothing prepared: %s", h.noNS)
		}
	}
	j := namespaced(t, h, p)
	if how == "prepared" && h.spare != nil {
		t.Errorf("the prepared jail was not used")
	}
	if how == "expected" && j != ahead {
		t.Errorf("the jail opened ahead was not used")
	}
	// The rules of /etc's entries were made before the plan, where the
	// system has secrets there.
	if _, ok := presumed(); ok && how != "opened" && j.ahead == 0 {
		t.Errorf("the prepared jail made its ruleset afresh")
	}
	if !j.Layers().Seccomp || len(j.Layers().Reduced) > 0 {
		t.Errorf("layers: %+v", j.Layers())
	}
	// A file of the real /tmp that the run does not need.
	real, err := os.CreateTemp("", "qsh-real-tmp-")
	if err != nil {
		t.Fatal(err)
	}
	real.Close()
	defer os.Remove(real.Name())
	canary := "environ-canary-" + strings.Repeat("x", 8)
	t.Setenv("QSH_TEST_CANARY", canary) // in this process's environment: the jail must not show it

	out, _ := jailed(t, j, pl.env, pl.ws, "sh", "-c", `
		echo "tmpdir=$TMPDIR"
		test -e "`+real.Name()+`" && echo REAL-TMP-VISIBLE
		echo inside > /tmp/made-inside && echo made
		ls -A /run/user/$(id -u) | wc -l | sed 's/^/runuser=/'
		test -d "$WS/src" && echo ws-visible
		test -r "$HOME/.bashrc" && echo home-visible
		head -c 5 /etc/passwd | grep -q root && echo etc-visible
		cat /etc/shadow /etc/gshadow 2>/dev/null | head -c 1 | grep -q . && echo SHADOW-READ
		cat /etc/ssl/private/* 2>/dev/null | head -c 1 | grep -q . && echo SSL-PRIVATE-READ
		echo "uid=$(id -u)"
	`)
	for _, want := range []string{"tmpdir=/tmp", "made", "runuser=0", "ws-visible", "home-visible", "etc-visible",
		"uid=" + strconvItoa(os.Getuid())} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "REAL-TMP-VISIBLE") {
		t.Errorf("the real /tmp is visible:\n%s", out)
	}
	if strings.Contains(out, "SHADOW-READ") || strings.Contains(out, "SSL-PRIVATE-READ") {
		t.Errorf("the system's secrets were read:\n%s", out)
	}
	if f, err := j.Open("/tmp/made-inside", os.O_RDONLY, 0); err != nil {
		t.Errorf("the private /tmp from outside: %v", err)
	} else {
		b, _ := io.ReadAll(f)
		f.Close()
		if string(b) != "inside\n" {
			t.Errorf("the private /tmp from outside: %q", b)
		}
	}
	if _, err := os.Stat("/tmp/made-inside"); err == nil {
		t.Errorf("the jail wrote the real /tmp")
	}
	for _, a := range strings.Split(strings.TrimSpace(attack(t, j, pl.env, pl.ws, "procs", "environ:"+canary, "terminal",
		"tiocsti", "keyring", "ptrace:1", "mount", "userns")), "\n") {
		if !strings.HasPrefix(a, sandboxtest.Blocked) {
			t.Errorf("%s", a)
		}
	}

	// Left behind in a session of its own, it dies with the run.
	marker := filepath.Join(pl.ws, "alive")
	attack(t, j, pl.env, pl.ws, "daemon:qsh-test-daemon,"+marker)
	if !testtime.Until(testtime.Scaled(10*time.Second), func() bool {
		_, err := os.Stat(marker)
		return err == nil && running("qsh-test-daemon")
	}) {
		t.Fatalf("the daemon did not start")
	}
	j.Reset(0)
	if running("qsh-test-daemon") {
		t.Errorf("the daemon outlived the run")
	}
}

// running reports whether a process whose name (argv[0]) is name runs
// on the machine.
func running(name string) bool {
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, c := range cmdlines {
		b, _ := os.ReadFile(c)
		if argv0, _, _ := bytes.Cut(b, []byte{0}); string(argv0) == name {
			stat, _ := os.ReadFile(filepath.Join(filepath.Dir(c), "stat"))
			if i := bytes.LastIndexByte(stat, ')'); i > 0 && len(stat) > i+2 && stat[i+2] == 'Z' {
				continue // a zombie is dead
			}
			return true
		}
	}
	return false
}

func strconvItoa(n int) string { return confine.Itoa(n) }

// TestJailGit checks that the repository's configuration and hooks are
// read-only in the jail, and .git cannot be swapped, while commits work.
func TestJailGit(t *testing.T) {
	requireLandlock(t)
	needs.Tool(t, "git")
	t.Run("in /tmp", func(t *testing.T) { testJailGit(t, newPlace(t)) })
	t.Run("outside /tmp", func(t *testing.T) { testJailGit(t, newPlaceIn(t, outsideTmp(t))) })
}

func testJailGit(t *testing.T, pl place) {
	git := exec.Command("git", "init", "-q", "-b", "main", pl.ws)
	git.Env = pl.env
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	h := NewHost()
	defer h.Close()
	j := namespaced(t, h, pl.policy(t, Settings{Mode: Workspace, Net: NetOff}))
	env := append(pl.env, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	for _, tc := range []struct {
		script string
		ok     bool
	}{
		{`git add src/main.c && git commit -q -m one && git log --oneline | grep -c one`, true},
		{`git checkout -q -b other && git branch | grep -c other`, true},
		{`git config core.fsmonitor "touch $HOME/pwned"`, false},
		{`echo '[core] fsmonitor = touch ~/pwned' >> .git/config`, false},
		{`printf '#!/bin/sh\ntouch ~/pwned\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit`, false},
		{`mv .git .git-old`, false},
	} {
		out, ws := jailed(t, j, env, pl.ws, "sh", "-c", tc.script)
		if (ws.ExitStatus() == 0) != tc.ok {
			t.Errorf("%s: status %d, want ok %v\n%s", tc.script, ws.ExitStatus(), tc.ok, out)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(pl.ws, ".git/config")); strings.Contains(string(b), "fsmonitor") {
		t.Errorf(".git/config was changed:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(pl.ws, ".git/hooks/pre-commit")); err == nil {
		t.Errorf("a hook was written")
	}
	if _, err := os.Stat(filepath.Join(pl.home, "pwned")); err == nil {
		t.Errorf("pwned")
	}
}

// TestJailCache checks that a cache written in a jail keeps the user's
// own as it was: the jail writes a layer of its own over it, which the
// next jail sees.
func TestJailCache(t *testing.T) {
	requireLandlock(t)
	t.Run("in /tmp", func(t *testing.T) { testJailCache(t, newPlace(t)) })
	t.Run("outside /tmp", func(t *testing.T) { testJailCache(t, newPlaceIn(t, outsideTmp(t))) })
}

func testJailCache(t *testing.T, pl place) {
	cacheFile := filepath.Join(pl.home, ".cache/dep/code.go")
	os.MkdirAll(filepath.Dir(cacheFile), 0o755)
	os.WriteFile(cacheFile, []byte("package dep\n"), 0o444)
	h := NewHost()
	defer h.Close()
	p := pl.policy(t, Settings{Mode: Workspace, Net: NetOff})
	j := namespaced(t, h, p)
	out, ws := jailed(t, j, pl.env, pl.ws, "sh", "-c", `chmod u+w ~/.cache/dep/code.go && echo 'func init() { evil() }' >> ~/.cache/dep/code.go && echo new > ~/.cache/new && cat ~/.cache/dep/code.go`)
	if ws.ExitStatus() != 0 || !strings.Contains(out, "evil") {
		t.Fatalf("the cache is not writable in the jail: %d\n%s", ws.ExitStatus(), out)
	}
	if b, _ := os.ReadFile(cacheFile); string(b) != "package dep\n" {
		t.Errorf("the user's cache was changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(pl.home, ".cache/new")); err == nil {
		t.Errorf("a file was added to the user's cache")
	}
	h.Close()
	j = namespaced(t, h, p)
	if out, _ := jailed(t, j, pl.env, pl.ws, "cat", filepath.Join(pl.home, ".cache/new")); out != "new\n" {
		t.Errorf("the next jail does not see the layer: %q", out)
	}
}

// withProxy gives p a proxy for rules, as the assistant does.
func withProxy(t *testing.T, p *Policy, rules proxy.Rules) *proxy.Listener {
	t.Helper()
	l, err := proxy.Listen(t.TempDir(), rules, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	p.Proxy, p.ProxyPort = l.Socket, l.Port
	return l
}

// TestJailProxy checks the allow list end to end: curl in the jail
// reaches a registry-like server by a name the user pinned, through the
// proxy its environment names; not one that is not allowed, nor a name
// that resolves to a private address, nor the server directly; each
// refusal is told.
func TestJailProxy(t *testing.T) {
	requireLandlock(t)
	needs.Tool(t, "curl")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "registry-says-"+r.URL.Path[1:])
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	for name, h := range hosts(t) {
		t.Run(name, func(t *testing.T) {
			pl := newPlace(t)
			p := pl.policy(t, Settings{Mode: Workspace, Net: AllowList})
			l := withProxy(t, &p, proxy.Rules{Allow: []string{"registry.test", "localhost"},
				Hosts: map[string]string{"registry.test": "127.0.0.1"}})
			j, err := h.Jail(p)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := jailed(t, j, pl.env, pl.ws, "sh", "-c", `
				curl -sS --max-time 20 http://registry.test:`+port+`/hello; echo
				curl -sS --max-time 20 http://evil.test:`+port+`/x; echo " evil=$?"
				curl -sS --max-time 20 --noproxy '' http://localhost:`+port+`/x; echo " private=$?"
				curl -sS --max-time 20 --noproxy '*' http://127.0.0.1:`+port+`/x; echo " direct=$?"
			`)
			if !strings.Contains(out, "registry-says-hello") {
				t.Errorf("the allowed registry was not reached:\n%s", out)
			}
			if strings.Count(out, "registry-says-") != 1 {
				t.Errorf("a refused request got through:\n%s", out)
			}
			got := strings.Join(l.Refusals(), "\n")
			for _, want := range []string{"network to evil.test:" + port + " refused (not in the allow list",
				"network to localhost:" + port + " refused (it resolves to a private address"} {
				if !strings.Contains(got, want) {
					t.Errorf("refusals lack %q:\n%s", want, got)
				}
			}
		})
	}
}

// TestJailNet checks the network modes against a server outside.
func TestJailNet(t *testing.T) {
	requireLandlock(t)
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		needs.Missing(t, "no loopback: %v", err)
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
	addr := l.Addr().String()
	for name, h := range hosts(t) {
		for _, mode := range []Net{NetOn, NetOff, AllowList} {
			t.Run(name+"/"+string(mode), func(t *testing.T) {
				pl := newPlace(t)
				p := pl.policy(t, Settings{Mode: Workspace, Net: mode})
				if mode == AllowList {
					withProxy(t, &p, proxy.Rules{Allow: []string{"registry.test"}})
				}
				j, err := h.Jail(p)
				if err != nil {
					t.Fatal(err)
				}
				out := attack(t, j, pl.env, pl.ws, "tcp:"+addr, "mptcp:"+addr, "tfo:"+addr, "raw", "netlink")
				for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
					want := sandboxtest.Blocked
					if mode == NetOn && strings.HasPrefix(line, sandboxtest.Escaped+" tcp") {
						want = sandboxtest.Escaped // the network is on
					}
					if !strings.HasPrefix(line, want) {
						t.Errorf("%s", line)
					}
				}
			})
		}
	}
}

// nonRootEnv makes this test binary, started as another user, run
// TestJailNonRoot's inside.
const nonRootEnv = "SANDBOX_TEST_NONROOT"

// TestJailNonRoot runs a jail as an ordinary user (nobody, through
// setpriv, when the tests run as root): the kernel gives it the same
// namespaces, and the user's own rights hold inside.
func TestJailNonRoot(t *testing.T) {
	requireLandlock(t)
	if os.Getenv(nonRootEnv) != "" {
		nonRootInside(t)
		return
	}
	if os.Getuid() != 0 {
		t.Skip("the tests run as an ordinary user already")
	}
	setpriv := needs.Tool(t, "setpriv")
	// A directory nobody can reach, with a copy of this binary.
	dir, err := os.MkdirTemp("", "qsh-nonroot-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	exe, _ := os.Executable()
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "sandbox.test")
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	os.MkdirAll(filepath.Join(home, "ws/.git"), 0o755)
	os.WriteFile(filepath.Join(home, ".bashrc"), []byte("# rc\n"), 0o644)
	filepath.Walk(home, func(p string, _ os.FileInfo, _ error) error { return os.Chown(p, 65534, 65534) })
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=-all", bin,
		"-test.run=^TestJailNonRoot$", "-test.v")
	cmd.Env = []string{nonRootEnv + "=1", "HOME=" + home, "PATH=" + os.Getenv("PATH")}
	cmd.Dir = home
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS") {
		t.Errorf("as nobody: %v\n%s", err, out)
	}
	t.Logf("as nobody:\n%s", out)
}

// nonRootInside is TestJailNonRoot as the ordinary user.
func nonRootInside(t *testing.T) {
	home := os.Getenv("HOME")
	ws := filepath.Join(home, "ws")
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	p, _ := Compute(Settings{Mode: Workspace, Net: NetOff}, Place{Dir: ws, Home: home, Environ: env})
	h := NewHost()
	defer h.Close()
	j, err := h.Jail(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("uid %d, layers: %s %q", os.Getuid(), j.Layers(), j.Layers().Reduced)
	if !j.Layers().Namespaces {
		t.Skipf("no namespaces for an ordinary user here: %q", j.Layers().Reduced)
	}
	out, _ := jailed(t, j, env, ws, "sh", "-c", `id -u; echo built > out.txt && echo ws-ok; echo evil >> ~/.bashrc || echo rc-denied;
		mktemp >/dev/null && echo tmp-ok; ls /proc | grep -c '^[0-9]'`)
	for _, want := range []string{"65534\n", "ws-ok", "rc-denied", "tmp-ok"} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".bashrc")); string(b) != "# rc\n" {
		t.Errorf("~/.bashrc = %q", b)
	}
}

// TestSessionDir: the directories a dead process left are removed; a
// live one's are not.
func TestSessionDir(t *testing.T) {
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	base := os.Getenv("XDG_RUNTIME_DIR")
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		needs.Missing(t, "%v", err)
	}
	stale := filepath.Join(base, fmt.Sprintf("qsh-test-%d-123", dead.Process.Pid))
	live := filepath.Join(base, fmt.Sprintf("qsh-test-%d-456", os.Getppid()))
	for _, d := range []string{stale, live} {
		os.MkdirAll(filepath.Join(d, "tmp/x"), 0o700)
	}
	dir, err := SessionDir("qsh-test")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(filepath.Base(dir), fmt.Sprintf("qsh-test-%d-", os.Getpid())) {
		t.Errorf("dir %s", dir)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Errorf("the dead process's directory is left")
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the live process's directory was removed")
	}
}

// TestPrepare checks that a prepared jail's process waits for a jail
// that can use it: not one with the machine's network, which needs its
// namespace; and that closing the host ends it.
func TestPrepare(t *testing.T) {
	requireLandlock(t)
	pl := newPlace(t)
	h := NewHost()
	defer h.Close()
	h.Prepare()
	spare := h.spare
	if spare == nil {
		needs.Missing(t, "nothing prepared: %s", h.noNS)
	}
	h.Prepare() // one is enough
	if h.spare != spare {
		t.Errorf("a second one was prepared")
	}
	j, err := h.Jail(pl.policy(t, Settings{Mode: Workspace, Net: NetOn}))
	if err != nil {
		t.Fatal(err)
	}
	if j == spare || h.spare != spare {
		t.Errorf("the network's jail took the prepared one")
	}
	if out, _ := jailed(t, j, pl.env, pl.ws, "sh", "-c", "echo inside"); out != "inside\n" {
		t.Errorf("the jail ran: %q", out)
	}
	h.Close()
	select {
	case <-spare.dead:
	case <-time.After(testtime.Scaled(10 * time.Second)):
		t.Errorf("the prepared jail outlived its host")
	}
	if h.Prepare(); h.spare != nil {
		h.spare.Close()
		t.Errorf("a closed host prepared a jail")
	}
}

// TestPrepareFor checks that a jail opened ahead for a policy serves that
// policy only: a command with another gets a jail of its own, from the
// process prepared beside it, with its own walls; and that a closed host
// opens nothing ahead.
func TestPrepareFor(t *testing.T) {
	requireLandlock(t)
	pl := newPlace(t)
	h := NewHost()
	defer h.Close()
	p := pl.policy(t, Settings{Mode: Workspace, Net: NetOff})
	h.PrepareFor(p)
	ahead, spare := h.live, h.spare
	if ahead == nil || spare == nil {
		needs.Missing(t, "nothing prepared: %s", h.noNS)
	}
	if h.PrepareFor(p); h.live != ahead || h.spare != spare {
		t.Errorf("a second one was prepared")
	}
	q := pl.policy(t, Settings{Mode: ReadOnly, Net: NetOff})
	j := namespaced(t, h, q)
	if j == ahead || h.spare != nil {
		t.Errorf("another policy's jail: the one opened ahead used, or not the prepared process")
	}
	select {
	case <-ahead.dead:
	case <-time.After(testtime.Scaled(10 * time.Second)):
		t.Errorf("the jail opened ahead outlived its replacement")
	}
	if out, ws := jailed(t, j, pl.env, pl.ws, "sh", "-c", `touch "$WS/new"`); ws.ExitStatus() == 0 {
		t.Errorf("readonly: a write in the workspace succeeded:\n%s", out)
	}
	h.Close()
	if h.PrepareFor(p); h.live != nil || h.spare != nil {
		t.Errorf("a closed host prepared a jail")
	}
}

// BenchmarkPrepared is what a jail's set-up costs the first command once
// its process is prepared, with the rules of /etc's entries made ahead
// (prebuilt) and without (afresh): each iteration times both, in turns,
// so that both see the same load of a shared machine; the figures are
// the medians, and the median of the differences.
func BenchmarkPrepared(b *testing.B) {
	requireLandlock(b)
	pl := newPlace(b)
	p := pl.policy(b, Settings{Mode: Workspace, Net: NetOff})
	open := func(prebuild bool) time.Duration {
		h := NewHost()
		defer h.Close()
		h.noPrebuild = !prebuild
		if h.Prepare(); h.spare == nil {
			b.Skip("nothing prepared:", h.noNS)
		}
		t0 := time.Now()
		if _, err := h.Jail(p); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	var afresh, prebuilt, saved []time.Duration
	i := 0
	for b.Loop() {
		var a, p time.Duration
		if i++; i%2 == 0 {
			a, p = open(false), open(true)
		} else {
			p, a = open(true), open(false)
		}
		afresh, prebuilt, saved = append(afresh, a), append(prebuilt, p), append(saved, a-p)
	}
	median := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)/2]) / float64(time.Millisecond)
	}
	b.ReportMetric(median(afresh), "afresh-ms")
	b.ReportMetric(median(prebuilt), "prebuilt-ms")
	b.ReportMetric(median(saved), "saved-ms")
}
