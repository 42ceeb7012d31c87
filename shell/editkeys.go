package shell

import (
	"io"
	"slices"
	"unicode/utf8"

	"github.com/qsh-shell/qsh/shell/histexpand"

	"github.com/ergochat/readline"
	"golang.org/x/term"
)

// The line editor's side of key bindings (see keymap.go): the input
// finds bound sequences, the filter turns their runes into readline's
// keys or into an action, which listen does on the line.

// editorHooks are what bound keys need of the shell.
type editorHooks struct {
	keys *keymap
	// command runs a bind -x command with READLINE_LINE and
	// READLINE_POINT (in characters) set, and gives back what it left
	// in them.
	command func(cmd, line string, point int) (string, int)
	// expand is the line after the shell's expansions
	// (shell-expand-line).
	expand func(line string) (string, bool)
	// vi reports whether lines are edited in vi mode (set -o vi).
	vi func() bool
}

// matchKey replaces a bound key sequence at the start of buf with its
// rune, reading on while buf is the start of a longer one.
func (in *lineInput) matchKey() bool {
	for {
		r, n, ok, more := in.keys.match(in.buf, !in.vi)
		if ok {
			in.buf = in.buf[n:]
			in.out = utf8.AppendRune(in.out, r)
			return true
		}
		if !more {
			return false
		}
		head := append([]byte(nil), in.buf...) // the read reuses raw
		n, _ = in.f.Read(in.raw[:])
		in.buf = append(head, in.raw[:n]...)
		if n == 0 {
			return false
		}
	}
}

// bound is the filter for a bound key's rune: a readline function
// readline has becomes its key; anything else is left to listen.
func (e *lineEditor) bound(r rune) (rune, bool) {
	var b binding
	if r == macroRestRune {
		b = binding{macro: e.macroRest}
		e.macroRest = ""
	} else if k, ok := e.hooks.keys.get(r); ok {
		b = k
	} else {
		return r, false
	}
	if b.fn != "" {
		f, _ := findFunc(b.fn)
		if f.key != 0 {
			return e.filter(f.key)
		}
		if b.fn == "self-insert" {
			return e.filter(rune(b.seq[len(b.seq)-1]))
		}
		if b.fn == "character-search" {
			e.charSearch = true // the next key is what to find
			return r, false
		}
	}
	e.action = &b
	return readline.MetaShiftTab, true
}

// act does bound key b on the line, for listen.
func (e *lineEditor) act(b binding, line []rune, pos int) ([]rune, int, bool) {
	switch b.fn {
	case "history-search-backward", "history-search-forward",
		"history-substring-search-backward", "history-substring-search-forward":
		return e.historySearch(b.fn, line, pos)
	}
	ed := &e.edit
	ed.line, ed.point = append([]rune(nil), line...), pos
	ed.mark = min(ed.mark, len(line))
	accepted := false
	switch {
	case b.cmd != "":
		e.command(b.cmd)
	case b.macro != "":
		accepted = e.macro(b.macro, 0)
	case b.fn == "shell-expand-line":
		e.expandLine()
	case b.fn == "edit-and-execute-command":
		e.editAndRun()
	case b.fn == "character-search":
		if i := slices.Index(ed.line[min(ed.point+1, len(ed.line)):], []rune(b.seq)[0]); i >= 0 {
			ed.point += 1 + i
		}
	case b.fn == "yank-last-arg" || b.fn == "yank-nth-arg":
		e.yankArg(b.fn == "yank-nth-arg")
	case b.fn == "operate-and-get-next":
		// The line runs, and the next starts with the entry after it,
		// when it came from the history.
		e.getNext = -1
		if e.searched {
			e.hist.found(unraw(string(line)))
			e.searched = false
		}
		if at := e.hist.at; at < len(e.hist.entries) && unraw(string(line)) == e.hist.entries[at] {
			e.getNext = at + 1
		}
		accepted = true
	case !ed.run(b.fn, b.seq[len(b.seq)-1]):
		return nil, 0, false
	}
	if accepted {
		// The line runs; the macro's rest waits for the next one.
		e.in.answer("\r")
	}
	e.n = len(ed.line)
	return ed.line, ed.point, true
}

// macro types keys on e.edit's line, each sequence doing what it is bound
// to; it stops at accept-line, keeping the rest for the next line, and
// reports whether it got there.
func (e *lineEditor) macro(keys string, depth int) bool {
	ed := &e.edit
	for i := 0; i < len(keys); {
		var b binding
		n := 0
		for m := min(len(keys)-i, 8); m > 0; m-- {
			if k, ok := e.hooks.keys.lookup(keys[i : i+m]); ok {
				b, n = k, m
				break
			}
		}
		if n == 0 {
			r, size := utf8.DecodeRuneInString(keys[i:])
			i += size
			if r >= ' ' && r != 0x7f {
				ed.insert(string(r))
				ed.lastKill, ed.yanked = false, len(ed.ring)
			}
			continue
		}
		i += n
		switch {
		case b.fn == "accept-line":
			e.macroRest = keys[i:]
			return true
		case b.cmd != "":
			e.command(b.cmd)
		case b.macro != "":
			if depth < 8 && e.macro(b.macro, depth+1) {
				return true
			}
		case b.fn == "shell-expand-line":
			e.expandLine()
		case b.fn == "self-insert":
			ed.insert(string(rune(b.seq[len(b.seq)-1])))
		default:
			if !ed.run(b.fn, b.seq[len(b.seq)-1]) {
				return false // a function only readline does: the macro stops
			}
		}
	}
	return false
}

// command runs a bind -x command on e.edit's line, with the terminal as
// the shell leaves it to programs.
func (e *lineEditor) command(cmd string) {
	if e.hooks.command == nil {
		return
	}
	ed := &e.edit
	e.outside(func() {
		line, point := e.hooks.command(cmd, unraw(string(ed.line)), ed.point)
		ed.line = toRunes(line)
		ed.point = max(0, min(point, len(ed.line)))
	})
}

// expandLine is shell-expand-line on e.edit's line.
func (e *lineEditor) expandLine() {
	if e.hooks.expand == nil {
		return
	}
	ed := &e.edit
	e.outside(func() {
		if line, ok := e.hooks.expand(unraw(string(ed.line))); ok {
			ed.line = toRunes(line)
			ed.point = len(ed.line)
		}
	})
}

// outside runs f, which runs shell code, while readline waits in the
// middle of a line: the line is taken off the screen and drawn again
// after, as bash does for bind -x, and f gets the terminal as programs
// get it (not raw, no paste marks), so that fzf, say, can take it.
func (e *lineEditor) outside(f func()) {
	if e.rl == nil { // no terminal: tests
		f()
		return
	}
	fd := int(e.tty.Fd())
	raw, err := term.GetState(fd)
	e.aside = func() {
		if e.cooked != nil {
			term.Restore(fd, e.cooked)
		}
		paste := e.in.bracketed
		if e.out != nil && paste {
			io.WriteString(e.out, pasteOff)
		}
		e.in.bracketed, e.in.keys = false, nil
		f()
		e.in.keys = e.hooks.keys
		if e.out != nil && paste {
			io.WriteString(e.out, pasteOn)
			e.in.bracketed = true
		}
		if err == nil {
			term.Restore(fd, raw)
		}
	}
	e.rl.Write(nil) // readline clears the line, calls aside (see answering), draws it again
	e.aside = nil
}

// historySearch is history-search-backward and -forward (and their
// substring forms): the next entry that starts with the line up to the
// point, as it was when the searches began.
func (e *lineEditor) historySearch(fn string, line []rune, pos int) ([]rune, int, bool) {
	if string(line) != e.searchLine || e.searchPrefix == nil {
		p := string(line[:pos])
		e.searchPrefix = &p
	}
	dir := -1
	if fn == "history-search-forward" || fn == "history-substring-search-forward" {
		dir = 1
	}
	substring := fn == "history-substring-search-backward" || fn == "history-substring-search-forward"
	i, ok := historySearch(e.hist.entries, e.hist.at, *e.searchPrefix, dir, substring)
	if !ok && dir > 0 && e.hist.at < len(e.hist.entries) {
		i, ok = len(e.hist.entries), true // past the newest: the line being edited
	}
	if !ok {
		return nil, 0, false
	}
	text := e.hist.goTo(unraw(string(line)), i)
	e.searchLine = text
	rs := toRunes(text)
	e.n = len(rs)
	return rs, len(rs), true
}

// yankArg is yank-last-arg (M-. M-_) and yank-nth-arg (M-C-y): the last
// word of the previous history entry, or its first argument, inserted at
// point; yank-last-arg again, right after, replaces it with the last word
// of the entry before, as readline does.
func (e *lineEditor) yankArg(nth bool) {
	ed := &e.edit
	y := &e.yankedArg
	again := !nth && y.back > 0 && string(ed.line) == y.line && ed.point == y.to
	back := 1
	if again {
		back = y.back + 1
		ed.line = append(ed.line[:y.from], ed.line[y.to:]...)
		ed.point = y.from
	}
	entries := e.hist.entries
	if back > len(entries) {
		if again {
			back = y.back // none older: the last stays
		} else {
			*y = yankedArg{}
			return
		}
	}
	entry := entries[len(entries)-back]
	word := histexpand.LastArg(entry)
	if nth {
		word = histexpand.NthArg(entry, 1)
	}
	from := ed.point
	ed.insert(word)
	*y = yankedArg{back: back, from: from, to: ed.point, line: string(ed.line)}
	if nth {
		y.back = 0
	}
}

// yankedArg is what the last yank-last-arg put on the line, for the next.
type yankedArg struct {
	back     int // the entry it came from, counted from the newest (1); 0: none
	from, to int
	line     string
}
