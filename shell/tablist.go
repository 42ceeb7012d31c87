package shell

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/qsh-shell/qsh/shell/completions"
	"golang.org/x/term"
)

// completionFuncs are the readline functions [lineEditor.completion] does.
func isCompletionFunc(fn string) bool {
	switch fn {
	case "complete", "menu-complete", "menu-complete-backward", "possible-completions":
		return true
	}
	return false
}

// completion does completion function fn on the line, for listen: the
// line it leaves, the bell, and the list printed below the line, after
// which the prompt and the line are drawn again, as bash does. prev is
// the function of the key before, when it was one of these.
func (e *lineEditor) completion(fn, prev string, line []rune, pos int) ([]rune, int, bool) {
	var r tabResult
	switch {
	case e.tab.on("disable-completion"):
		// The key goes in as typed, as readline's self-insert.
		l := slices.Concat(line[:pos], []rune{'\t'}, line[pos:])
		e.n = len(l)
		return l, pos + 1, true
	case fn == "complete":
		r = e.tab.complete(line, pos, prev == "complete")
	case fn == "menu-complete" || fn == "menu-complete-backward":
		dir := 1
		if fn == "menu-complete-backward" {
			dir = -1
		}
		r = e.tab.menuComplete(line, pos, dir, prev == "menu-complete" || prev == "menu-complete-backward")
	default:
		r = e.tab.possible(line, pos)
	}
	e.lastFn = fn
	if fn == "complete" && !slices.Equal(r.line, line) {
		// A Tab that put text in: the next one lists nothing yet, as
		// readline's completion_changed_buffer has it.
		e.lastFn = "complete changed"
	}
	if r.bell {
		e.ring()
	}
	if len(r.list) > 0 {
		e.showList(line, r.list) // below the line as it was
	}
	e.n = len(r.line)
	return r.line, r.pos, true
}

// listStyle is how the list looks with the readline variables set now,
// on a terminal cols wide.
func (t *tabCompleter) listStyle(cols int, getenv func(string) string) completions.ListStyle {
	style := completions.ListStyle{
		Width:        cols,
		Horizontal:   t.on("print-completions-horizontally"),
		VisibleStats: t.on("visible-stats"),
		MarkDirs:     t.on("mark-directories"),
		PrefixLen:    t.number("completion-prefix-display-length", 0),
	}
	if w := t.number("completion-display-width", -1); w >= 0 && w <= cols {
		style.Width = w // completion-display-width; 0: one per line
	}
	colors := getenv("NO_COLOR") == "" && (t.on("colored-stats") || t.on("colored-completion-prefix"))
	if colors {
		c := completions.ParseColors(getenv("LS_COLORS"))
		if t.on("colored-stats") {
			style.Colors = c
		}
		if t.on("colored-completion-prefix") {
			style.Prefix = c.PrefixColor()
		}
	}
	return style
}

// showList prints the matches below line, as readline lists them: after
// asking when there are completion-query-items of them or more, a page at
// a time with page-completions; the line is then drawn again under it.
func (e *lineEditor) showList(line []rune, ms []completions.Match) {
	cols, rows := 80, 24
	if c, r, err := term.GetSize(int(e.tty.Fd())); err == nil && c > 0 && r > 0 {
		cols, rows = c, r
	}
	lines := completions.List(ms, e.tab.listStyle(cols, os.Getenv))
	show := func() {
		w := e.stdout
		prompt := e.prompt[strings.LastIndexByte(e.prompt, '\n')+1:]
		io.WriteString(w, prompt+unraw(string(line))+"\r\n")
		if q := e.tab.number("completion-query-items", 100); q > 0 && len(ms) >= q {
			fmt.Fprintf(w, "Display all %d possibilities? (y or n)", len(ms))
			yes := e.answer(false) == answerYes
			io.WriteString(w, "\r\n")
			if !yes {
				return
			}
		}
		page := e.tab.on("page-completions")
		shown := 0
		for i, l := range lines {
			io.WriteString(w, l+"\r\n")
			shown++
			if !page || shown < rows-1 || i == len(lines)-1 {
				continue
			}
			io.WriteString(w, "--More--")
			a := e.answer(true)
			io.WriteString(w, "\r\x1b[K")
			switch a {
			case answerNo:
				return
			case answerLine:
				shown--
			default:
				shown = 0
			}
		}
	}
	if e.rl == nil { // no terminal: tests
		show()
		return
	}
	e.aside = show
	e.rl.Write(nil) // readline clears the line, calls aside (see answering), draws it again
	e.aside = nil
}

// The answers to readline's questions (y or n, --More--).
const (
	answerNo = iota
	answerYes
	answerLine // Enter at --More--: one line more
)

// answer reads keys until one answers readline's question: y, Y or
// space for yes; n, N, Rubout, Ctrl-G or Ctrl-C for no; at --More--
// (pager) q and Q for no and Enter for one more line. Another key rings
// the bell. readline reads no keys meanwhile: it waits for the listing to
// end.
func (e *lineEditor) answer(pager bool) int {
	var b [1]byte
	for {
		if n, err := e.in.Read(b[:]); n == 0 || err != nil {
			return answerNo
		}
		switch c := b[0]; {
		case c == 'y' || c == 'Y' || c == ' ':
			return answerYes
		case c == 'n' || c == 'N' || c == 0x7f || c == 0x07 || c == 0x03:
			return answerNo
		case pager && (c == 'q' || c == 'Q'):
			return answerNo
		case pager && (c == '\r' || c == '\n'):
			return answerLine
		}
		e.ring()
	}
}

// ring is the bell as bell-style has it: none, visible (the screen
// flashes, as the terminal's flash does), or audible.
func (e *lineEditor) ring() {
	style := "audible"
	if e.tab != nil && e.tab.rlVar != nil {
		style = strings.ToLower(e.tab.rlVar("bell-style"))
	}
	switch style {
	case "none", "off":
	case "visible":
		io.WriteString(e.stdout, "\x1b[?5h")
		time.Sleep(100 * time.Millisecond) // how long terminfo's flash keeps it
		io.WriteString(e.stdout, "\x1b[?5l")
	default:
		io.WriteString(e.stdout, "\a")
	}
}
