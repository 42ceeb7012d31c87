package aitest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Request is one request the fake server received.
type Request struct {
	Method, Path string
	Header       http.Header
	Raw          []byte
	// Body is Raw decoded.
	Body map[string]any
}

// Server is a fake provider.
type Server struct {
	// URL is the base URL to configure: for OpenAI it ends in /v1, as
	// OPENAI_BASE_URL does; for Anthropic it is the root.
	URL string

	t      testing.TB
	srv    *httptest.Server
	closed chan struct{}
	once   sync.Once
	stream func(w *sse, r Reply, req Request)
	check  func(req Request) error
	errors func(rep Reply) []byte

	mu      sync.Mutex
	replies []Reply
	reqs    []Request
}

// newServer starts a fake server for one provider's protocol. The
// protocol's functions are set before the server starts: requests come from
// other processes, which the race detector does not see.
func newServer(t testing.TB, path string, replies []Reply,
	stream func(*sse, Reply, Request), check func(Request) error, errors func(Reply) []byte) *Server {
	s := &Server{t: t, closed: make(chan struct{}), replies: replies,
		stream: stream, check: check, errors: errors}
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+path, s.serve)
	mux.HandleFunc("POST /v1"+path, s.serve)
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

// Close stops the server; streams left hanging end.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.closed)
		s.srv.CloseClientConnections()
		s.srv.Close()
	})
}

// Push adds replies to the end of the script.
func (s *Server) Push(replies ...Reply) {
	s.mu.Lock()
	s.replies = append(s.replies, replies...)
	s.mu.Unlock()
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Left returns how many scripted replies were not used.
func (s *Server) Left() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.replies)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	req := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Raw: raw}
	if err := json.Unmarshal(raw, &req.Body); err != nil {
		s.t.Errorf("aitest: request body is not JSON: %v\n%s", err, raw)
	} else if err := s.check(req); err != nil {
		s.t.Errorf("aitest: bad request: %v\n%s", err, raw)
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	var rep Reply
	ok := len(s.replies) > 0
	if ok {
		rep, s.replies = s.replies[0], s.replies[1:]
	}
	s.mu.Unlock()
	if !ok {
		s.t.Errorf("aitest: request %d has no scripted reply", len(s.Requests()))
		http.Error(w, `{"error":{"message":"aitest: no scripted reply left","type":"server_error"}}`, 500)
		return
	}
	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-r.Context().Done():
			return
		case <-s.closed:
			return
		}
	}
	if rep.Status != 0 {
		if rep.RetryAfter != "" {
			w.Header().Set("Retry-After", rep.RetryAfter)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rep.Status)
		w.Write(s.errors(rep))
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(200)
	out := &sse{w: w, rc: http.NewResponseController(w), cut: rep.CutAfter}
	out.hang = func() {
		select {
		case <-r.Context().Done():
		case <-s.closed:
		}
	}
	s.stream(out, rep, req)
}

// sse writes events and flushes each, so the client sees it at once.
type sse struct {
	w   io.Writer
	rc  *http.ResponseController
	n   int
	cut int
	// hang blocks until the client leaves or the server closes.
	hang func()
}

// send writes one event; name is empty for OpenAI's unnamed events.
func (e *sse) send(name string, data any) {
	if e.cut > 0 && e.n >= e.cut {
		// Break the connection without ending the response properly.
		panic(http.ErrAbortHandler)
	}
	e.n++
	var b []byte
	if s, ok := data.(string); ok {
		b = []byte(s)
	} else {
		b, _ = json.Marshal(data)
	}
	if name != "" {
		fmt.Fprintf(e.w, "event: %s\n", name)
	}
	fmt.Fprintf(e.w, "data: %s\n\n", b)
	e.rc.Flush()
}

// wait paces text chunks through the reply's gate.
func wait(rep Reply, i int) {
	if rep.Gate != nil && i > 0 {
		<-rep.Gate
	}
}

// tokens is a rough count for replies that script no usage.
func tokens(s string) int { return len(s)/4 + 1 }
