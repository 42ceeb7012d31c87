package shell

import (
	"slices"
	"strings"
	"unicode"

	"github.com/qsh-shell/qsh/shell/completions"
)

// tabCompleter is the line editor's completion, as readline's complete,
// menu-complete and possible-completions do it: qsh does it whole, not
// readline v0.1.3, so that the readline variables people set in
// ~/.inputrc apply (see [lineEditor.completion] for the listing).
type tabCompleter struct {
	rl completions.Readline
	// rlVar is the value of a readline variable, bind's or its default.
	rlVar func(name string) string
	// menu is where menu-complete is in its cycle, while its keys
	// follow each other.
	menu *menuCycle
}

// on reports whether the readline variable name is on, as readline reads
// a boolean: on, 1 or nothing.
func (t *tabCompleter) on(name string) bool {
	if t.rlVar == nil {
		return false
	}
	v := t.rlVar(name)
	return strings.EqualFold(v, "on") || v == "1"
}

// number is the readline variable name as a number, def when it is none.
func (t *tabCompleter) number(name string, def int) int {
	if t.rlVar == nil {
		return def
	}
	v := strings.TrimSpace(t.rlVar(name))
	n, neg := 0, strings.HasPrefix(v, "-")
	v = strings.TrimPrefix(v, "-")
	if v == "" {
		return def
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n
}

// tabResult is what a completion key does: the line and cursor after it,
// the matches to list, and whether to ring the bell.
type tabResult struct {
	line []rune
	pos  int
	list []completions.Match
	bell bool
}

// complete is readline's complete (Tab): one match replaces the word;
// several put their common prefix in and ring the bell, or list
// themselves with show-all-if-ambiguous; again (the key before was this
// one) lists them when there is nothing more to put in.
func (t *tabCompleter) complete(line []rune, pos int, again bool) tabResult {
	pos = max(0, min(pos, len(line)))
	ms, typed := t.rl.Candidates(line, pos)
	switch len(ms) {
	case 0:
		return tabResult{line: line, pos: pos, bell: true}
	case 1:
		l, p := t.insert(line, pos, typed, ms[0].Text)
		return tabResult{line: l, pos: p}
	}
	common := t.commonText(ms, typed)
	l, p := line, pos
	if common != typed {
		l, p = t.insert(line, pos, typed, common)
	}
	changed := !slices.Equal(l, line)
	switch {
	case t.on("show-all-if-ambiguous"), again && !changed:
		return tabResult{line: l, pos: p, list: ms}
	case t.on("show-all-if-unmodified") && !changed:
		return tabResult{line: l, pos: p, list: ms}
	}
	return tabResult{line: l, pos: p, bell: true}
}

// possible is readline's possible-completions (M-?): the list alone.
func (t *tabCompleter) possible(line []rune, pos int) tabResult {
	pos = max(0, min(pos, len(line)))
	ms, _ := t.rl.Candidates(line, pos)
	if len(ms) == 0 {
		return tabResult{line: line, pos: pos, bell: true}
	}
	return tabResult{line: line, pos: pos, list: ms}
}

// menuCycle is menu-complete's state: the line before it, the matches
// and the one on the line (-1: the text typed, or the common prefix).
type menuCycle struct {
	line    []rune // as it was before the first key
	pos     int
	typed   string
	matches []completions.Match
	at      int
	// after is the line and cursor the last key left, to know that the
	// next one goes on with the cycle.
	after    []rune
	afterPos int
}

// menuComplete is readline's menu-complete (dir 1) and
// menu-complete-backward (dir -1): the first key puts the first match (or
// the last) in place of the word, each next one the next, and after the
// last the text typed comes back, with the bell. again says the key before
// was one of them.
func (t *tabCompleter) menuComplete(line []rune, pos int, dir int, again bool) tabResult {
	pos = max(0, min(pos, len(line)))
	m := t.menu
	if !again || m == nil || !slices.Equal(line, m.after) || pos != m.afterPos {
		ms, typed := t.rl.Candidates(line, pos)
		if len(ms) == 0 {
			t.menu = nil
			return tabResult{line: line, pos: pos, bell: true}
		}
		if len(ms) == 1 {
			t.menu = nil
			l, p := t.insert(line, pos, typed, ms[0].Text)
			return tabResult{line: l, pos: p}
		}
		m = &menuCycle{line: slices.Clone(line), pos: pos, typed: typed, matches: ms, at: -1}
		t.menu = m
		first := 0
		if dir < 0 {
			first = len(ms) - 1
		}
		var r tabResult
		if t.on("menu-complete-display-prefix") {
			// The common prefix first, then the matches.
			common := t.commonText(ms, typed)
			r.line, r.pos = t.insert(m.line, m.pos, typed, strings.TrimSuffix(common, " "))
		} else {
			m.at = first
			r.line, r.pos = t.insert(m.line, m.pos, typed, ms[first].Text)
		}
		if t.on("show-all-if-ambiguous") {
			r.list = ms
		}
		m.after, m.afterPos = r.line, r.pos
		return r
	}
	// -1 stands for the text typed, between the last match and the first.
	n := len(m.matches) + 1
	m.at = (m.at+1+dir+n)%n - 1
	var r tabResult
	if m.at < 0 {
		r.line, r.pos, r.bell = m.line, m.pos, true
	} else {
		r.line, r.pos = t.insert(m.line, m.pos, m.typed, m.matches[m.at].Text)
	}
	m.after, m.afterPos = r.line, r.pos
	return r
}

// insert puts text in place of typed, the end of line[:pos]; with
// skip-completed-text, the characters of text the line already has after
// the cursor are gone over, not put in again, as readline does.
func (t *tabCompleter) insert(line []rune, pos int, typed, text string) ([]rune, int) {
	start := max(0, pos-len([]rune(typed)))
	r := []rune(text)
	if t.on("skip-completed-text") {
		i := start
		for i < len(line) && len(r) > 0 && line[i] == r[0] {
			i++
			r = r[1:]
		}
		if i > pos {
			return slices.Concat(line[:i], r, line[i:]), i + len(r)
		}
		start = i
	}
	return slices.Concat(line[:start], r, line[pos:]), start + len(r)
}

// commonText is what the matches' replacements share, as readline puts it
// in: ignoring case (and - against _ with completion-map-case) when
// completion-ignore-case is on, where the text typed stays when it is as
// long.
func (t *tabCompleter) commonText(ms []completions.Match, typed string) string {
	fold := t.on("completion-ignore-case")
	mapCase := fold && t.on("completion-map-case")
	same := func(a, b rune) bool {
		if a == b {
			return true
		}
		if !fold {
			return false
		}
		if mapCase && (a == '-' || a == '_') && (b == '-' || b == '_') {
			return true
		}
		return unicode.ToLower(a) == unicode.ToLower(b)
	}
	p := []rune(ms[0].Text)
	for _, m := range ms[1:] {
		r := []rune(m.Text)
		n := 0
		for n < len(p) && n < len(r) && same(p[n], r[n]) {
			n++
		}
		p = p[:n]
	}
	if fold && len(p) == len([]rune(typed)) {
		return typed
	}
	return string(p)
}
