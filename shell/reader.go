package shell

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/ergochat/readline"
	"golang.org/x/term"
)

// ErrInterrupt is what a [LineReader] returns when Ctrl-C discards the line.
var ErrInterrupt = errors.New("interrupt")

// ErrTooLong is what a [LineReader] returns for a line of more than
// [MaxLine] characters, which it discards. (The figure is spelt out:
// formatting it at start-up would cost that.)
var ErrTooLong = errors.New("line too long: discarded (the limit is 262144 characters; run long commands from a script file)")

// MaxLine is the longest line, typed or pasted, in characters. bash has
// no limit; this one is twice what one argument of a program may be
// (Linux's MAX_ARG_STRLEN). readline redraws the whole line for each key,
// which no typist outpaces; keys that arrive together (a paste, marked by
// the terminal or not, a program typing) go in at once (see
// [lineInput.bulk]).
const MaxLine = 256 << 10

// LineReader reads command lines: readline on a terminal, or a scripted
// fake in tests.
type LineReader interface {
	// ReadLine shows prompt and returns the line typed, without its
	// newline; io.EOF for Ctrl-D on an empty line, ErrInterrupt for Ctrl-C.
	ReadLine(prompt string) (string, error)
	// Prefill makes the next ReadLine start with line on it, the cursor
	// at its end, for the user to edit (the assistant's command they took
	// over).
	Prefill(line string)
	// AddHistory makes entry the most recent one for recall.
	AddHistory(entry string)
	// ClearHistory forgets all entries.
	ClearHistory()
	Close() error
}

// lineEditor is a [LineReader] on ergochat/readline: emacs keys (or vi's,
// see vi.go), Ctrl-R, history recall. Delete on an empty line does nothing
// there; only Ctrl-D ends input.
type lineEditor struct {
	rl *readline.Instance
	in *lineInput
	// out gets the terminal's paste mode around each line and the move
	// to column 1 before it (see column.go); nil when the terminal
	// cannot do them.
	out io.Writer
	// tty is the terminal, for its width.
	tty *os.File
	// column1 is set when the cursor was put in column 1 for the line
	// being read.
	column1 atomic.Bool
	// hist serves Up and Down (see [recall]); readline holds the
	// entries only from a Ctrl-R to the end of that line.
	hist     recall
	nav      int // -1 or +1: Up or Down, on its way to listen
	pasted   string
	lent     bool // readline holds the entries
	searched bool // a search put a line on screen since the last Up or Down
	// pending, when set, runs at the first key press: it joins the
	// shell's read of the history file, which goes on while the first
	// prompt is drawn, and hands over the entries.
	pending func()
	loaded  bool // a key was pressed
	n       int  // characters on the line, as listen last saw it
	tooLong bool // the line went over MaxLine: drop the rest
	dropped bool // the line was dropped

	// tab is the completion (see tablist.go), and lastFn the
	// completion function of the key before, for the next.
	tab    *tabCompleter
	lastFn string
	// stdout is the terminal's output, and prompt the prompt being
	// shown, for the completions' list.
	stdout io.Writer
	prompt string

	// Key bindings (see editkeys.go):
	hooks  editorHooks
	action *binding // a bound key's, on its way to listen
	edit   editLine // the functions qsh does itself, and their mark and kills
	// yankedArg is the last yank-last-arg's, for the next.
	yankedArg yankedArg
	// macroRest is what a macro typed after accept-line, for the next
	// line.
	macroRest string
	// searchLine is the line the last history search showed, and
	// searchPrefix what it searched for.
	searchLine   string
	searchPrefix *string
	// aside runs while readline has the line off the screen (see
	// [lineEditor.outside]).
	aside func()
	// cooked is the terminal's state before readline made it raw.
	cooked *term.State
	// prefill is the text the next line starts with.
	prefill string
	// getNext, when not -1, is the history entry the next line starts
	// with (operate-and-get-next).
	getNext int
	// charSearch is set after Ctrl-]: the next key is what to find.
	charSearch bool

	// vi mode (see vi.go): its state, and a command on its way to listen.
	vi    viState
	viAct *viCmd
}

func newLineEditor(stdin *os.File, stdout io.Writer, complete *tabCompleter, size int, hooks editorHooks) (*lineEditor, error) {
	in := &lineInput{f: stdin}
	e := &lineEditor{in: in, tty: stdin, hooks: hooks, getNext: -1, tab: complete, stdout: stdout}
	cfg := &readline.Config{
		Stdin:                  in,
		Stdout:                 answering{Writer: stdout, in: in, column1: &e.column1, aside: &e.aside, bell: e.ring},
		Stderr:                 stdout,
		DisableAutoSaveHistory: true,
		HistoryLimit:           max(size, 1), // qsh keeps the file; readline only recalls
		HistorySearchFold:      true,
	}
	if t := os.Getenv("TERM"); t != "" && t != "dumb" {
		e.out = stdout
	}
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
	e.prompt, e.lastFn = prompt, ""
	e.n, e.tooLong, e.dropped, e.charSearch = 0, false, false, false
	if e.lent {
		e.rl.ResetHistory() // garbage now: 6 MB for 10,000 entries
		e.lent = false
	}
	e.hist.reset()
	e.searched = false
	e.column1.Store(false)
	e.in.keys, e.cooked = nil, nil
	e.vi.reset(e.hooks.vi != nil && e.hooks.vi())
	e.in.vi, e.viAct = e.vi.on, nil
	if e.hooks.keys != nil && e.hooks.keys.any() {
		e.in.keys = e.hooks.keys
		e.cooked, _ = term.GetState(int(e.tty.Fd()))
		if e.macroRest != "" {
			e.in.answer(string(rune(macroRestRune)))
		}
	}
	if e.out != nil {
		on := ""
		if e.bracketedPaste() {
			on = pasteOn
			e.in.bracketed = true
		}
		if cols, _, err := term.GetSize(int(e.tty.Fd())); err == nil && cols > 1 {
			on += startOfLine(cols)
			e.column1.Store(true)
		}
		io.WriteString(e.out, on)
	}
	if i := e.getNext; i >= 0 && i < len(e.hist.entries) && e.prefill == "" {
		e.prefill, e.hist.at = e.hist.entries[i], i
	}
	e.getNext = -1
	if e.prefill != "" {
		e.rl.SetDefault(rawText(e.prefill))
		e.prefill = ""
	}
	line, err := e.rl.ReadLine()
	e.in.keys = nil
	if e.out != nil && e.in.bracketed {
		// Programs the line runs get pastes as plain keys.
		io.WriteString(e.out, pasteOff)
		e.in.bracketed = false
	}
	if errors.Is(err, readline.ErrInterrupt) {
		if e.dropped {
			return "", ErrTooLong
		}
		return "", ErrInterrupt
	}
	return unraw(line), err
}

// filter counts the characters of the line and drops those past MaxLine;
// the Enter that ends such a line becomes a Ctrl-C, so that a truncated
// command never runs. It also turns Up, Down and a paste into work for
// listen, and drops the control keys neither readline nor qsh binds, as
// bash's readline does: inserted, they would be part of the command.
func (e *lineEditor) filter(r rune) (rune, bool) {
	if !e.loaded {
		e.loaded = true
		if e.pending != nil {
			e.pending()
			e.pending = nil
		}
	}
	if e.vi.on {
		var process, done bool
		if r, process, done = e.viFilter(r); done {
			return r, process
		}
	}
	if r >= keyRune && r <= macroRestRune {
		return e.bound(r)
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
				e.rl.SaveToHistory(rawText(h))
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
	case readline.CharTab:
		if e.tab != nil {
			e.action = &binding{fn: "complete", seq: "\t"}
			return readline.MetaShiftTab, true
		}
	case readline.CharCtrlZ:
		// readline would stop itself and wait for a SIGCONT that never
		// comes: the shell catches SIGTSTP. At the prompt, as in bash,
		// Ctrl-Z does nothing.
		return r, false
	case pasteRune:
		text, over := e.in.takePaste()
		if e.tooLong {
			return r, false
		}
		if over || e.n+utf8.RuneCountInString(text) > MaxLine {
			e.tooLong = true
			e.in.skip = true // what comes up to the Enter
			return r, false
		}
		e.pasted = text
		return readline.MetaShiftTab, true
	}
	if e.tooLong {
		return r, false
	}
	if e.charSearch {
		// The key after Ctrl-]: the character to move to.
		e.charSearch = false
		if r >= ' ' && r != 0x7f {
			e.action = &binding{fn: "character-search", seq: string(r)}
			return readline.MetaShiftTab, true
		}
	}
	if r == charSearchKey {
		e.charSearch = true
		return r, false
	}
	if unbound(r) {
		return r, false
	}
	if r >= ' ' && r != 0x7f && e.n >= MaxLine { // a character, not an editing key
		e.tooLong = true
		e.in.skip = true
		return r, false
	}
	return r, true
}

// charSearchKey is Ctrl-], bash's character-search: the next key is a
// character to move the cursor to.
const charSearchKey = 0x1d

// unbound reports whether r is a control key that readline v0.1.3 would
// insert, for want of a binding: Ctrl-@, Ctrl-Q, Ctrl-V, Ctrl-X alone,
// Ctrl-\, Ctrl-^ (qsh binds Ctrl-O, see [emacsKeys]), or a C1 control.
func unbound(r rune) bool {
	switch r {
	case 0, 0x0f, 0x11, 0x16, 0x18, 0x1c, 0x1e:
		return true
	}
	return r >= 0x80 && r < 0xa0
}

// listen shows the history entry an Up or Down asked for, or inserts a
// paste; it sees every key but Enter, and so keeps e.n.
func (e *lineEditor) listen(line []rune, pos int, key rune) ([]rune, int, bool) {
	e.n = len(line)
	prevFn := e.lastFn
	e.lastFn = ""
	if key != readline.MetaShiftTab {
		return nil, 0, false
	}
	if b := e.action; b != nil {
		e.action = nil
		if e.tab != nil && isCompletionFunc(b.fn) {
			return e.completion(b.fn, prevFn, line, pos)
		}
		return e.act(*b, line, pos)
	}
	if c := e.viAct; c != nil {
		e.viAct = nil
		return e.viRun(*c, line, pos)
	}
	if e.pasted != "" {
		p := toRunes(e.pasted)
		e.pasted = ""
		out := make([]rune, 0, len(line)+len(p))
		out = append(append(append(out, line[:pos]...), p...), line[pos:]...)
		e.n = len(out)
		return out, pos + len(p), true
	}
	if e.nav == 0 {
		return nil, 0, false
	}
	dir := e.nav
	e.nav = 0
	if e.searched {
		e.hist.found(unraw(string(line)))
		e.searched = false
	}
	text, ok := e.hist.move(unraw(string(line)), dir)
	if !ok {
		return nil, 0, false
	}
	rs := toRunes(text)
	e.n = len(rs)
	if e.vi.command {
		// vi's k and j (and Up and Down in command mode) start the
		// entry's editing anew at its first character; back on the line
		// being edited, at its last, as bash has it.
		p := 0
		if e.hist.at == len(e.hist.entries) {
			p = max(0, len(rs)-1)
		}
		e.vi.undo = []viSnap{{text, p}}
		return rs, p, true
	}
	return rs, len(rs), true
}

// bracketedPaste reports whether the terminal is to mark pastes
// (enable-bracketed-paste, on unless set off).
func (e *lineEditor) bracketedPaste() bool {
	return e.tab == nil || e.tab.rlVar == nil || e.tab.on("enable-bracketed-paste")
}

func (e *lineEditor) Prefill(line string) { e.prefill = line }

func (e *lineEditor) AddHistory(entry string) {
	e.hist.add(entry)
	if e.lent {
		e.rl.SaveToHistory(rawText(entry))
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
	f    io.Reader
	raw  [4096]byte
	buf  []byte // read from f, not yet handed out
	skip bool   // drop bytes up to the next end of line
	// bracketed is set while the terminal marks pastes (see paste.go).
	bracketed bool
	// keys, set while a line is read, are the bound key sequences to
	// find (see [lineInput.matchKey]).
	keys *keymap
	// vi, set while a line is read in vi mode, makes an Esc not followed
	// by the rest of a sequence viEscRune.
	vi bool
	// idle, when set, runs once before the first wait for the
	// terminal, on the goroutine that reads it: the prompt is drawn.
	idle      func()
	out       []byte // bytes to hand out before buf: a paste, an answer
	paste     string // the one-line paste pasteRune in out stands for
	pasteOver bool   // it was longer than MaxLine

	// mu guards reading, and out while reading is false: [lineInput.answer]
	// runs on the goroutine that draws the line.
	mu      sync.Mutex
	reading bool // a Read is under way
}

func (in *lineInput) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	in.mu.Lock()
	if len(in.out) > 0 {
		p[0] = in.out[0]
		in.out = in.out[1:]
		in.mu.Unlock()
		return 1, nil
	}
	in.reading = true
	in.mu.Unlock()
	defer func() {
		in.mu.Lock()
		in.reading = false
		in.mu.Unlock()
	}()
	return in.read(p)
}

// answer queues what the terminal would have answered, and reports
// whether it could: not while a Read waits for the terminal, which would
// hand it out only after the next key.
func (in *lineInput) answer(s string) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.reading {
		return false
	}
	in.out = append(in.out, s...)
	return true
}

func (in *lineInput) read(p []byte) (int, error) {
	for {
		if len(in.out) > 0 {
			p[0] = in.out[0]
			in.out = in.out[1:]
			return 1, nil
		}
		if len(in.buf) == 0 {
			if in.idle != nil {
				in.idle()
				in.idle = nil
			}
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
		if in.bracketed && in.buf[0] == '\x1b' {
			in.completeMarker()
			switch {
			case bytes.HasPrefix(in.buf, []byte(pasteStart)):
				in.buf = in.buf[len(pasteStart):]
				if err := in.readPaste(); err != nil && len(in.out) == 0 {
					return 0, err
				}
				continue
			case bytes.HasPrefix(in.buf, []byte(pasteEnd)): // of a paste skipped
				in.buf = in.buf[len(pasteEnd):]
				continue
			}
		}
		if in.vi && len(in.buf) == 1 && in.buf[0] == '\x1b' {
			if !in.more(viEscWait) {
				in.buf = nil
				in.out = utf8.AppendRune(in.out, viEscRune)
			}
			continue // with what followed the Esc, from the top
		}
		if in.keys != nil && in.matchKey() {
			continue
		}
		// In vi mode only Esc [ and Esc O start a key's sequence (a
		// bound one was found above): Esc then k is vi's k.
		if in.vi && in.buf[0] == '\x1b' && len(in.buf) > 1 && in.buf[1] != '[' && in.buf[1] != 'O' {
			in.buf = in.buf[1:]
			in.out = utf8.AppendRune(in.out, viEscRune)
			continue
		}
		if in.bulk() || in.rawAhead() {
			continue
		}
		p[0] = in.buf[0]
		in.buf = in.buf[1:]
		return 1, nil
	}
}

// lastRuneStart is where the last character of b starts.
func lastRuneStart(b []byte) int {
	i := max(len(b)-1, 0)
	for i > 0 && len(b)-i < utf8.UTFMax && !utf8.RuneStart(b[i]) {
		i--
	}
	return i
}

// bulkRun is how many printable bytes, come together, are taken for a
// paste rather than keys: no typist sends that many in one read, and
// below it the redraws readline does key by key cost little.
const bulkRun = 512

// bulkWait is how long the rest of such a paste is waited for, once what
// came is taken in: the terminal (and the capture proxy) hand a long one
// over in pieces, and each insertion redraws the whole line.
const bulkWait = 10 * time.Millisecond

// bulk hands the printable text at the start of buf, when it came in
// one read and is long enough (a paste the terminal did not mark, keys a
// program typed), as one insertion, as a marked paste goes in: key by key,
// readline would redraw the whole line for each. Not in vi mode, where
// letters may be commands, nor over a bound key's first byte.
func (in *lineInput) bulk() bool {
	if in.vi {
		return false
	}
	n := in.printable(0)
	if n < bulkRun {
		return false
	}
	for n == len(in.buf) && n <= MaxLine*utf8.UTFMax && in.more(bulkWait) {
		n = in.printable(n)
	}
	// A character cut by the read goes with the rest of it.
	if i := lastRuneStart(in.buf[:n]); !utf8.FullRune(in.buf[i:n]) {
		n = i
	}
	over := n > MaxLine*utf8.UTFMax
	text := in.buf[:n]
	if over {
		text = nil
	}
	in.paste, in.pasteOver = cleanPaste(text), over
	in.buf = in.buf[n:]
	in.out = utf8.AppendRune(in.out, pasteRune)
	return true
}

// printable is where the run of printable bytes that buf[from:] starts
// with ends.
func (in *lineInput) printable(from int) int {
	n := from
	for n < len(in.buf) {
		c := in.buf[n]
		if c < ' ' || c == 0x7f || in.keys != nil && in.keys.starts(c) {
			break
		}
		n++
	}
	return n
}

// completeMarker reads on while buf holds the start of a paste marker cut
// by a read. A lone ESC, the Escape key, is not waited on.
func (in *lineInput) completeMarker() {
	for len(in.buf) >= 2 && len(in.buf) < len(pasteStart) &&
		(strings.HasPrefix(pasteStart, string(in.buf)) || strings.HasPrefix(pasteEnd, string(in.buf))) {
		head := append([]byte(nil), in.buf...) // the read reuses raw
		n, _ := in.f.Read(in.raw[:])
		in.buf = append(head, in.raw[:n]...)
		if n == 0 {
			return
		}
	}
}
