package ai

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fatih/color"
)

// screen writes a turn to the terminal: streamed text with code blocks in
// colour, a spinner while waiting, a line for each tool call. When the
// output is not a terminal it writes plain text and no control codes.
type screen struct {
	w     io.Writer
	term  bool
	color bool

	mu sync.Mutex
	// spinStop, when not nil, stops the running spinner.
	spinStop chan struct{}
	spinDone chan struct{}

	lineStart bool   // the next byte starts a line
	held      []byte // backticks at a line start that may open a fence
	fenceLine bool   // inside a ``` line
	inCode    bool
	wrote     bool // anything was written since the turn began

	code, fence, dim, bold, ok, bad *color.Color
}

func newScreen(w io.Writer, term, useColor bool) *screen {
	s := &screen{w: w, term: term, color: term && useColor, lineStart: true}
	mk := func(a ...color.Attribute) *color.Color {
		c := color.New(a...)
		if s.color {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
		return c
	}
	s.code = mk(color.FgCyan)
	s.fence = mk(color.Faint)
	s.dim = mk(color.Faint)
	s.bold = mk(color.Bold)
	s.ok = mk(color.FgGreen)
	s.bad = mk(color.FgRed)
	return s
}

var spinFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// spin shows a spinner until the next write; only on a terminal.
func (s *screen) spin() {
	if !s.term {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.spinStop != nil {
		return
	}
	stop, done := make(chan struct{}), make(chan struct{})
	s.spinStop, s.spinDone = stop, done
	prefix := ""
	if !s.lineStart {
		prefix = " "
	}
	go func() {
		defer close(done)
		t := time.NewTicker(80 * time.Millisecond)
		defer t.Stop()
		for i := 0; ; i++ {
			// The spinner is drawn after the cursor and erased by
			// moving back over it, so it works mid-line too.
			frame := prefix + spinFrames[i%len(spinFrames)]
			io.WriteString(s.w, frame)
			select {
			case <-stop:
				fmt.Fprintf(s.w, "\x1b[%dD\x1b[K", len([]rune(frame)))
				return
			case <-t.C:
				fmt.Fprintf(s.w, "\x1b[%dD", len([]rune(frame)))
			}
		}
	}()
}

// stopSpin erases the spinner; s.mu is held.
func (s *screen) stopSpin() {
	if s.spinStop == nil {
		return
	}
	close(s.spinStop)
	<-s.spinDone
	s.spinStop, s.spinDone = nil, nil
}

// Stop erases the spinner, if any.
func (s *screen) Stop() {
	s.mu.Lock()
	s.stopSpin()
	s.mu.Unlock()
}

// Text writes streamed answer text, colouring fenced code.
func (s *screen) Text(t string) {
	if t == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopSpin()
	s.wrote = true
	for len(t) > 0 {
		switch {
		case s.fenceLine:
			i := strings.IndexByte(t, '\n')
			if i < 0 {
				s.fence.Fprint(s.w, t)
				return
			}
			if i > 0 {
				s.fence.Fprint(s.w, t[:i])
			}
			io.WriteString(s.w, "\n")
			t = t[i+1:]
			s.fenceLine, s.lineStart = false, true
		case s.lineStart || len(s.held) > 0:
			if t[0] == '`' {
				s.held = append(s.held, '`')
				t = t[1:]
				s.lineStart = false
				if len(s.held) == 3 {
					s.held = s.held[:0]
					s.inCode = !s.inCode
					s.fenceLine = true
					s.fence.Fprint(s.w, "```")
				}
				continue
			}
			s.body(string(s.held))
			s.held = s.held[:0]
			s.lineStart = false
		default:
			i := strings.IndexByte(t, '\n')
			if i < 0 {
				s.body(t)
				return
			}
			s.body(t[:i+1])
			t = t[i+1:]
			s.lineStart = true
		}
	}
}

func (s *screen) body(t string) {
	if t == "" {
		return
	}
	if s.inCode {
		// Colour stops before the newline so a cut stream leaves none on.
		line, nl := strings.CutSuffix(t, "\n")
		if line != "" {
			s.code.Fprint(s.w, line)
		}
		if nl {
			io.WriteString(s.w, "\n")
		}
		return
	}
	io.WriteString(s.w, t)
}

// newline ends the current line if text left one open; s.mu is held.
func (s *screen) newline() {
	if len(s.held) > 0 {
		s.body(string(s.held))
		s.held = s.held[:0]
	}
	if !s.lineStart {
		io.WriteString(s.w, "\n")
		s.lineStart = true
	}
	s.fenceLine = false
}

// Write passes tool output through, keeping track of where the line ends.
func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopSpin()
	if len(p) == 0 {
		return 0, nil
	}
	if len(s.held) > 0 {
		s.body(string(s.held))
		s.held = s.held[:0]
	}
	s.lineStart = p[len(p)-1] == '\n'
	s.wrote = true
	return s.w.Write(p)
}

// End finishes the answer: a final newline, colour off.
func (s *screen) End() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopSpin()
	s.newline()
	s.inCode = false
}

// Line writes a whole line of the assistant's own, such as a note.
func (s *screen) Line(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopSpin()
	s.newline()
	s.dim.Fprint(s.w, text)
	io.WriteString(s.w, "\n")
	s.wrote = true
}

// ToolStart shows a call as it starts.
func (s *screen) ToolStart(name, args string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopSpin()
	s.newline()
	sum := summarize(args)
	fmt.Fprintf(s.w, "%s %s", s.dim.Sprint("→"), s.bold.Sprint(name))
	if sum != "" {
		fmt.Fprintf(s.w, " %s", sum)
	}
	io.WriteString(s.w, "\n")
	s.wrote = true
}

// ToolEnd shows how a call ended.
func (s *screen) ToolEnd(ok bool, what string, size int, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.newline()
	mark := s.ok.Sprint("✓")
	if !ok {
		mark = s.bad.Sprint("✗")
	}
	fmt.Fprintf(s.w, "  %s %s\n", mark, s.dim.Sprintf("%s · %s · %s", what, byteSize(size), d.Round(time.Millisecond)))
	s.wrote = true
}

func byteSize(n int) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1024*1024))
}

// summaryKeys are the arguments that best say what a call does, in order.
var summaryKeys = []string{"operation", "command", "path", "pattern", "query", "url", "name"}

// summarize turns a call's arguments into a short line for the user.
func summarize(args string) string {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return clip(oneLine(args), 80)
	}
	var parts []string
	for _, k := range summaryKeys {
		if v, ok := m[k].(string); ok && v != "" {
			parts = append(parts, v)
		}
	}
	if len(parts) == 0 {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if s, ok := m[k].(string); ok {
				parts = append(parts, k+"="+s)
				break
			}
		}
	}
	return clip(oneLine(strings.Join(parts, " ")), 80)
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
