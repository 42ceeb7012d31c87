package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/qsh-shell/qsh/policy/sandbox/confine"
)

const prSetNoNewPrivs = 38

// readyWait bounds a jail's set-up, a safety net: it takes milliseconds.
const readyWait = 30 * time.Second

// Host is the outside of a session's jails: the directory that holds
// their private /tmp and the proxy's sockets, and the jail in use, which
// the runs of one question share while their policy is the same.
type Host struct {
	mu     sync.Mutex
	dir    string // made on first use; removed by Close
	n      int
	live   *Jail
	policy Policy // the live jail's, a copy
	// spare is a jail's process started ahead (see Prepare), in its
	// namespaces, waiting for a plan.
	spare *Jail
	fixed *fixed // what every jail's plan holds, made once
	// closed keeps a Prepare that comes after Close (from a goroutine of
	// the question's) from leaving a process behind.
	closed bool
	// noNS says why the kernel gives no namespaces, once a jail found
	// out: the session's next jails do not try again.
	noNS string
	// noNamespaces makes jails without namespaces, as where the kernel
	// refuses them (for tests).
	noNamespaces bool
	// noPrebuild keeps prepared jails' processes from making rules
	// before their plan (for benchmarks: the cost it saves).
	noPrebuild bool
}

// NewHost returns a Host; it makes nothing until a jail is asked for.
func NewHost() *Host { return &Host{} }

// Jail returns a jail for p: the one in use when its policy is p, else a
// new one (the old one closed).
func (h *Host) Jail(p Policy) (*Jail, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	// Compared as it was: p's slices are the caller's.
	if h.live != nil && reflect.DeepEqual(p, h.policy) && h.live.alive() {
		return h.live, nil
	}
	if h.live != nil {
		h.live.Close()
		h.live = nil
	}
	j, err := h.open(p, false)
	if err != nil {
		return nil, err
	}
	h.live, h.policy = j, clonePolicy(p)
	return j, nil
}

// Prepare starts a jail's process ahead, so that the next jail the host
// opens skips most of its cost: the fork of qsh into new namespaces and a
// Go program's start; it returns once that process runs, waiting for its
// plan. Meant for when a question is asked, while the model thinks (from
// a goroutine of its own); it does nothing where a jail is open or
// prepared, once the host is closed, or where namespaces are not to be
// had. The process holds nothing of the user's until its plan: no
// files, no environment, no privileges outside its namespaces.
func (h *Host) Prepare() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.live != nil && h.live.alive() {
		return
	}
	h.prepare()
}

// PrepareFor opens ahead the jail for p, the policy the next commands
// will probably have (that of the session's workspace): its mounts, its
// Landlock ruleset and seccomp filter are made while the model thinks,
// and Jail(p) returns it as it returns the jail in use, leaving the
// command only its program's start. It also prepares a jail's process
// as Prepare does, for a command whose policy turns out another: that
// one closes the jail made for p and opens its own as it would have.
// The jail for p is what the jail in use is between two questions: the
// same walls, set up a little earlier. It does nothing where the jail in
// use is already p's, or where Prepare would do nothing but for a jail
// in use.
func (h *Host) PrepareFor(p Policy) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.live != nil && h.live.alive() && reflect.DeepEqual(p, h.policy) {
		return
	}
	if !h.prepare() {
		return
	}
	if h.live != nil {
		h.live.Close()
		h.live = nil
	}
	j, err := h.open(p, true)
	if err != nil {
		return // the command's own Jail(p) says why
	}
	h.live, h.policy = j, clonePolicy(p)
	h.prepare() // the spare went to p's jail: another, for any other policy
}

// prepare starts the spare jail's process (see Prepare) unless there is
// one, and says whether there is one now. h.mu is held.
func (h *Host) prepare() bool {
	if h.closed || h.noNS != "" || h.noNamespaces || ABI() < 1 {
		return false
	}
	if h.spare != nil && h.spare.alive() {
		return true
	}
	if h.spare != nil {
		h.spare.Close()
		h.spare = nil
	}
	// What a jail's plan needs but its policy: off the command's way too.
	h.session()
	h.plans()
	// The network's namespace too: the default policies have no network
	// but through the proxy. A jail with the network on starts its own.
	j, err := spawn(true, false, true)
	if err != nil {
		h.noNS = err.Error()
		return false
	}
	// Most of the Landlock ruleset too: the rules of /etc's entries.
	pre, prebuild := presumed()
	prebuild = prebuild && !h.noPrebuild && j.send(append([]string{confine.MsgPrebuild}, pre.Fields()...)) == nil
	// Its Go start is the spare's to wait for too, not the command's.
	select {
	case <-j.hello:
	case <-j.dead:
		if err := j.refused(); err != nil {
			h.noNS = err.Error()
		}
		return false
	case <-time.After(readyWait):
	}
	if prebuild {
		select {
		case ok := <-j.built:
			if ok {
				j.prebuilt = &pre
			}
		case <-j.dead:
		case <-time.After(readyWait):
		}
	}
	h.spare = j
	return true
}

// Idle kills whatever the jail in use still runs: the question that used
// it is over. The jail stays for the next question of the same policy:
// its namespaces cost milliseconds to make.
func (h *Host) Idle() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.live != nil {
		h.live.Reset(0)
	}
}

// Close closes the jail in use and removes the session's directory. A
// closed host prepares nothing more (see Prepare).
func (h *Host) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	if h.live != nil {
		h.live.Close()
		h.live = nil
	}
	if h.spare != nil {
		h.spare.Close()
		h.spare = nil
	}
	if h.dir == "" {
		return nil
	}
	err := os.RemoveAll(h.dir)
	h.dir = ""
	return err
}

// session makes the session's directory (see SessionDir).
func (h *Host) session() (string, error) {
	if h.dir != "" {
		return h.dir, nil
	}
	dir, err := SessionDir("qsh-sandbox")
	if err != nil {
		return "", err
	}
	if err := os.Mkdir(filepath.Join(dir, "tmp"), 0o700); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("sandbox: %v", err)
	}
	h.dir = dir
	return dir, nil
}

// clonePolicy is p with slices of its own (TestClonePolicy checks that
// none is left shared).
func clonePolicy(p Policy) Policy {
	for _, s := range []*[]string{&p.Keep, &p.Write, &p.Temps, &p.Caches, &p.ReadOnly, &p.Deny, &p.Own} {
		*s = slices.Clone(*s)
	}
	p.Fresh = slices.Clone(p.Fresh)
	p.Sockets = slices.Clone(p.Sockets)
	return p
}

// open starts a jail for p: in namespaces of its own where the kernel
// allows them, else without (reduced, and said so), unless p is strict.
// ahead, off a command's way, a process it must start goes through a
// launcher (see spawn).
func (h *Host) open(p Policy, ahead bool) (*Jail, error) {
	if _, err := Support(); err != nil {
		return nil, err
	}
	reason := h.noNS
	if h.noNamespaces {
		reason = "namespaces are turned off"
	}
	// The jail's process first, unless one was prepared: its start (a
	// fork, a Go runtime's) goes on while the rest is made.
	var spare *Jail
	var refused error
	if reason == "" {
		if spare = h.takeSpare(p); spare == nil {
			spare, refused = spawn(true, p.Net == NetOn, ahead)
		}
	}
	dir, err := h.session()
	if err != nil {
		if spare != nil {
			spare.Close()
		}
		return nil, err
	}
	outsideFirst(p)
	h.n++
	var j *Jail
	if reason == "" {
		if refused != nil {
			h.noNS = refused.Error() // the kernel refused the namespaces: not again this session
			reason = refused.Error()
		} else if j, err = h.start(p, dir, true, spare); err != nil {
			reason = err.Error()
			if _, ok := err.(refusal); ok {
				h.noNS = reason // not again this session
			}
		}
	}
	if j == nil {
		if p.Strict {
			return nil, fmt.Errorf("the sandbox would be reduced here (%s) and QSH_AI_SANDBOX_STRICT is set", reason)
		}
		j, err = h.start(p, dir, false, nil)
		if err != nil {
			return nil, err
		}
		j.layers.Reduced = append([]string{"no namespaces: " + reason}, j.layers.Reduced...)
	}
	if p.Strict && len(j.layers.Reduced) > 0 {
		j.Close()
		return nil, fmt.Errorf("the sandbox would be reduced here (%s) and QSH_AI_SANDBOX_STRICT is set",
			strings.Join(j.layers.Reduced, "; "))
	}
	return j, nil
}

// outsideFirst makes what a jail for p needs to find outside: qsh's own
// directories (to keep them from programs they must exist), the caches
// a new account has not made yet, the layers over them.
func outsideFirst(p Policy) {
	for _, o := range p.Own {
		if filepath.Ext(o) == "" && !strings.HasPrefix(filepath.Base(o), ".") {
			if _, err := os.Lstat(o); errors.Is(err, os.ErrNotExist) {
				os.MkdirAll(o, 0o700)
			}
		}
	}
	if p.Workspace != "" && slices.Contains(p.Write, p.Workspace) {
		for _, g := range gitProtected(p.Workspace) {
			if filepath.Base(g) == "hooks" {
				if _, err := os.Lstat(g); errors.Is(err, os.ErrNotExist) {
					os.Mkdir(g, 0o755) // empty, as git init makes it: a program must not make it
				}
			}
		}
	}
	if p.Layers != "" {
		for _, f := range p.Fresh {
			os.MkdirAll(filepath.Join(p.Layers, layerName(f.Var), "data"), 0o700)
		}
	}
	for _, c := range p.Caches {
		if _, err := os.Lstat(c); errors.Is(err, os.ErrNotExist) {
			os.MkdirAll(c, 0o755) // in the toolchain's own directory (see Compute)
		}
		if p.Layers != "" {
			l := filepath.Join(p.Layers, layerName(c))
			for _, d := range []string{"upper", "work", "data"} {
				os.MkdirAll(filepath.Join(l, d), 0o700)
			}
		}
	}
}

// Jail runs programs confined by one policy: the process that holds the
// namespaces and starts each program inside them, as its child.
type Jail struct {
	cmd    *exec.Cmd
	conn   *os.File // the control channel, a socket pair (qsh links no net)
	stderr bytes.Buffer
	wmu    sync.Mutex // writes to conn

	mu    sync.Mutex
	procs map[string]*Proc
	next  int
	noted bool

	hello  chan struct{} // the jail's process runs
	built  chan bool     // it made the ruleset sent ahead of its plan, or not
	first  chan []string // ready or fail
	resets chan struct{}
	dead   chan struct{}
	once   sync.Once

	// launcher: cmd is the jail's launcher, which started the jail (see
	// confine.LaunchArg).
	launcher bool
	// prebuilt is the ruleset the jail's process made before its plan
	// (see presumed), nil without one; ahead counts the rules of its that
	// the jail kept (for tests).
	prebuilt *confine.Ruleset
	ahead    int
	layers   Layers
	env      []string
	// root is the jail's / from outside (/proc/PID/root), where the shell
	// opens files for a run as its programs see them; -1 without a mount
	// namespace.
	root int
}

// fixed is what the plan of every jail of a process holds: the seccomp
// filter (or why there is none), and the directory of qsh's binary.
type fixed struct {
	filter []byte
	ferr   error
	exeDir string
}

func (h *Host) plans() *fixed {
	if h.fixed == nil {
		f := &fixed{}
		f.filter, f.ferr = seccompProgram()
		if exe, err := os.Executable(); err == nil {
			if exe, err = filepath.EvalSymlinks(exe); err == nil {
				f.exeDir = filepath.Dir(exe)
			}
		}
		h.fixed = f
	}
	return h.fixed
}

// takeSpare returns the jail's process Prepare started, if it suits p.
func (h *Host) takeSpare(p Policy) *Jail {
	j := h.spare
	if j == nil || p.Net == NetOn {
		return nil
	}
	h.spare = nil
	if !j.alive() {
		j.Close()
		return nil
	}
	return j
}

// start starts a jail for p, namespaced or not, in the process spare if
// there is one (see spawn).
func (h *Host) start(p Policy, dir string, namespaced bool, spare *Jail) (*Jail, error) {
	j := spare
	if j == nil {
		var err error
		if j, err = spawn(namespaced, p.Net == NetOn, false); err != nil {
			return nil, err
		}
	}
	j.layers = Layers{Landlock: ABI(), Namespaces: namespaced, Net: p.Net}
	if err := j.setUp(p, dir, namespaced, h.plans()); err != nil {
		j.Close()
		return nil, err
	}
	return j, nil
}

// spawn starts a jail's process, in namespaces of its own (but the
// network's with netOn) or not, waiting for its plan; in namespaces,
// through a launcher of its own with launcher: a second Go program's start
// more, but none of the copy-on-write faults a fork leaves qsh, for a jail
// whose start is off the command's way (see Prepare).
func spawn(namespaced, netOn, launcher bool) (*Jail, error) {
	j := &Jail{procs: map[string]*Proc{}, hello: make(chan struct{}, 1), built: make(chan bool, 1), first: make(chan []string, 1),
		resets: make(chan struct{}, 1), dead: make(chan struct{}), root: -1}
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %v", err)
	}
	// Ours non-blocking, through Go's poller, so that closing it ends a
	// read (the other end is another open file: it stays blocking).
	if err := syscall.SetNonblock(fds[0], true); err != nil {
		syscall.Close(fds[0])
		syscall.Close(fds[1])
		return nil, fmt.Errorf("sandbox: %v", err)
	}
	theirs := os.NewFile(uintptr(fds[1]), "jail")
	args, attr := []string{"qsh-sandbox", confine.JailArg}, &syscall.SysProcAttr{Setsid: true}
	switch {
	case namespaced && launcher:
		// A start with no clone flags is a vfork, which leaves qsh's
		// memory as it is (see confine.LaunchArg).
		args = []string{"qsh-sandbox", confine.LaunchArg, "1"}
		if netOn {
			args[2] = "0"
		}
	case namespaced:
		attr = confine.Namespaces(!netOn)
	}
	j.launcher = namespaced && launcher
	j.cmd = &exec.Cmd{Path: "/proc/self/exe", Args: args, Env: []string{},
		ExtraFiles: []*os.File{theirs}, Stderr: &j.stderr, SysProcAttr: attr}
	err = j.cmd.Start()
	theirs.Close() // the jail's now: its end closes when the jail ends
	if err != nil {
		syscall.Close(fds[0])
		return nil, fmt.Errorf("the kernel refuses: %v", unwrapPath(err))
	}
	j.conn = os.NewFile(uintptr(fds[0]), "jail")
	go j.read()
	return j, nil
}

// setUp sends the jail its plan and waits for it to be ready.
func (j *Jail) setUp(p Policy, dir string, namespaced bool, f *fixed) error {
	g := grants{write: p.Write, deny: p.denied()}
	var extra []string // more directories to read
	var steps []step
	port := p.ProxyPort
	if p.Net == AllowList && (namespaced && p.Proxy == "" || !namespaced && port == 0) {
		return errors.New("sandbox: the network's allow list has no proxy to go through")
	}
	if namespaced {
		tmp := filepath.Join(dir, "tmp")
		// The rules are made inside: the private /tmp is where the temp
		// dirs are.
		g.write = roots(slices.Clone(p.Temps))
		for _, w := range p.Write {
			if !slices.Contains(p.Temps, w) {
				g.write = append(g.write, w)
			}
		}
		g.write = roots(append(append(g.write, p.Caches...), "/run"))
		// What is under the temp dirs is out of sight, or masked where a
		// place is kept (see plan): Landlock need not walk the real /tmp.
		g.deny = slices.DeleteFunc(slices.Clone(g.deny), func(d string) bool {
			return slices.ContainsFunc(p.Temps, func(t string) bool { return Under(d, t) })
		})
		proxy := ""
		if p.Net == AllowList {
			proxy = p.Proxy
		}
		// A script without #! is run by this program, through the jail's
		// /proc/self/exe: its directory must be readable there, and kept
		// when it is under /tmp (as in tests).
		if dir := f.exeDir; dir != "" {
			if slices.ContainsFunc(p.Temps, func(t string) bool { return Under(dir, t) }) {
				p.Keep = append(slices.Clip(p.Keep), dir)
			}
			extra = append(extra, dir)
		}
		steps = plan(p, layout{tmp: tmp, proxy: proxy, uid: os.Getuid(), netOn: p.Net == NetOn})
		j.env = []string{"TMPDIR=/tmp", "XDG_RUNTIME_DIR=/run/user/" + strconv.Itoa(os.Getuid())}
		if p.Layers != "" {
			for _, f := range p.Fresh {
				j.env = append(j.env, f.Var+"="+jailCaches+"/"+layerName(f.Var))
			}
		}

	} else {
		if p.Net != NetOn {
			g.tcp = true
			if port != 0 {
				g.ports = []uint16{uint16(port)}
			}
			if ABI() < 4 {
				j.layers.Reduced = append(j.layers.Reduced,
					fmt.Sprintf("network: TCP cannot be limited (Landlock ABI %d; 4 is needed)", ABI()))
			} else {
				j.layers.Reduced = append(j.layers.Reduced, "network: only TCP is limited (UDP and DNS are not)")
			}
		}
		if len(p.Temps) > 0 && !slices.ContainsFunc(p.Write, func(w string) bool { return slices.Contains(p.Temps, w) }) {
			j.layers.Reduced = append(j.layers.Reduced, "/tmp is not writable (it holds your home directory)")
		}
		if len(p.Caches) > 0 {
			j.layers.Reduced = append(j.layers.Reduced, "caches: programs write your own (no layer of the sandbox's over them)")
			g.write = roots(slices.Concat(p.Write, p.Caches))
		}
		if len(p.Fresh) > 0 {
			j.layers.Reduced = append(j.layers.Reduced, "caches you have not made yet are not writable")
		}
		if len(p.ReadOnly) > 0 {
			j.layers.Reduced = append(j.layers.Reduced, "programs can write the repository's configuration and hooks")
		}
		j.layers.Reduced = append(j.layers.Reduced,
			"programs see the real /tmp and /run: the sockets of your daemons there are reachable by their paths")
	}
	for _, sock := range p.Sockets {
		j.env = append(j.env, sock.Var+"="+sock.Value)
	}
	filter, ferr := f.filter, f.ferr
	if ferr != nil {
		j.layers.Reduced = append(j.layers.Reduced, ferr.Error())
	}
	j.layers.Seccomp = ferr == nil
	ns := "0"
	if namespaced {
		ns = "1"
	}
	msg := []string{confine.MsgPlan, ns, string(filter)}
	for _, s := range steps {
		msg = append(msg, s.kind, s.mode, s.note, strconv.Itoa(len(s.args)))
		msg = append(msg, s.args...)
	}
	if err := j.send(msg); err != nil {
		return fmt.Errorf("sandbox: %v", err)
	}
	// The rules while the jail mounts: it needs them after (a walk of the
	// directories that hold denied files, a few hundred rules).
	ruleset, err := rules(g)
	if err != nil {
		return err // the jail ends with its channel, closed by the caller
	}
	for _, d := range extra {
		ruleset.Paths = append(ruleset.Paths, confine.PathRule{Path: d, Access: ruleset.HandledFS & uint64(readFS)})
	}
	msg = append([]string{confine.MsgRules}, ruleset.Fields()...)
	if more, ok := beyond(ruleset, j.prebuilt, steps); ok {
		msg = append([]string{confine.MsgMoreRules}, more.Fields()...)
		j.ahead = len(ruleset.Paths) - len(more.Paths)
	}
	if err := j.send(msg); err != nil {
		return fmt.Errorf("sandbox: %v", err)
	}
	var reply []string
	select {
	case reply = <-j.first:
	case <-j.dead:
	case <-time.After(readyWait):
	}
	switch {
	case len(reply) >= 2 && reply[0] == confine.MsgReady:
		if namespaced {
			// qsh owns the jail's user namespace: it may look in.
			pid, err := j.cmd.Process.Pid, error(nil)
			if j.launcher {
				pid, err = launched(pid)
			}
			if err != nil {
				return fmt.Errorf("sandbox: the jail's files: %v", err)
			}
			root, err := unix.Open("/proc/"+strconv.Itoa(pid)+"/root", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
			if err != nil {
				return fmt.Errorf("sandbox: the jail's files: %v", err)
			}
			j.root = root
		}
		j.layers.Reduced = append(j.layers.Reduced, reply[2:]...)
		if p.Net == AllowList {
			if namespaced {
				port, _ = strconv.Atoi(reply[1])
			}
			proxy := "http://127.0.0.1:" + strconv.Itoa(port)
			for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"} {
				j.env = append(j.env, k+"="+proxy)
			}
			j.env = append(j.env, "NO_PROXY=localhost,127.0.0.1,::1", "no_proxy=localhost,127.0.0.1,::1")
		}
		return nil
	case len(reply) >= 2 && reply[0] == confine.MsgFail:
		return errors.New(reply[1])
	}
	if err := j.refused(); err != nil {
		return err
	}
	why := strings.TrimSpace(j.stderr.String())
	if why == "" {
		why = "it did not start"
	}
	return fmt.Errorf("sandbox: %.300s", why)
}

// refusal is why the kernel refused a jail's namespaces, as its
// launcher said (see confine.LaunchArg).
type refusal string

func (r refusal) Error() string { return string(r) }

// refused closes the jail, which has ended, and returns the kernel's
// refusal that ended it, if that is what ended it.
func (j *Jail) refused() error {
	j.Close() // what it said is all there once it has ended
	if j.cmd.ProcessState == nil || j.cmd.ProcessState.ExitCode() != confine.Refused {
		return nil
	}
	return refusal(strings.TrimSpace(j.stderr.String()))
}

// launched returns the process ID of the jail the launcher pid started:
// its only child, listed by the thread that forked it.
func launched(pid int) (int, error) {
	tasks, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	if err != nil {
		return 0, err
	}
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + t.Name() + "/children")
		if err != nil {
			continue
		}
		if f := strings.Fields(string(b)); len(f) > 0 {
			return strconv.Atoi(f[0])
		}
	}
	return 0, errors.New("the jail's process is not to be found")
}

// Layers says what confines the jail's programs.
func (j *Jail) Layers() Layers { return j.layers }

// Notes says, the first time only, what the jail lacks: one line each,
// for the run that first used it.
func (j *Jail) Notes() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.noted || len(j.layers.Reduced) == 0 {
		return nil
	}
	j.noted = true
	var out []string
	for _, r := range j.layers.Reduced {
		out = append(out, "sandbox: reduced: "+r)
	}
	return out
}

// Environ is env with what programs need in the jail: its /tmp and
// runtime directory, the proxy.
func (j *Jail) Environ(env []string) []string {
	return append(slices.Clip(env), j.env...)
}

// Open opens path as the jail's programs see it (their /tmp, their
// caches' layer, the read-only configuration of the repository), with the
// caller's own rights: the shell opens its redirections for a run so.
// path is absolute; a link in the jail leads where it leads there.
func (j *Jail) Open(path string, flag int, perm os.FileMode) (*os.File, error) {
	if j.root < 0 {
		return os.OpenFile(path, flag, perm)
	}
	how := &unix.OpenHow{Flags: uint64(flag | unix.O_CLOEXEC), Mode: uint64(perm.Perm()),
		Resolve: unix.RESOLVE_IN_ROOT | unix.RESOLVE_NO_MAGICLINKS}
	for {
		fd, err := unix.Openat2(j.root, path, how)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}

// Stat is os.Stat of path as the jail's programs see it.
func (j *Jail) Stat(path string) (os.FileInfo, error) {
	f, err := j.Open(path, unix.O_PATH, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Stat()
}

func (j *Jail) alive() bool {
	select {
	case <-j.dead:
		return false
	default:
		return true
	}
}

// send writes a message, with files whose descriptors go along.
func (j *Jail) send(fields []string, files ...*os.File) error {
	b := confine.AppendMessage(nil, fields...)
	j.wmu.Lock()
	defer j.wmu.Unlock()
	var oob []byte
	if len(files) > 0 {
		fds := make([]int, len(files))
		for i, f := range files {
			fds[i] = int(f.Fd())
		}
		oob = syscall.UnixRights(fds...)
	}
	rc, err := j.conn.SyscallConn()
	if err != nil {
		return err
	}
	n := 0
	werr := rc.Write(func(fd uintptr) bool {
		n, err = syscall.SendmsgN(int(fd), b, oob, nil, syscall.MSG_NOSIGNAL)
		return err != syscall.EAGAIN
	})
	if werr != nil {
		return werr
	}
	if err == nil && n < len(b) {
		_, err = j.conn.Write(b[n:])
	}
	return err
}

// read takes the jail's messages until it ends.
func (j *Jail) read() {
	defer j.died()
	var buf []byte
	chunk := make([]byte, 32<<10)
	for {
		n, err := j.conn.Read(chunk)
		if err != nil {
			return
		}
		buf = append(buf, chunk[:n]...)
		for {
			m, size, ok := confine.ParseMessage(buf)
			if !ok {
				return
			}
			if size == 0 {
				break
			}
			buf = buf[size:]
			j.dispatch(m)
		}
	}
}

func (j *Jail) dispatch(m []string) {
	if len(m) == 0 {
		return
	}
	switch m[0] {
	case confine.MsgHello:
		select {
		case j.hello <- struct{}{}:
		default:
		}
		return
	case confine.MsgPrebuilt:
		select {
		case j.built <- len(m) > 1 && m[1] == "1":
		default:
		}
		return
	case confine.MsgReady, confine.MsgFail:
		select {
		case j.first <- m:
		default:
		}
		return
	case confine.MsgReset:
		select {
		case j.resets <- struct{}{}:
		default:
		}
		return
	}
	if len(m) < 3 {
		return
	}
	j.mu.Lock()
	p := j.procs[m[1]]
	j.mu.Unlock()
	if p == nil {
		return
	}
	switch m[0] {
	case confine.MsgPid:
		p.Pid, _ = strconv.Atoi(m[2])
		p.started <- nil
	case confine.MsgError:
		errno, _ := strconv.Atoi(m[2])
		err := &os.PathError{Op: "fork/exec", Path: p.path, Err: syscall.Errno(errno)}
		if len(m) > 3 && m[3] == "dir" {
			err = &os.PathError{Op: "chdir", Path: p.dir, Err: syscall.Errno(errno)}
		}
		p.started <- err
		j.forget(p)
	case confine.MsgExit:
		ws, _ := strconv.Atoi(m[2])
		p.status = syscall.WaitStatus(ws)
		j.forget(p)
		close(p.exited)
	}
}

func (j *Jail) forget(p *Proc) {
	j.mu.Lock()
	delete(j.procs, p.id)
	j.mu.Unlock()
}

// died ends what waits on a jail that is gone.
func (j *Jail) died() {
	close(j.dead)
	j.mu.Lock()
	procs := j.procs
	j.procs = map[string]*Proc{}
	j.mu.Unlock()
	for _, p := range procs {
		select {
		case p.started <- errJailGone:
		default:
		}
		p.err = errJailGone
		close(p.exited)
	}
}

var errJailGone = errors.New("the sandbox ended")

// Reset ends the run: the programs still running get SIGTERM, then after
// grace (if any is left) SIGKILL, as everything else the run started.
func (j *Jail) Reset(grace time.Duration) {
	if grace > 0 && j.running() {
		j.send([]string{confine.MsgSignal, strconv.Itoa(int(syscall.SIGTERM))})
		deadline := time.Now().Add(grace)
		for j.running() && time.Now().Before(deadline) && j.alive() {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if j.alive() {
		j.send([]string{confine.MsgReset})
		select {
		case <-j.resets:
		case <-j.dead:
		case <-time.After(readyWait):
			j.Close() // it does not answer: everything goes with it
		}
	}
}

func (j *Jail) running() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.procs) > 0
}

// Close ends the jail and everything in it.
func (j *Jail) Close() error {
	j.once.Do(func() {
		if j.root >= 0 {
			unix.Close(j.root)
		}
		j.conn.Close() // the jail sees the end, kills everything and exits
		done := make(chan struct{})
		go func() {
			j.cmd.Wait()
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			j.cmd.Process.Kill() // as process 1 of its namespace, it takes the rest along
			<-done
		}
	})
	return nil
}

// Proc is a program running in a jail.
type Proc struct {
	Pid int // in the jail

	j         *Jail
	id        string
	path, dir string
	started   chan error
	exited    chan struct{}
	status    syscall.WaitStatus
	err       error
	readers   []*os.File
	copied    chan struct{}
}

// Start starts s in the jail.
func (j *Jail) Start(s Spec) (*Proc, error) {
	p := &Proc{j: j, path: s.Path, dir: s.Dir, started: make(chan error, 1), exited: make(chan struct{}),
		copied: make(chan struct{})}
	var child [3]*os.File
	var closeAfter []*os.File
	var copies sync.WaitGroup
	fail := func(err error) (*Proc, error) {
		for _, f := range closeAfter {
			f.Close()
		}
		for _, f := range p.readers {
			f.Close()
		}
		return nil, err
	}
	switch in := s.Stdin.(type) {
	case nil:
		f, err := os.Open(os.DevNull)
		if err != nil {
			return fail(err)
		}
		child[0] = f
		closeAfter = append(closeAfter, f)
	case *os.File:
		child[0] = in
	default:
		pr, pw, err := os.Pipe()
		if err != nil {
			return fail(err)
		}
		child[0] = pr
		closeAfter = append(closeAfter, pr)
		go func() {
			io.Copy(pw, in)
			pw.Close()
		}()
	}
	for i, w := range []io.Writer{s.Stdout, s.Stderr} {
		switch out := w.(type) {
		case nil:
			f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
			if err != nil {
				return fail(err)
			}
			child[1+i] = f
			closeAfter = append(closeAfter, f)
		case *os.File:
			child[1+i] = out
		default:
			if i == 1 && s.Stderr == s.Stdout {
				child[2] = child[1]
				continue
			}
			pr, pw, err := os.Pipe()
			if err != nil {
				return fail(err)
			}
			child[1+i] = pw
			closeAfter = append(closeAfter, pw)
			p.readers = append(p.readers, pr)
			copies.Add(1)
			go func() {
				defer copies.Done()
				io.Copy(out, pr)
			}()
		}
	}
	go func() {
		copies.Wait()
		close(p.copied)
	}()
	j.mu.Lock()
	j.next++
	p.id = strconv.Itoa(j.next)
	j.procs[p.id] = p
	j.mu.Unlock()
	msg := []string{confine.MsgStart, p.id, s.Path, s.Dir, strconv.Itoa(len(s.Args))}
	msg = append(append(msg, s.Args...), s.Env...)
	err := j.send(msg, child[:]...)
	for _, f := range closeAfter {
		f.Close()
	}
	closeAfter = nil
	if err == nil {
		select {
		case err = <-p.started:
		case <-j.dead:
			err = errJailGone
		}
	}
	if err != nil {
		j.forget(p)
		return fail(err)
	}
	return p, nil
}

// Wait waits for the program to exit, and for its output to be copied
// (see [OutputGrace]).
func (p *Proc) Wait() (syscall.WaitStatus, error) {
	<-p.exited
	err := p.err
	select {
	case <-p.copied:
	case <-time.After(OutputGrace):
		for _, r := range p.readers {
			r.Close()
		}
		<-p.copied
		if err == nil {
			err = ErrOutputHeld
		}
	}
	for _, r := range p.readers {
		r.Close()
	}
	return p.status, err
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// probe is what a jail gets here, found once a process.
var probe struct {
	once   sync.Once
	layers Layers
	err    error
}

// Probe says what a jail gets on this machine, for people: it starts one
// the first time (a few milliseconds), with no network and nothing
// writable.
func Probe() (Layers, error) {
	probe.once.Do(func() {
		var p Policy
		p, _ = Compute(Settings{Mode: ReadOnly, Net: NetOff}, Place{Dir: "/"})
		h := NewHost()
		defer h.Close()
		j, err := h.Jail(p)
		if err != nil {
			probe.err = err
			return
		}
		probe.layers = j.Layers()
	})
	return probe.layers, probe.err
}

// JailedArg is the hidden first argument that makes a program of qsh's
// run another in a jail of its own and end with it (see [RunJailed]).
const JailedArg = "--qsh-jailed"

// JailedCommand is how to start the program at path with args (args[0]
// its name) in a jail for p that lives as long as it does, for a caller
// that starts programs itself (the MCP servers): this program, with
// [JailedArg].
func JailedCommand(p Policy, path string, args []string) (string, []string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", nil, fmt.Errorf("sandbox: %v", err)
	}
	b, err := json.Marshal(p)
	if err != nil {
		return "", nil, err
	}
	return exe, append([]string{exe, JailedArg, string(b), path}, args...), nil
}

// RunJailed runs the program args name in a jail and exits with its
// status, if args (os.Args) ask for it with [JailedArg]; it returns at once
// otherwise. The program gets this one's standard files, environment and
// directory; a SIGTERM or SIGINT stops it and everything it started.
func RunJailed(args []string) {
	if len(args) < 5 || args[1] != JailedArg {
		return
	}
	// Nothing it starts gains privileges; nor does it, which only waits.
	syscall.AllThreadsSyscall(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0)
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0) // where cgo makes the line above fail
	var p Policy
	if err := json.Unmarshal([]byte(args[2]), &p); err != nil {
		fmt.Fprintf(os.Stderr, "qsh: %s: the sandbox's policy: %v\n", args[3], err)
		os.Exit(126)
	}
	h := NewHost()
	j, err := h.Jail(p)
	if err != nil {
		fmt.Fprintf(os.Stderr, "qsh: %s: not started: the sandbox cannot confine it: %v\n", args[3], err)
		h.Close()
		os.Exit(126)
	}
	dir, _ := os.Getwd()
	proc, err := j.Start(Spec{Path: args[3], Args: args[4:], Env: j.Environ(os.Environ()), Dir: dir,
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	if err != nil {
		fmt.Fprintf(os.Stderr, "qsh: %s: %v\n", args[3], unwrapPath(err))
		h.Close()
		os.Exit(127)
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	go func() {
		<-sigs
		j.Reset(OutputGrace)
	}()
	ws, _ := proc.Wait()
	h.Close()
	if ws.Signaled() {
		os.Exit(128 + int(ws.Signal()))
	}
	os.Exit(ws.ExitStatus())
}
