package shell

import (
	"slices"

	"github.com/qsh-shell/qsh/shell/completions"
)

// tabCompleter is the line editor's Tab: readline's completion, which
// only adds after the cursor, and the completions it cannot make that
// way — a name typed in another case (completion-ignore-case), a
// programmable completion's choice that replaces the word (fzf's **) —
// made by the line editor's listen right after (see [lineEditor.listen]).
type tabCompleter struct {
	rl completions.Readline
	// showAll reports whether readline's show-all-if-ambiguous is on:
	// the candidates are listed at the first Tab, after their common
	// prefix goes in.
	showAll func() bool
	// fix is the line, and cursor, the last Tab should leave, when
	// readline cannot.
	fix *fixedLine
}

type fixedLine struct {
	// after is the line readline holds once it has inserted what Do
	// gave it: the fix is for that line only.
	after []rune
	line  []rune
	pos   int
	// list is set when a second Tab is to follow, which lists the
	// candidates (show-all-if-ambiguous).
	list bool
}

// Do implements readline's AutoCompleter. For a replacement it gives
// readline one candidate, the replacing text, so that readline inserts it
// without a bell and calls listen, which then sets the line as it should
// be.
func (t *tabCompleter) Do(line []rune, pos int) ([][]rune, int) {
	t.fix = nil
	pos = max(0, min(pos, len(line)))
	cands, typed := t.rl.Candidates(line, pos)
	word, ok := completions.Replacement(cands, typed)
	if !ok {
		suffixes, n := completions.Suffixes(cands, typed)
		if len(suffixes) > 1 && t.showAll != nil && t.showAll() {
			// readline would put the common prefix in and wait for a
			// second Tab to list them: the listener types it.
			if common := commonPrefix(suffixes); len(common) > 0 {
				fixed := slices.Concat(line[:pos], common, line[pos:])
				t.fix = &fixedLine{after: fixed, line: fixed, pos: pos + len(common), list: true}
				return [][]rune{common}, n
			}
		}
		return suffixes, n
	}
	start := pos - len([]rune(typed))
	w := []rune(word)
	fixed := slices.Concat(line[:start], w, line[pos:])
	t.fix = &fixedLine{after: slices.Concat(line[:pos], w, line[pos:]), line: fixed, pos: start + len(w)}
	return [][]rune{w}, 0
}

// commonPrefix is what all of runes start with.
func commonPrefix(runes [][]rune) []rune {
	p := runes[0]
	for _, r := range runes[1:] {
		n := 0
		for n < len(p) && n < len(r) && p[n] == r[n] {
			n++
		}
		p = p[:n]
	}
	return p
}
