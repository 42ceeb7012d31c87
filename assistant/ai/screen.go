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

	"github.com/qsh-shell/qsh/internal/ansi"
)

// screen writes a turn to the terminal: streamed text rendered from its
// Markdown, a spinner while waiting, a line for each tool call. When the
// output is not a terminal it writes plain text and no control codes.
// What came from the model, a tool or an MCP server goes through
// [ansi.Escape] first: the only control codes that reach the terminal are
// the screen's own.
type screen struct {
	w     io.Writer
	term  bool
	color bool
	text  ansi.Stream // the answer's text, escaped as it streams
	// cols is the terminal's width, which tool lines are fitted to; nil
	// when unknown.
	cols func() int

	mu sync.Mutex
	// spinStop, when not nil, stops the running spinner.
	spinStop chan struct{}
	spinDone chan struct{}

	md *markdown // the answer's text, and where the line ends

	// note, when set, gets each of the assistant's own lines too: a
	// headless turn's note events.
	note func(string)

	dim, bold, ok, bad *color.Color
}

func newScreen(w io.Writer, term, useColor bool) *screen {
	s := &screen{w: w, term: term, color: term && useColor}
	s.md = newMarkdown(w, s.color)
	mk := func(a ...color.Attribute) *color.Color {
		c := color.New(a...)
		if s.color {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
		return c
	}
	s.dim = mk(color.Faint)
	s.bold = mk(color.Bold)
	s.ok = mk(color.FgGreen)
	s.bad = mk(color.FgRed)
	return s
}

var spinFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// Saving the cursor before the spinner and going back to it erases the
// spinner whatever was written after it: the terminal echoes a Ctrl-C as
// ^C after the frame, and moving back over the frame alone left "⠸^".
const (
	saveCursor    = "\x1b7"
	restoreCursor = "\x1b8"
	eraseLine     = "\x1b[K" // from the cursor to the end of the line
)

// spinTick is how often the spinner turns.
const spinTick = 80 * time.Millisecond

// spin shows a spinner until the next write; only on a terminal. Every
// way out of a turn stops it: the next text, line or tool line, End, and
// the end of each request, however it ended.
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
	if !s.md.col0 {
		prefix = " "
	}
	go func() {
		defer close(done)
		t := time.NewTicker(spinTick)
		defer t.Stop()
		// Drawn after the cursor, so it works mid-line too.
		io.WriteString(s.w, saveCursor)
		for i := 0; ; i++ {
			io.WriteString(s.w, prefix+spinFrames[i%len(spinFrames)])
			select {
			case <-stop:
				io.WriteString(s.w, restoreCursor+eraseLine)
				return
			case <-t.C:
				io.WriteString(s.w, restoreCursor+eraseLine)
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

// Text writes streamed answer text, rendered (see [markdown]).
func (s *screen) Text(t string) {
	if t == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopSpin()
	s.md.Write(s.text.Next(t))
}

// newline ends the current line if text left one open; s.mu is held.
func (s *screen) newline() {
	if t := s.text.Flush(); t != "" {
		s.md.Write(t)
	}
	s.md.Flush()
	if !s.md.col0 {
		s.md.emit("\n")
	}
}

// Write passes the tools' own lines through (they escape what they show,
// see package tools), keeping track of where the line ends.
func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopSpin()
	if len(p) == 0 {
		return 0, nil
	}
	if t := s.text.Flush(); t != "" {
		s.md.Write(t)
	}
	s.md.Flush()
	s.md.col0 = p[len(p)-1] == '\n'
	return s.w.Write(p)
}

// End finishes the answer: a final newline, colour off.
func (s *screen) End() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopSpin()
	s.newline()
	s.md.Reset()
}

// Line writes a whole line of the assistant's own, such as a note.
func (s *screen) Line(text string) {
	if s.note != nil {
		s.note(text)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopSpin()
	s.newline()
	s.dim.Fprint(s.w, ansi.Escape(text))
	io.WriteString(s.w, "\n")
}

// ToolStart shows a call as it starts.
func (s *screen) ToolStart(name, args string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopSpin()
	s.newline()
	sum := ansi.Escape(summarize(args))
	fmt.Fprintf(s.w, "%s %s", s.dim.Sprint("→"), s.bold.Sprint(ansi.Escape(name)))
	if sum != "" {
		fmt.Fprintf(s.w, " %s", sum)
	}
	io.WriteString(s.w, "\n")
}

// ToolEnd shows how a call ended, fitted to the terminal between words:
// why a call was refused must not be cut.
func (s *screen) ToolEnd(ok bool, what string, size int, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.newline()
	mark, style := "✓", "32"
	if !ok {
		mark, style = "✗", "31"
	}
	cols := 0
	if s.cols != nil && s.term {
		cols = s.cols()
	}
	io.WriteString(s.w, ansi.Layout([]ansi.Span{{Text: "  "}, {Style: style, Text: mark}, {Text: " "},
		{Style: "2", Text: fmt.Sprintf("%s · %s · %s", ansi.Escape(what), byteSize(size), d.Round(time.Millisecond))}}, cols, 4, s.color)+"\n")
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
