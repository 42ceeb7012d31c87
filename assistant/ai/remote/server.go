package remote

import (
	"context"
	"errors"
	"io"
	"os"
	"sync"
	"time"

	"github.com/qsh-shell/qsh/assistant/ai"
	"github.com/qsh-shell/qsh/assistant/mcp"
	"github.com/qsh-shell/qsh/assistant/tools"
	"github.com/qsh-shell/qsh/shell/guarded"
	"github.com/qsh-shell/qsh/wire"
)

// server is the assistant's end of the control channel.
type server struct {
	conn          *wire.Conn
	cfg           Settings
	stdin, stdout *os.File

	agent *ai.Agent
	mcps  *mcp.Manager
	reg   *tools.Registry
	last  wire.Message // the question being answered, for the MCP servers' env and cwd

	mu     sync.Mutex
	cancel context.CancelFunc        // the current turn's
	early  bool                      // a cancel came before its turn started
	runs   map[int]chan wire.Message // output and exit of the runs under way
	bg     map[int]*background       // the background runs that have not ended
	nextID int
	closed chan struct{} // the channel is gone: qsh exited
}

func newServer(conn *wire.Conn, cfg Settings) *server {
	return &server{conn: conn, cfg: cfg, runs: map[int]chan wire.Message{}, bg: map[int]*background{}, closed: make(chan struct{})}
}

// serve answers questions one at a time until the channel closes, then
// stops the MCP servers.
func (s *server) serve() {
	asks := make(chan wire.Message, 1)
	go s.read(asks)
	for m := range asks {
		s.last = m
		ctx, cancel := context.WithCancel(context.Background())
		s.mu.Lock()
		s.cancel = cancel
		if s.early {
			cancel()
		}
		s.mu.Unlock()
		go func() {
			select {
			case <-s.closed:
				cancel()
			case <-ctx.Done():
			}
		}()
		err := s.ask(ctx, m)
		s.mu.Lock()
		s.cancel = nil
		s.mu.Unlock()
		cancel()
		s.conn.Send(done(err))
	}
	if s.mcps != nil {
		s.mcps.Close()
	}
	if s.reg != nil {
		s.reg.Close() // the sandbox's proxies
	}
}

// read dispatches what qsh sends until the channel closes.
func (s *server) read(asks chan<- wire.Message) {
	defer close(asks)
	defer close(s.closed)
	for {
		m, err := s.conn.Receive()
		if err != nil {
			s.cancelTurn()
			return
		}
		switch m.Type {
		case wire.Ask:
			s.mu.Lock()
			s.early = false
			s.mu.Unlock()
			asks <- m
		case wire.Cancel:
			s.mu.Lock()
			if s.cancel != nil {
				s.cancel()
			} else {
				s.early = true // Ctrl-C as the question was sent
			}
			s.mu.Unlock()
		case wire.Output, wire.Exit, wire.Preview, wire.Terminal:
			s.mu.Lock()
			ch, b := s.runs[m.ID], s.bg[m.ID]
			if b != nil && m.Type == wire.Exit {
				delete(s.bg, m.ID)
			}
			s.mu.Unlock()
			switch {
			case b != nil && m.Type == wire.Output:
				b.out.Write(m.Data)
			case b != nil && m.Type == wire.Exit:
				b.ended(m.Result())
			case ch != nil:
				ch <- m
			}
		}
	}
}

// cancelTurn cancels the turn under way, if any.
func (s *server) cancelTurn() {
	s.mu.Lock()
	if s.cancel != nil {
		s.cancel()
	}
	s.mu.Unlock()
}

// request opens an exchange with qsh: an ID for the messages sent, the
// channel its answers come on (buffered for n), and done to close it.
func (s *server) request(n int) (id int, answers <-chan wire.Message, done func()) {
	ch := make(chan wire.Message, n)
	s.mu.Lock()
	s.nextID++
	id = s.nextID
	s.runs[id] = ch
	s.mu.Unlock()
	return id, ch, func() {
		s.mu.Lock()
		delete(s.runs, id)
		s.mu.Unlock()
	}
}

// previewWait bounds the wait for qsh's preview of a command: the
// question is not held up for it.
const previewWait = time.Second

// preview asks qsh what command would change (see package effect); ""
// when it cannot tell in time.
func (s *server) preview(ctx context.Context, command string) string {
	id, ch, done := s.request(1)
	defer done()
	if err := s.conn.Send(wire.Message{Type: wire.Preview, ID: id, Command: command}); err != nil {
		return ""
	}
	t := time.NewTimer(previewWait)
	defer t.Stop()
	select {
	case m := <-ch:
		return m.Text
	case <-t.C:
	case <-ctx.Done():
	case <-s.closed:
	}
	return ""
}

// edit puts command on the user's next prompt line.
func (s *server) edit(command string) error {
	return s.conn.Send(wire.Message{Type: wire.Edit, Command: command})
}

// run is the tools' RunFunc: it asks qsh to run the command and copies
// what it prints to out as it comes.
func (s *server) run(ctx context.Context, req guarded.Request, out io.Writer) guarded.Result {
	id, ch, done := s.request(64)
	defer done()
	err := s.conn.Send(wire.RunMessage(id, req))
	if err != nil {
		return guarded.Result{Status: 1, Err: err}
	}
	canceled := ctx.Done()
	for {
		select {
		case m := <-ch:
			switch m.Type {
			case wire.Output:
				out.Write(m.Data)
				continue
			case wire.Terminal:
				// Said before qsh hands the terminal over, so that the
				// program's prompt comes after it.
				if h, ok := out.(interface{ HandOff(program string) }); ok {
					h.HandOff(m.Command)
				}
				s.conn.Send(wire.Message{Type: wire.Terminal, ID: id})
				continue
			}
			return m.Result()
		case <-canceled:
			// qsh stops the run and answers with its exit.
			s.conn.Send(wire.Message{Type: wire.Cancel, ID: id})
			canceled = nil
		case <-s.closed:
			return guarded.Result{Status: 1, Err: errors.New("qsh closed the control channel")}
		}
	}
}

// background is where a background run's output and exit go.
type background struct {
	out   io.Writer
	ended func(guarded.Result)
}

// start is the tools' StartFunc: it asks qsh to start the command in the
// background; its output and exit come whenever they do (see read).
func (s *server) start(req guarded.Request, out io.Writer, ended func(guarded.Result)) (stop func(), err error) {
	s.mu.Lock()
	s.nextID++
	id := s.nextID
	s.bg[id] = &background{out: out, ended: ended}
	s.mu.Unlock()
	req.Background = true
	if err := s.conn.Send(wire.RunMessage(id, req)); err != nil {
		s.mu.Lock()
		delete(s.bg, id)
		s.mu.Unlock()
		return nil, err
	}
	return func() { s.conn.Send(wire.Message{Type: wire.Cancel, ID: id}) }, nil
}
