package mcp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/qsh-shell/qsh/policy/secret"
)

// State is where a server is in its life.
type State string

const (
	NotStarted State = "not started"
	Starting   State = "starting"
	Running    State = "running"
	Failed     State = "failed"
)

// server is one configured server and, once started, its session.
type server struct {
	cfg ServerConfig

	mu      sync.Mutex
	state   State
	reason  string // why it failed
	gen     int    // counts starts, so that a late answer from an abandoned one is dropped
	done    chan struct{}
	session *sdk.ClientSession
	gone    chan struct{} // closed when session ends
	remote  []*remoteTool
	stale   bool // the server said its tools changed
	stderr  *tail
}

// remoteTool is one tool as its server described it, with the schema ready
// to validate arguments.
type remoteTool struct {
	def      *sdk.Tool
	schema   []byte
	resolved *jsonschema.Resolved // nil when the schema is not one we can check
}

// launch starts s in the background unless it is running or starting, and
// returns a channel closed when the start in flight ends. A running server
// whose tools changed has them listed again.
func (m *Manager) launch(s *server) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == Running && s.stale {
		return m.relist(s)
	}
	if s.state == Starting || s.state == Running {
		return s.done
	}
	s.gen++
	gen := s.gen
	s.state, s.reason = Starting, ""
	s.done = make(chan struct{})
	s.stderr = &tail{}
	done, stderr := s.done, s.stderr
	go func() {
		defer close(done)
		ctx, cancel := context.WithTimeout(m.base, m.startTimeout)
		cs, remote, err := m.connect(ctx, s, stderr)
		cancel()
		s.mu.Lock()
		if s.gen != gen || m.base.Err() != nil {
			// Abandoned, or the shell is exiting.
			s.mu.Unlock()
			if cs != nil {
				cs.Close()
			}
			return
		}
		defer s.mu.Unlock()
		if err != nil {
			s.state, s.reason = Failed, startError(ctx, err, m.startTimeout, stderr)
			return
		}
		s.state, s.session, s.remote = Running, cs, remote
		s.gone = make(chan struct{})
		go m.watch(s, cs, gen, s.gone)
	}()
	return done
}

// relist lists the tools of a running server again; s.mu is held. A list
// that fails keeps the old one until the next turn.
func (m *Manager) relist(s *server) <-chan struct{} {
	s.stale = false
	cs, gen := s.session, s.gen
	done := make(chan struct{})
	s.done = done
	go func() {
		defer close(done)
		ctx, cancel := context.WithTimeout(m.base, m.startTimeout)
		remote, err := listTools(ctx, cs)
		cancel()
		s.mu.Lock()
		defer s.mu.Unlock()
		switch {
		case s.gen != gen || s.state != Running:
		case err != nil:
			s.stale = true
		default:
			s.remote = remote
		}
	}()
	return done
}

// watch notices a server that exits or drops the connection, so that the
// next turn starts it again.
func (m *Manager) watch(s *server, cs *sdk.ClientSession, gen int, gone chan struct{}) {
	cs.Wait()
	s.mu.Lock()
	unexpected := s.gen == gen && s.state == Running
	if unexpected {
		s.state, s.session, s.remote = Failed, nil, nil
		s.reason = "stopped" + said(s.stderr)
	}
	s.mu.Unlock()
	close(gone)
	if unexpected {
		cs.Close() // reaps the process
	}
}

// abandon gives up on a start that took too long.
func (s *server) abandon(reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == Starting {
		s.gen++
		s.state, s.reason = Failed, reason
	}
}

// stop closes the session, if any, and forgets it.
func (s *server) stop() {
	s.mu.Lock()
	cs := s.session
	s.gen++
	s.session, s.remote = nil, nil
	if s.state != Failed {
		s.state = NotStarted
	}
	s.mu.Unlock()
	if cs != nil {
		cs.Close()
	}
}

func (s *server) current() (*sdk.ClientSession, State, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.session, s.state, s.reason
}

// ended reports whether the session of a call that just failed has ended,
// giving the watcher a moment to notice.
func (s *server) ended(cs *sdk.ClientSession) bool {
	s.mu.Lock()
	gone := s.gone
	same := s.session == cs
	s.mu.Unlock()
	if !same {
		return true
	}
	select {
	case <-gone:
		return true
	case <-time.After(200 * time.Millisecond):
		return false
	}
}

func startError(ctx context.Context, err error, timeout time.Duration, stderr *tail) string {
	if errors.Is(err, context.DeadlineExceeded) || ctx.Err() == context.DeadlineExceeded {
		return fmt.Sprintf("no answer within %v", timeout) + said(stderr)
	}
	return oneLine(err.Error()) + said(stderr)
}

// said is the server's last line on stderr, which is usually why it died.
func said(t *tail) string {
	if t == nil {
		return ""
	}
	if l := t.lastLine(); l != "" {
		return " (it said: " + l + ")"
	}
	return ""
}

// connect starts or dials one server and lists its tools.
func (m *Manager) connect(ctx context.Context, s *server, stderr *tail) (*sdk.ClientSession, []*remoteTool, error) {
	t, err := m.transport(s.cfg, stderr)
	if err != nil {
		return nil, nil, err
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "qsh", Version: "1"}, &sdk.ClientOptions{
		// No roots, sampling or elicitation: qsh only calls tools.
		Capabilities: &sdk.ClientCapabilities{},
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			s.mu.Lock()
			s.stale = true
			s.mu.Unlock()
		},
	})
	cs, err := client.Connect(ctx, t, nil)
	if err != nil {
		return nil, nil, err
	}
	remote, err := listTools(ctx, cs)
	if err != nil {
		go cs.Close()
		return nil, nil, err
	}
	return cs, remote, nil
}

func listTools(ctx context.Context, cs *sdk.ClientSession) ([]*remoteTool, error) {
	if caps := cs.InitializeResult().Capabilities; caps == nil || caps.Tools == nil {
		return nil, nil // a server of prompts or resources only
	}
	var remote []*remoteTool
	for def, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("listing its tools: %w", err)
		}
		remote = append(remote, newRemoteTool(def))
	}
	return remote, nil
}

func (m *Manager) transport(cfg ServerConfig, stderr *tail) (sdk.Transport, error) {
	if cfg.URL != "" {
		return &sdk.StreamableClientTransport{
			Endpoint:   cfg.URL,
			HTTPClient: &http.Client{Transport: headers{cfg.Headers}},
			// Tools are listed at start; server-initiated messages are not needed.
			DisableStandaloneSSE: true,
			MaxRetries:           1,
		}, nil
	}
	// The session's secrets stay out, as from every program the assistant
	// runs; the file's env (where ${VAR} may name one) is the user's word.
	var env []string
	for _, kv := range m.environ() {
		if name, _, _ := strings.Cut(kv, "="); !secret.Var(name) {
			env = append(env, kv)
		}
	}
	for k, v := range cfg.Env {
		env = append(env, k+"="+v)
	}
	path, err := lookPath(cfg.Command, envValue(env, "PATH"))
	if err != nil {
		return nil, err
	}
	prog, argv, dir := path, append([]string{cfg.Command}, cfg.Args...), m.dir()
	var files []*os.File
	started := func() {}
	if m.start != nil {
		if prog, argv, files, started, err = m.start(prog, argv, env, dir); err != nil {
			return nil, err
		}
	}
	cmd := &exec.Cmd{
		Path:       prog,
		Args:       argv,
		Env:        env,
		Dir:        dir,
		ExtraFiles: files,
		Stderr:     stderr,
		// A grandchild holding stderr open must not stall the reaping.
		WaitDelay: time.Second,
	}
	detach(cmd)
	return &stdioTransport{cmd: cmd, stop: m.stopTimeout, junk: stderr, started: started}, nil
}

// lookPath finds a command in the PATH the server will get, which may not
// be qsh's own (the user's rc files set theirs in the shell).
func lookPath(name, pathEnv string) (string, error) {
	if strings.Contains(name, "/") {
		if err := executable(name); err != nil {
			return "", fmt.Errorf("command %q: %v", name, err)
		}
		return name, nil
	}
	for _, dir := range filepath.SplitList(pathEnv) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if executable(p) == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("command %q not found in PATH", name)
}

func executable(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return errors.New("no such file")
		}
		return err
	}
	if fi.IsDir() || fi.Mode()&0o111 == 0 {
		return errors.New("not an executable file")
	}
	return nil
}

func envValue(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val // the last one wins, as in exec.Cmd
		}
	}
	return v
}

// headers adds the configured headers (an API token, usually) to every
// request to an HTTP server.
type headers struct{ h map[string]string }

func (t headers) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.h) > 0 {
		req = req.Clone(req.Context())
		for k, v := range t.h {
			req.Header.Set(k, v)
		}
	}
	return http.DefaultTransport.RoundTrip(req)
}

// tail keeps the end of what a server writes to stderr.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailMax = 4096

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailMax {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailMax:]...)
	}
	return len(p), nil
}

func (t *tail) lastLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	return oneLine(lines[len(lines)-1])
}

// oneLine makes a message fit the one line a failure gets.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 300 {
		s = string(r[:300]) + "…"
	}
	return s
}
