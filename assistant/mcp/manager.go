package mcp

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/qsh-shell/qsh/assistant/tools"
)

// Manager owns the configured servers for one shell session. Making one
// costs nothing: the configuration is read, and servers start, on the first
// call to [Manager.Tools]. Close stops them.
type Manager struct {
	configPath   string
	servers      []ServerConfig // set by Servers; nil means read configPath
	environ      func() []string
	dir          func() string
	startTimeout time.Duration
	callTimeout  time.Duration
	stopTimeout  time.Duration
	maxOutput    int
	confirm      ConfirmFunc
	audit        AuditFunc
	start        StartFunc

	base   context.Context // cancelled by Close
	cancel context.CancelFunc

	mu       sync.Mutex
	loaded   bool
	cfgErr   error
	warned   bool            // the configuration error was returned once
	list     []*server       // the configured servers, sorted by name
	approved map[string]bool // server + "\x00" + tool, answered "a"
}

// Option configures a Manager.
type Option func(*Manager)

// ConfigFile sets the configuration file; the default is
// ConfigPath(os.Getenv).
func ConfigFile(path string) Option { return func(m *Manager) { m.configPath = path } }

// Servers sets the servers directly instead of reading a file.
func Servers(s ...ServerConfig) Option {
	return func(m *Manager) { m.servers = append([]ServerConfig{}, s...) }
}

// Environ sets where servers get their environment (and ${VAR} in the file
// its values): the shell's exported variables, ideally, since rc files set
// PATH there. The default is os.Environ.
func Environ(f func() []string) Option { return func(m *Manager) { m.environ = f } }

// Dir sets where stdio servers start: the shell's cwd at the time, ideally,
// since servers such as git's work on the directory they start in. The
// default is qsh's own working directory.
func Dir(f func() string) Option { return func(m *Manager) { m.dir = f } }

// StartTimeout bounds one server's start-up: process, handshake and tool
// list. The default is 10s.
func StartTimeout(d time.Duration) Option { return func(m *Manager) { m.startTimeout = d } }

// CallTimeout bounds one tool call. The default is 60s.
func CallTimeout(d time.Duration) Option { return func(m *Manager) { m.callTimeout = d } }

// StopTimeout is how long a stdio server gets to exit after its input is
// closed before it is sent SIGTERM (and as long again before SIGKILL).
// The default is 2s.
func StopTimeout(d time.Duration) Option { return func(m *Manager) { m.stopTimeout = d } }

// MaxOutput is the most bytes of one result the model gets, head and tail
// kept; the default is 102400, as QSH_AI_EXEC_MAX_OUTPUT.
func MaxOutput(n int) Option { return func(m *Manager) { m.maxOutput = n } }

// Confirm sets how a call is confirmed. The default asks on the turn's
// terminal (env.ReadKey), and no one to ask means no. Confirm(nil) runs
// calls without asking: for yolo mode, or when the caller confirms each
// call itself, as tools.Registry does for the tools added to it.
func Confirm(f ConfirmFunc) Option { return func(m *Manager) { m.confirm = f } }

// Audit sets where each call is recorded; the default records nothing (the
// registry's audit log covers tools called through it).
func Audit(f AuditFunc) Option { return func(m *Manager) { m.audit = f } }

// StartFunc is how a stdio server's program starts: given its path and
// arguments (args[0] its name), env and dir, it returns the program to
// execute and its arguments, the files to hand it from fd 3 on, and what
// to call once it has started. The sandbox confines servers through it.
type StartFunc func(path string, args, env []string, dir string) (prog string, argv []string, files []*os.File, started func(), err error)

// Start sets how stdio servers' programs start; by default, as they are.
func Start(f StartFunc) Option { return func(m *Manager) { m.start = f } }

// New returns a Manager; it reads nothing and starts nothing.
func New(opts ...Option) *Manager {
	m := &Manager{
		environ:      os.Environ,
		dir:          func() string { return "" },
		startTimeout: 10 * time.Second,
		callTimeout:  60 * time.Second,
		stopTimeout:  2 * time.Second,
		maxOutput:    102400,
		confirm:      promptKeys,
		approved:     map[string]bool{},
	}
	for _, o := range opts {
		o(m)
	}
	m.base, m.cancel = context.WithCancel(context.Background())
	return m
}

// load reads the configuration once.
func (m *Manager) load() ([]*server, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.loaded {
		m.loaded = true
		cfgs := m.servers
		if cfgs == nil {
			getenv := func(k string) string { return envValue(m.environ(), k) }
			if m.configPath == "" {
				m.configPath = ConfigPath(getenv)
			}
			cfgs, m.cfgErr = LoadConfig(m.configPath, getenv)
		}
		slices.SortFunc(cfgs, func(a, b ServerConfig) int { return strings.Compare(a.Name, b.Name) })
		for _, c := range cfgs {
			m.list = append(m.list, &server{cfg: c, state: NotStarted})
		}
	}
	return m.list, m.cfgErr
}

// Tools starts the servers that are not running, in parallel, waits for
// them at most the start-up timeout, and returns the tools of those that
// run. Each server that failed, and a bad configuration file the first
// time, comes back as one warning line for the caller to print. A
// cancelled ctx stops the wait, not the starts.
func (m *Manager) Tools(ctx context.Context) ([]tools.Tool, []string) {
	servers, cfgErr := m.load()
	var warnings []string
	m.mu.Lock()
	if cfgErr != nil && !m.warned {
		m.warned = true
		warnings = append(warnings, cfgErr.Error())
	}
	m.mu.Unlock()
	if m.base.Err() != nil {
		return nil, warnings
	}

	dones := make([]<-chan struct{}, len(servers))
	for i, s := range servers {
		dones[i] = m.launch(s)
	}
	// The starts time themselves out; the grace covers a stuck clean-up.
	timer := time.NewTimer(m.startTimeout + time.Second)
	defer timer.Stop()
wait:
	for _, done := range dones {
		select {
		case <-done:
		case <-timer.C:
			break wait
		case <-ctx.Done():
			return m.collect(servers), warnings
		}
	}
	for _, s := range servers {
		s.abandon(fmt.Sprintf("no answer within %v", m.startTimeout))
		if _, state, reason := s.current(); state == Failed {
			warnings = append(warnings, fmt.Sprintf("mcp: server %q failed: %s", s.cfg.Name, reason))
		}
	}
	return m.collect(servers), warnings
}

// collect names the tools of the running servers.
func (m *Manager) collect(servers []*server) []tools.Tool {
	var out []tools.Tool
	taken := map[string]bool{}
	for _, s := range servers {
		s.mu.Lock()
		remote, state := s.remote, s.state
		s.mu.Unlock()
		if state != Running {
			continue
		}
		for _, r := range remote {
			name := toolName(s.cfg.Name, r.def.Name, taken)
			taken[name] = true
			out = append(out, &Tool{m: m, srv: s, name: name, remote: r})
		}
	}
	return out
}

// ServerStatus is one configured server, for the assistant's status.
type ServerStatus struct {
	Name   string
	State  State
	Reason string // why it failed
	Tools  int
}

func (s ServerStatus) String() string {
	switch s.State {
	case Failed:
		return fmt.Sprintf("%s: failed: %s", s.Name, s.Reason)
	case Running:
		return fmt.Sprintf("%s: running, %d tools", s.Name, s.Tools)
	}
	return fmt.Sprintf("%s: %s", s.Name, s.State)
}

// Status lists the configured servers, sorted by name, and the error of the
// configuration file if it could not be read. It starts nothing.
func (m *Manager) Status() ([]ServerStatus, error) {
	servers, err := m.load()
	var out []ServerStatus
	for _, s := range servers {
		s.mu.Lock()
		out = append(out, ServerStatus{Name: s.cfg.Name, State: s.state, Reason: s.reason, Tools: len(s.remote)})
		s.mu.Unlock()
	}
	return out, err
}

// Close stops every server, in parallel, and waits for them. Tools called
// after Close fail; Tools returns none.
func (m *Manager) Close() error {
	m.cancel()
	m.mu.Lock()
	servers := m.list
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.stop()
		}()
	}
	wg.Wait()
	// Starts in flight see the cancelled context and close what they opened.
	limit := time.NewTimer(2*m.stopTimeout + time.Second)
	defer limit.Stop()
	for _, s := range servers {
		s.mu.Lock()
		done := s.done
		s.mu.Unlock()
		if done == nil {
			continue
		}
		select {
		case <-done:
		case <-limit.C:
			return nil
		}
	}
	return nil
}

func (m *Manager) approve(s *server, tool string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.approved[s.cfg.Name+"\x00"+tool] = true
}

func (m *Manager) isApproved(s *server, tool string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.approved[s.cfg.Name+"\x00"+tool]
}
