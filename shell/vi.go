package shell

import (
	"os"
	"slices"
	"syscall"
	"time"
	"unicode"

	"github.com/ergochat/readline"
	"golang.org/x/sys/unix"
)

// vi mode (set -o vi): the line starts in insert mode, where keys edit as
// in emacs mode; Esc enters command mode, whose keys viState reads, as
// bash's vi-command keymap has them: counts, motions (h l w W b B e E 0 ^
// $ | f F t T ; , %), operators with a motion or doubled (d c y), x X s S
// r ~ D C Y p P, u U ., i a I A, j k + - for history, / ? for search, #
// and v. readline v0.1.3's own vim mode cannot be reached (it reads Esc as
// the start of a key sequence) and has neither counts nor undo; qsh sees
// each key first (see [lineEditor.filter]) and changes the line through
// the listener, as for bound keys.

// viEscRune stands, in the editor's input, for the Escape key pressed on
// its own (see [lineInput.read]): the start of a sequence otherwise.
const viEscRune = '\uFDD1'

// viState is vi mode's state for one session: the mode, the keys of a
// command not yet complete, and what outlives a command (the register,
// the last change and the last f/t search, the undo list).
type viState struct {
	on      bool // set -o vi
	command bool // in command mode, not insert mode
	pending []rune
	// reg is the text d, c, y, x and s took, for p and P.
	reg string
	// last is the last command that changed the line, for `.`; typed
	// what was typed in the insert mode it entered (nil: recording ended
	// with a key `.` cannot repeat).
	last      *viCmd
	typed     []rune
	recording bool
	// find is the last f, F, t or T with its character, for ; and ,.
	find, findArg rune
	// undo holds the line before each change, oldest first, from the
	// line as it was when command mode was first entered (U's).
	undo []viSnap
}

type viSnap struct {
	line  string
	point int
}

// viCmd is one command-mode command as typed: [count] key [arg], or
// [count] op [count] motion [arg].
type viCmd struct {
	count int  // 0 when none was given
	op    rune // 'd', 'c', 'y' or 0
	key   rune // the motion or command
	arg   rune // f/F/t/T/r's character
}

// viOutcome is what a completed command asks of the editor beyond
// changing the line.
type viOutcome uint8

const (
	viNone   viOutcome = iota
	viPrev             // previous history entry
	viNext             // next history entry
	viSearch           // reverse-search-history, in insert mode
	viFwdSearch
	viAccept // accept the line
	viEdit   // edit-and-execute-command
)

// reset starts a line, in insert mode. As in bash, what is typed before
// the first Esc cannot be undone: the line then is the first state to
// undo to (see [viState.toCommand]).
func (v *viState) reset(on bool) {
	*v = viState{on: on, reg: v.reg, last: v.last, typed: v.typed, find: v.find, findArg: v.findArg}
}

// parseVi reads keys as one command: done when it is complete, ok false
// when it cannot be one.
func parseVi(keys []rune) (c viCmd, done, ok bool) {
	i := 0
	count := func() int {
		n := 0
		for i < len(keys) && (keys[i] >= '1' && keys[i] <= '9' || n > 0 && keys[i] == '0') {
			n = n*10 + int(keys[i]-'0')
			i++
		}
		return min(n, 9999)
	}
	c.count = count()
	if i == len(keys) {
		return c, false, true
	}
	c.key = keys[i]
	i++
	if c.key == 'd' || c.key == 'c' || c.key == 'y' {
		c.op = c.key
		if n := count(); n > 0 {
			c.count = max(c.count, 1) * n
		}
		if i == len(keys) {
			return c, false, true
		}
		c.key = keys[i]
		i++
		if c.key != c.op && !isViMotion(c.key) {
			return c, true, false
		}
	} else if !isViMotion(c.key) && !slices.Contains([]rune("xXsSrDCYpP~uU.iaIAjk+-/?#v"), c.key) {
		return c, true, false
	}
	if slices.Contains([]rune("fFtTr"), c.key) {
		if i == len(keys) {
			return c, false, true
		}
		c.arg = keys[i]
	}
	return c, true, true
}

func isViMotion(r rune) bool {
	return slices.Contains([]rune("hl 0^$|wWbBeEfFtT;,%"), r)
}

// key takes one key typed in command mode: done when it completed a
// command, which is then c.
func (v *viState) key(r rune) (c viCmd, done bool) {
	v.pending = append(v.pending, r)
	c, done, ok := parseVi(v.pending)
	if done || !ok {
		v.pending = v.pending[:0]
	}
	return c, done && ok
}

// exec runs a complete command on ed's line.
func (v *viState) exec(c viCmd, ed *editLine) viOutcome {
	switch c.key {
	case 'j', '+':
		return viNext
	case 'k', '-':
		return viPrev
	case '/':
		v.command = false
		return viSearch
	case '?':
		v.command = false
		return viFwdSearch
	case 'u':
		if n := len(v.undo); n > 0 {
			s := v.undo[n-1]
			if n > 1 {
				v.undo = v.undo[:n-1]
			}
			ed.line, ed.point = []rune(s.line), s.point
			v.clamp(ed)
		}
		return viNone
	case 'U':
		if len(v.undo) == 0 {
			return viNone
		}
		s := v.undo[0]
		v.undo = v.undo[:1]
		ed.line, ed.point = []rune(s.line), s.point
		v.clamp(ed)
		return viNone
	case '.':
		if v.last == nil {
			return viNone
		}
		again := *v.last
		if c.count > 0 {
			again.count = c.count
		}
		typed := v.typed
		out := v.exec(again, ed)
		if !v.command { // it entered insert mode: type again what was typed
			ed.insert(string(typed))
			v.toCommand(ed)
		}
		v.typed = typed
		return out
	}
	if c.op == 0 && isViMotion(c.key) {
		if p, _, ok := v.motion(c, ed); ok {
			ed.point = p
			v.clamp(ed)
		}
		return viNone
	}

	before := viSnap{string(ed.line), ed.point}
	v.last, v.typed, v.recording = &c, nil, true
	out := v.change(c, ed)
	if v.command {
		v.recording = false
		v.clamp(ed)
	}
	if string(ed.line) != before.line || !v.command {
		v.undo = append(v.undo, before)
	}
	if c.op == 'y' || c.key == 'Y' || c.key == 'v' {
		v.last = nil // nothing to repeat
	}
	return out
}

// change runs a command that may change the line or enter insert mode.
func (v *viState) change(c viCmd, ed *editLine) viOutcome {
	n := max(c.count, 1)
	line := ed.line
	switch c.op {
	case 'd', 'c', 'y':
		from, to := 0, len(line)
		switch {
		case c.op == 'c' && (c.key == 'w' || c.key == 'W') && ed.point < len(line) && !unicode.IsSpace(line[ed.point]):
			// cw on a word changes to its end, not over the blanks after;
			// on its last character, that character only.
			big, p := c.key == 'W', ed.point
			for i := range n {
				if i > 0 || p+1 < len(line) && viClass(line[p+1], big) == viClass(line[p], big) {
					p = wordEnd(line, p, big)
				}
			}
			from, to = ed.point, min(p+1, len(line))
		case c.key != c.op: // with a motion
			p, inclusive, ok := v.motion(c, ed)
			if !ok {
				return viNone
			}
			from, to = min(ed.point, p), max(ed.point, p)
			if inclusive {
				to = min(to+1, len(line))
			}
		}
		v.reg = string(line[from:to])
		if c.op == 'y' {
			ed.point = from
			return viNone
		}
		ed.line = slices.Delete(line, from, to)
		ed.point = from
		if c.op == 'c' {
			v.command = false
		}
		return viNone
	}
	switch c.key {
	case 'x', 'X', 's', 'D', 'C':
		from, to := ed.point, min(ed.point+n, len(line))
		switch c.key {
		case 'X':
			from, to = max(0, ed.point-n), ed.point
		case 'D', 'C':
			to = len(line)
		}
		if from < to {
			v.reg = string(line[from:to])
			ed.line = slices.Delete(line, from, to)
		}
		ed.point = from
		if c.key == 's' || c.key == 'C' {
			v.command = false
		}
	case 'S':
		v.reg = string(line)
		ed.line, ed.point = nil, 0
		v.command = false
	case 'Y':
		v.reg = string(line[ed.point:])
	case 'r':
		if ed.point+n <= len(line) && c.arg >= ' ' {
			for i := range n {
				line[ed.point+i] = c.arg
			}
			ed.point += n - 1
		}
	case '~':
		for ; n > 0 && ed.point < len(line); n-- {
			r := line[ed.point]
			if unicode.IsUpper(r) {
				line[ed.point] = unicode.ToLower(r)
			} else {
				line[ed.point] = unicode.ToUpper(r)
			}
			ed.point++
		}
	case 'p', 'P':
		if v.reg == "" {
			return viNone
		}
		if c.key == 'p' && len(line) > 0 {
			ed.point++
		}
		for range n {
			ed.insert(v.reg)
		}
		ed.point--
	case 'i':
	case 'a':
		ed.point = min(ed.point+1, len(line))
	case 'I':
		ed.point = 0
		for ed.point < len(line) && unicode.IsSpace(line[ed.point]) {
			ed.point++
		}
	case 'A':
		ed.point = len(line)
	case '#':
		ed.point = 0
		ed.insert("#")
		return viAccept
	case 'v':
		return viEdit
	}
	if slices.Contains([]rune("iaIA"), c.key) {
		v.command = false
	}
	return viNone
}

// motion is where motion c.key takes the point (with its count), and
// whether an operator includes the character there.
func (v *viState) motion(c viCmd, ed *editLine) (p int, inclusive, ok bool) {
	line, p := ed.line, ed.point
	n := max(c.count, 1)
	switch c.key {
	case 'h':
		return max(0, p-n), false, p > 0
	case 'l', ' ':
		return min(len(line), p+n), false, p < len(line)
	case '0':
		return 0, false, true
	case '^':
		p = 0
		for p < len(line) && unicode.IsSpace(line[p]) {
			p++
		}
		return p, false, true
	case '$':
		return len(line), false, true
	case '|':
		return min(n-1, max(0, len(line)-1)), false, true
	case 'w', 'W':
		for range n {
			p = nextWordStart(line, p, c.key == 'W')
		}
		return p, false, true
	case 'b', 'B':
		for range n {
			p = prevWordStart(line, p, c.key == 'B')
		}
		return p, false, true
	case 'e', 'E':
		for range n {
			p = wordEnd(line, p, c.key == 'E')
		}
		return p, true, p < len(line)
	case '%':
		q, ok := matchBracket(line, p)
		return q, true, ok
	case 'f', 'F', 't', 'T', ';', ',':
		key, arg := c.key, c.arg
		repeat := key == ';' || key == ','
		if repeat {
			if v.find == 0 {
				return p, false, false
			}
			key, arg = v.find, v.findArg
			if c.key == ',' {
				key = map[rune]rune{'f': 'F', 'F': 'f', 't': 'T', 'T': 't'}[key]
			}
		} else {
			v.find, v.findArg = key, arg
		}
		for i := range n {
			// A repeated t or T starts past the character it stopped
			// before, or it would not move.
			skip := repeat && i == 0 && (key == 't' || key == 'T')
			q, ok := findChar(line, p, key, arg, skip)
			if !ok {
				return ed.point, false, false
			}
			p = q
		}
		return p, key == 'f' || key == 't', true
	}
	return p, false, false
}

// findChar is f, F, t and T from p.
func findChar(line []rune, p int, key, arg rune, skip bool) (int, bool) {
	switch key {
	case 'f', 't':
		from := p + 1
		if skip {
			from++
		}
		for i := from; i < len(line); i++ {
			if line[i] == arg {
				if key == 't' {
					return i - 1, true
				}
				return i, true
			}
		}
	default:
		from := p - 1
		if skip {
			from--
		}
		for i := from; i >= 0 && i < len(line); i-- {
			if line[i] == arg {
				if key == 'T' {
					return i + 1, true
				}
				return i, true
			}
		}
	}
	return p, false
}

// viClass is a character's class for word motions: blank (0), a word's
// letters, digits and underscores (1), or other non-blanks (2); bigword
// motions (W B E) make every non-blank 1.
func viClass(r rune, big bool) int {
	switch {
	case unicode.IsSpace(r):
		return 0
	case big || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
		return 1
	}
	return 2
}

func nextWordStart(line []rune, p int, big bool) int {
	if p >= len(line) {
		return len(line)
	}
	if c := viClass(line[p], big); c != 0 {
		for p < len(line) && viClass(line[p], big) == c {
			p++
		}
	}
	for p < len(line) && viClass(line[p], big) == 0 {
		p++
	}
	return p
}

func prevWordStart(line []rune, p int, big bool) int {
	p--
	for p > 0 && viClass(line[p], big) == 0 {
		p--
	}
	if p <= 0 {
		return 0
	}
	c := viClass(line[p], big)
	for p > 0 && viClass(line[p-1], big) == c {
		p--
	}
	return p
}

func wordEnd(line []rune, p int, big bool) int {
	p++
	for p < len(line) && viClass(line[p], big) == 0 {
		p++
	}
	if p >= len(line) {
		return len(line)
	}
	c := viClass(line[p], big)
	for p+1 < len(line) && viClass(line[p+1], big) == c {
		p++
	}
	return p
}

// matchBracket is %: the bracket matching the first one at or after p.
func matchBracket(line []rune, p int) (int, bool) {
	const open, close = "([{", ")]}"
	for ; p < len(line); p++ {
		r := line[p]
		if i := indexRune(open, r); i >= 0 {
			return scanBracket(line, p, 1, r, rune(close[i]))
		}
		if i := indexRune(close, r); i >= 0 {
			return scanBracket(line, p, -1, r, rune(open[i]))
		}
	}
	return 0, false
}

func indexRune(s string, r rune) int {
	for i, c := range s {
		if c == r {
			return i
		}
	}
	return -1
}

func scanBracket(line []rune, p, dir int, same, other rune) (int, bool) {
	depth := 0
	for ; p >= 0 && p < len(line); p += dir {
		switch line[p] {
		case same:
			depth++
		case other:
			if depth--; depth == 0 {
				return p, true
			}
		}
	}
	return 0, false
}

// typedKey records a key typed in insert mode for `.`; one it could not
// type again ends the recording. As in bash, `.` types only what was
// typed after the last backspace.
func (v *viState) typedKey(r rune) {
	if !v.recording {
		return
	}
	if r == 0x7f || r == 0x08 {
		v.typed = v.typed[:0]
		return
	}
	if r >= ' ' && r < keyRune && r != pasteRune {
		v.typed = append(v.typed, r)
		return
	}
	v.recording, v.typed = false, nil
	v.last = nil
}

// toCommand is Esc in insert mode: command mode, the point on the
// character before it, as vi has it.
func (v *viState) toCommand(ed *editLine) {
	v.command, v.recording = true, false
	v.pending = v.pending[:0]
	if n := len(v.undo); n == 0 {
		v.undo = []viSnap{{string(ed.line), max(0, ed.point-1)}}
	} else if n > 1 && v.undo[n-1].line == string(ed.line) {
		v.undo = v.undo[:n-1] // the insert changed nothing
	}
	ed.point = max(0, ed.point-1)
}

// clamp keeps the point on a character, as command mode has it.
func (v *viState) clamp(ed *editLine) {
	ed.point = max(0, min(ed.point, len(ed.line)-1))
}

// viEscWait is how long the rest of a key's sequence may take to follow
// its Esc, as terminals' own timeouts (vim's ttimeoutlen is 100 ms): the
// bytes of one key come in one write, so only a lone Esc waits for it.
const viEscWait = 50 * time.Millisecond

// more waits up to wait for the terminal to have more bytes, and adds
// them to buf; it reports whether there were any.
func (in *lineInput) more(wait time.Duration) bool {
	conn, ok := in.f.(syscall.Conn)
	if !ok {
		return false
	}
	raw, err := conn.SyscallConn()
	if err != nil {
		return false
	}
	ready := false
	raw.Control(func(fd uintptr) {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		for {
			n, err := unix.Poll(fds, int(wait.Milliseconds()))
			if err == unix.EINTR {
				continue
			}
			ready = err == nil && n > 0
			return
		}
	})
	if !ready {
		return false
	}
	head := append([]byte(nil), in.buf...) // the read reuses raw
	n, _ := in.f.Read(in.raw[:])
	in.buf = append(head, in.raw[:n]...)
	return n > 0
}

// viFilter is the editor's filter in vi mode: done when it has dealt with
// r (to hand readline out, or drop when !process); otherwise the filter
// goes on with out.
func (e *lineEditor) viFilter(r rune) (out rune, process, done bool) {
	v := &e.vi
	if r == viEscRune {
		v.pending = v.pending[:0]
		if v.command {
			return r, false, true
		}
		e.viAct = &viCmd{key: viEscRune}
		return readline.MetaShiftTab, true, true
	}
	if !v.command {
		v.typedKey(r)
		return r, true, false
	}
	switch {
	case r == 0x08: // C-h, as bash binds it there; DEL is not bound
		r = 'h'
	case r == 0x7f:
		v.pending = v.pending[:0]
		return r, false, true
	case r < ' ' || r >= keyRune || r == pasteRune:
		// Enter, Ctrl-C, arrows, Tab, bound keys: as in insert mode.
		v.pending = v.pending[:0]
		return r, true, false
	}
	c, ok := v.key(r)
	if !ok {
		return r, false, true
	}
	switch c.key {
	case 'k', '-':
		return readline.CharPrev, true, false
	case 'j', '+':
		return readline.CharNext, true, false
	case '/', '?':
		// readline's incremental search, typed in insert mode.
		v.command = false
		if c.key == '?' {
			return readline.CharFwdSearch, true, false
		}
		return readline.CharBckSearch, true, false
	}
	e.viAct = &c
	return readline.MetaShiftTab, true, true
}

// viRun does a vi command on the line, for listen.
func (e *lineEditor) viRun(c viCmd, line []rune, pos int) ([]rune, int, bool) {
	ed := &e.edit
	ed.line, ed.point = append([]rune(nil), line...), pos
	if c.key == viEscRune {
		e.vi.toCommand(ed)
	} else {
		switch e.vi.exec(c, ed) {
		case viAccept:
			e.in.answer("\r")
		case viEdit:
			e.editAndRun()
		}
	}
	e.n = len(ed.line)
	return ed.line, ed.point, true
}

// editAndRun is edit-and-execute-command (vi's v, emacs's C-x C-e): the
// line goes to $VISUAL or $EDITOR (else vi) in a file, and what the
// editor saves runs; nothing runs if the editor fails.
func (e *lineEditor) editAndRun() {
	f, err := os.CreateTemp(os.Getenv("TMPDIR"), "qsh-edit.*.sh")
	if err != nil {
		return
	}
	path := f.Name()
	defer os.Remove(path)
	_, err = f.WriteString(unraw(string(e.edit.line)) + "\n")
	if f.Close() != nil || err != nil {
		return
	}
	q := singleQuote(path)
	e.command(`${VISUAL:-${EDITOR:-vi}} ` + q + ` && READLINE_LINE=$(cat -- ` + q + `) || READLINE_LINE=`)
	if len(e.edit.line) > 0 {
		e.in.answer("\r")
	}
}
