package shell

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/ergochat/readline"
)

// ErrInterrupt is what a [LineReader] returns when Ctrl-C discards the line.
var ErrInterrupt = errors.New("interrupt")

// ErrTooLong is what a [LineReader] returns for a line over [MaxLine]
// characters, which it discards.
var ErrTooLong = fmt.Errorf("line longer than %d characters: discarded (run long commands from a script file)", MaxLine)

// MaxLine is the longest line the line editor takes. readline redraws in
// time proportional to the line for each character, so a pasted megabyte
// would take hours; 4096 is also the limit of a terminal's own line
// editing (canonical mode).
const MaxLine = 4096

// LineReader reads command lines: readline on a terminal, or a scripted
// fake in tests.
type LineReader interface {
	// ReadLine shows prompt and returns the line typed, without its
	// newline; io.EOF for Ctrl-D on an empty line, ErrInterrupt for Ctrl-C.
	ReadLine(prompt string) (string, error)
	// AddHistory makes entry the most recent one for recall.
	AddHistory(entry string)
	// ClearHistory forgets all entries.
	ClearHistory()
	Close() error
}

// lineEditor is a [LineReader] on ergochat/readline: emacs keys, Ctrl-R,
// history recall. Delete on an empty line does nothing there; only Ctrl-D
// ends input.
type lineEditor struct {
	rl *readline.Instance
	in *lineInput
	// hist serves Up and Down (see [recall]); readline holds the
	// entries only from a Ctrl-R to the end of that line.
	hist     recall
	nav      int  // -1 or +1: Up or Down, on its way to listen
	lent     bool // readline holds the entries
	searched bool // a search put a line on screen since the last Up or Down
	// pending, when set, runs at the first key press: it joins the
	// shell's read of the history file, which goes on while the first
	// prompt is drawn, and hands over the entries.
	pending func()
	loaded  bool // a key was pressed
	n       int  // characters typed on the line so far
	tooLong bool // the line went over MaxLine: drop the rest
	dropped bool // the line was dropped
}

func newLineEditor(stdin *os.File, stdout io.Writer, complete readline.AutoCompleter, size int) (*lineEditor, error) {
	in := &lineInput{f: stdin}
	cfg := &readline.Config{
		Stdin:                  in,
		Stdout:                 stdout,
		Stderr:                 stdout,
		DisableAutoSaveHistory: true,
		HistoryLimit:           max(size, 1), // qsh keeps the file; readline only recalls
		HistorySearchFold:      true,
	}
	if complete != nil {
		cfg.AutoComplete = complete
	}
	e := &lineEditor{in: in}
	cfg.FuncFilterInputRune = e.filter
	cfg.Listener = e.listen
	rl, err := readline.NewFromConfig(cfg)
	if err != nil {
		return nil, err
	}
	e.rl = rl
	return e, nil
}

func (e *lineEditor) ReadLine(prompt string) (string, error) {
	e.rl.SetPrompt(prompt)
	e.n, e.tooLong, e.dropped = 0, false, false
	if e.lent {
		e.rl.ResetHistory() // garbage now: 6 MB for 10,000 entries
		e.lent = false
	}
	e.hist.reset()
	e.searched = false
	line, err := e.rl.ReadLine()
	if errors.Is(err, readline.ErrInterrupt) {
		if e.dropped {
			return "", ErrTooLong
		}
		return "", ErrInterrupt
	}
	return line, err
}

// filter counts the characters of the line and drops those past MaxLine;
// the Enter that ends such a line becomes a Ctrl-C, so that a truncated
// command never runs.
func (e *lineEditor) filter(r rune) (rune, bool) {
	if !e.loaded {
		e.loaded = true
		if e.pending != nil {
			e.pending()
			e.pending = nil
		}
	}
	switch r {
	case readline.CharPrev, readline.CharNext:
		// Shift-Tab does nothing in readline but reach listen, which
		// shows the entry; readline's own history is empty.
		e.nav = 1
		if r == readline.CharPrev {
			e.nav = -1
		}
		return readline.MetaShiftTab, true
	case readline.CharBckSearch, readline.CharFwdSearch:
		if !e.lent {
			for _, h := range e.hist.entries {
				e.rl.SaveToHistory(h)
			}
			e.lent = true
		}
		e.searched = true
		return r, true
	case readline.CharEnter, readline.CharCtrlJ:
		if e.tooLong {
			e.dropped = true
			return readline.CharInterrupt, true
		}
		return r, true
	case readline.CharInterrupt:
		return r, true
	}
	if e.tooLong {
		return r, false
	}
	if e.n++; e.n > MaxLine {
		e.tooLong = true
		e.in.skip = true
		return r, false
	}
	return r, true
}

// listen shows the history entry an Up or Down asked for.
func (e *lineEditor) listen(line []rune, _ int, key rune) ([]rune, int, bool) {
	if key != readline.MetaShiftTab || e.nav == 0 {
		return nil, 0, false
	}
	dir := e.nav
	e.nav = 0
	if e.searched {
		e.hist.found(string(line))
		e.searched = false
	}
	text, ok := e.hist.move(string(line), dir)
	if !ok {
		return nil, 0, false
	}
	rs := []rune(text)
	e.n = len(rs)
	return rs, len(rs), true
}

func (e *lineEditor) AddHistory(entry string) {
	e.hist.add(entry)
	if e.lent {
		e.rl.SaveToHistory(entry)
	}
}

func (e *lineEditor) ClearHistory() {
	e.hist.clear()
	e.rl.ResetHistory()
	e.lent = false
}

func (e *lineEditor) Close() error { return e.rl.Close() }

// lineInput is the line editor's stdin. It hands readline one byte per
// read, so that what readline has buffered is never more than a character,
// and it can skip the rest of a line that is too long without readline
// seeing (and redrawing for) each of its characters.
type lineInput struct {
	f    *os.File
	raw  [4096]byte
	buf  []byte // read from f, not yet handed out
	skip bool   // drop bytes up to the next end of line
}

func (in *lineInput) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		if len(in.buf) == 0 {
			n, err := in.f.Read(in.raw[:])
			if n == 0 {
				return 0, err
			}
			in.buf = in.raw[:n]
		}
		if in.skip {
			i := bytes.IndexAny(in.buf, "\r\n")
			if i < 0 {
				in.buf = nil
				continue
			}
			in.buf = in.buf[i:]
			in.skip = false
		}
		p[0] = in.buf[0]
		in.buf = in.buf[1:]
		return 1, nil
	}
}
