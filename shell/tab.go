package shell

import (
	"slices"

	"github.com/qsh-shell/qsh/completions"
)

// tabCompleter is the line editor's Tab: readline's completion, which
// only adds after the cursor, and the completions it cannot make that
// way — a name typed in another case (completion-ignore-case), a
// programmable completion's choice that replaces the word (fzf's **) —
// made by the line editor's listen right after (see [lineEditor.listen]).
type tabCompleter struct {
	rl completions.Readline
	// fix is the line, and cursor, the last Tab should leave, when
	// readline cannot.
	fix *fixedLine
}

type fixedLine struct {
	line []rune
	pos  int
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
		return completions.Suffixes(cands, typed)
	}
	start := pos - len([]rune(typed))
	w := []rune(word)
	fixed := slices.Concat(line[:start], w, line[pos:])
	t.fix = &fixedLine{line: fixed, pos: start + len(w)}
	return [][]rune{w}, 0
}
