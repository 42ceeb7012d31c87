package aitest

import (
	"encoding/json"
	"errors"
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
	proto  protocol

	mu      sync.Mutex
	replies []Reply
	reqs    []Request
}

// protocol is what makes a fake server one provider's.
type protocol struct {
	// path is the chat endpoint, served with and without /v1 before it.
	path   string
	stream func(w *sse, r Reply, req Request)
	// check says what the real API would refuse in a request.
	check func(req Request) error
	// errors is the body of an error response.
	errors func(rep Reply) []byte
	// refuse, when not nil, may answer a request as the server would
	// whatever the script says (a model without tools); it returns false
	// to let the script answer.
	refuse func(w http.ResponseWriter, req Request) bool
	// routes are the provider's other endpoints, by pattern.
	routes map[string]http.HandlerFunc
}

// newServer starts a fake server for one provider's protocol. The
// protocol's functions are set before the server starts: requests come from
// other processes, which the race detector does not see.
func newServer(t testing.TB, p protocol, replies []Reply) *Server {
	s := &Server{t: t, closed: make(chan struct{}), replies: replies, proto: p}
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+p.path, s.serve)
	mux.HandleFunc("POST /v1"+p.path, s.serve)
	for pattern, h := range p.routes {
		mux.HandleFunc(pattern, h)
	}
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
	} else if err := s.proto.check(req); err != nil {
		s.t.Errorf("aitest: bad request: %v\n%s", err, raw)
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()
	if s.proto.refuse != nil && s.proto.refuse(w, req) {
		return
	}
	s.mu.Lock()
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
	if rep.Taken != nil {
		close(rep.Taken)
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
		w.Write(s.proto.errors(rep))
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(200)
	out := &sse{w: w, rc: http.NewResponseController(w), cut: rep.CutAfter, end: rep.EndAfter,
		left: r.Context().Done(), closed: s.closed}
	defer func() {
		if r := recover(); r != nil && r != errEnd {
			panic(r)
		}
	}()
	s.proto.stream(out, rep, req)
}

// errEnd unwinds a stream that ends early on purpose (Reply.EndAfter).
var errEnd = errors.New("aitest: end of the response")

// sse writes events and flushes each, so the client sees it at once.
type sse struct {
	w   io.Writer
	rc  *http.ResponseController
	n   int
	cut int
	end int
	// left is closed when the client leaves, closed when the server does.
	left, closed <-chan struct{}
}

// hang blocks until the client leaves or the server closes.
func (e *sse) hang() {
	select {
	case <-e.left:
	case <-e.closed:
	}
}

// pause waits between two words of an endless answer; false means the
// client left.
func (e *sse) pause() bool {
	select {
	case <-time.After(5 * time.Millisecond):
		return true
	case <-e.left:
	case <-e.closed:
	}
	return false
}

// forever streams the words of an endless answer with send and returns
// true when it reached the request's limit, false when the client left.
func (e *sse) forever(rep Reply, limit int, send func(word string)) bool {
	if rep.IgnoreLimit {
		limit = 0
	}
	for i := 1; limit == 0 || i <= limit; i++ {
		if !e.pause() {
			return false
		}
		send(fmt.Sprintf("word%d ", i))
	}
	return true
}

// limit reads the output limit a request set, 0 for none.
func limit(req Request, fields ...string) int {
	for _, f := range fields {
		if n, ok := req.Body[f].(float64); ok && n > 0 {
			return int(n)
		}
	}
	return 0
}

// send writes one event; name is empty for OpenAI's unnamed events.
func (e *sse) send(name string, data any) {
	if e.cut > 0 && e.n >= e.cut {
		// Break the connection without ending the response properly.
		panic(http.ErrAbortHandler)
	}
	if e.end > 0 && e.n >= e.end {
		panic(errEnd)
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
