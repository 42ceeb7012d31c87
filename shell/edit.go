package shell

import (
	"strings"
	"unicode"
)

// editLine is the readline functions qsh does itself, on a line and its
// point: those readline v0.1.3 lacks (history-search-backward, set-mark,
// yank-pop, shell-expand-line…) and, for macros, every function a macro's
// keys run, which readline cannot be handed one by one. fzf's Alt-C, for
// one, is a macro that kills the line, types a command substitution,
// expands it, accepts the line, and yanks the old text back on the next.
type editLine struct {
	line  []rune
	point int
	mark  int
	ring  []string // killed text, newest last
	// yank is the span of the last yank, for yank-pop; yanked the ring
	// entry it came from (len(ring) when none).
	yankFrom, yankTo, yanked int
	lastKill                 bool // the last function killed: the next kill adds to it
}

// run does function fn (see [rlFuncs]) with key, the key that ran it
// (for self-insert); it reports false for one it cannot do here.
func (e *editLine) run(fn string, key byte) bool {
	kill := false
	yank := false
	switch fn {
	case "self-insert":
		e.insert(string(rune(key)))
	case "beginning-of-line":
		e.point = 0
	case "end-of-line":
		e.point = len(e.line)
	case "backward-char":
		e.point = max(0, e.point-1)
	case "forward-char":
		e.point = min(len(e.line), e.point+1)
	case "backward-word":
		e.point = e.wordStart()
	case "forward-word":
		e.point = e.wordEnd()
	case "kill-line":
		kill = true
		e.kill(e.point, len(e.line), false)
	case "unix-line-discard", "backward-kill-line":
		kill = true
		e.kill(0, e.point, true)
	case "unix-word-rubout":
		kill = true
		start := e.point
		for start > 0 && unicode.IsSpace(e.line[start-1]) {
			start--
		}
		for start > 0 && !unicode.IsSpace(e.line[start-1]) {
			start--
		}
		e.kill(start, e.point, true)
	case "backward-kill-word":
		kill = true
		e.kill(e.wordStart(), e.point, true)
	case "kill-word":
		kill = true
		e.kill(e.point, e.wordEnd(), false)
	case "delete-char":
		if e.point < len(e.line) {
			e.line = append(e.line[:e.point], e.line[e.point+1:]...)
		}
	case "backward-delete-char":
		if e.point > 0 {
			e.line = append(e.line[:e.point-1], e.line[e.point:]...)
			e.point--
		}
	case "transpose-chars":
		if e.point > 0 && len(e.line) > 1 {
			p := min(e.point, len(e.line)-1)
			e.line[p-1], e.line[p] = e.line[p], e.line[p-1]
			e.point = p + 1
		}
	case "yank":
		if len(e.ring) > 0 {
			yank = true
			e.yankFrom = e.point
			e.insert(e.ring[len(e.ring)-1])
			e.yankTo, e.yanked = e.point, len(e.ring)-1
		}
	case "yank-pop":
		if e.yanked < len(e.ring) && e.yankTo <= len(e.line) && len(e.ring) > 1 {
			yank = true
			e.yanked = (e.yanked + len(e.ring) - 1) % len(e.ring)
			e.line = append(e.line[:e.yankFrom], e.line[e.yankTo:]...)
			e.point = e.yankFrom
			e.insert(e.ring[e.yanked])
			e.yankTo = e.point
		}
	case "set-mark":
		e.mark = e.point
	case "exchange-point-and-mark":
		e.point, e.mark = min(e.mark, len(e.line)), e.point
	case "redraw-current-line", "emacs-editing-mode", "vi-editing-mode", "abort":
	default:
		return false
	}
	e.lastKill = kill
	if !yank {
		e.yanked = len(e.ring)
	}
	return true
}

func (e *editLine) insert(s string) {
	rs := []rune(s)
	out := make([]rune, 0, len(e.line)+len(rs))
	out = append(append(append(out, e.line[:e.point]...), rs...), e.line[e.point:]...)
	e.line = out
	e.point += len(rs)
}

// kill cuts line[from:to] into the ring; a kill right after another adds
// to its entry, before it when backward.
func (e *editLine) kill(from, to int, backward bool) {
	if from >= to {
		return
	}
	text := string(e.line[from:to])
	switch {
	case e.lastKill && len(e.ring) > 0 && backward:
		e.ring[len(e.ring)-1] = text + e.ring[len(e.ring)-1]
	case e.lastKill && len(e.ring) > 0:
		e.ring[len(e.ring)-1] += text
	default:
		e.ring = append(e.ring, text)
		if len(e.ring) > 10 {
			e.ring = e.ring[1:]
		}
	}
	e.line = append(e.line[:from], e.line[to:]...)
	e.point = from
	e.mark = min(e.mark, len(e.line))
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func (e *editLine) wordStart() int {
	p := e.point
	for p > 0 && !isWordRune(e.line[p-1]) {
		p--
	}
	for p > 0 && isWordRune(e.line[p-1]) {
		p--
	}
	return p
}

func (e *editLine) wordEnd() int {
	p := e.point
	for p < len(e.line) && !isWordRune(e.line[p]) {
		p++
	}
	for p < len(e.line) && isWordRune(e.line[p]) {
		p++
	}
	return p
}

// historySearch is history-search-backward (dir -1) and -forward (+1):
// the next entry from at, in dir, that starts with (or, substring, holds)
// prefix; at is where the search left off, len(entries) for the line
// being edited.
func historySearch(entries []string, at int, prefix string, dir int, substring bool) (int, bool) {
	for i := at + dir; i >= 0 && i < len(entries); i += dir {
		if substring && strings.Contains(entries[i], prefix) || !substring && strings.HasPrefix(entries[i], prefix) {
			return i, true
		}
	}
	return at, false
}
