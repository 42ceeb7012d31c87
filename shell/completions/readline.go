package completions

import (
	"strings"
	"unicode/utf8"
)

// Readline adapts [Complete] to github.com/ergochat/readline's
// AutoCompleter interface without importing readline: assign it to
// Config.AutoComplete. Env is called on each Tab for the shell's current
// state.
type Readline struct {
	Env func() Env
	// Programmable, when set, is asked first: bash's programmable
	// completion, with candidates in Complete's shape; ok false leaves
	// the line to Complete.
	Programmable func(line string, cursor int) (cands []Match, replace int, ok bool)
}

// Candidates are the completions of the word before pos in line, each a
// full replacement for typed, the end of line[:pos] (see the package's
// contract; a programmable completion's need not start with typed).
func (r Readline) Candidates(line []rune, pos int) (cands []Match, typed string) {
	pos = max(0, min(pos, len(line)))
	before := string(line[:pos])
	whole := before + string(line[pos:])
	if r.Programmable != nil {
		if cands, replace, ok := r.Programmable(whole, len(before)); ok {
			return cands, before[len(before)-replace:]
		}
	}
	var env Env
	if r.Env != nil {
		env = r.Env()
	}
	cands, replace := Matches(whole, len(before), env)
	return cands, before[len(before)-replace:]
}

// Do implements readline's AutoCompleter: it returns what each candidate
// adds after the cursor and how many runes before the cursor the candidates
// replace (they start with those runes).
func (r Readline) Do(line []rune, pos int) (newLine [][]rune, length int) {
	cands, typed := r.Candidates(line, pos)
	return Suffixes(Texts(cands), typed)
}

// Suffixes are what the candidates add to typed, and typed's length in
// runes: readline's shape. A candidate that starts with typed only when
// case is ignored adds its rest; one that does not start with it at all
// cannot be said this way and is left out (see [Replacement]).
func Suffixes(cands []string, typed string) (newLine [][]rune, length int) {
	for _, c := range cands {
		if len(c) >= len(typed) && (strings.HasPrefix(c, typed) || strings.EqualFold(c[:len(typed)], typed)) {
			newLine = append(newLine, []rune(c[len(typed):]))
		}
	}
	return newLine, utf8.RuneCountInString(typed)
}

// Replacement is the text to put in place of typed when readline, which
// only adds after the cursor, cannot complete it: the one candidate when
// it differs from typed (a name in another case, a programmable
// completion's choice, as fzf's ** gives), else the candidates' common
// prefix when some do not start with typed even ignoring case.
func Replacement(cands []string, typed string) (string, bool) {
	if len(cands) == 1 {
		return cands[0], !strings.HasPrefix(cands[0], typed)
	}
	foreign := false
	for _, c := range cands {
		if len(c) < len(typed) || !strings.EqualFold(c[:len(typed)], typed) {
			foreign = true
		}
	}
	if !foreign || len(cands) == 0 {
		return "", false
	}
	lcp := cands[0]
	for _, c := range cands[1:] {
		n := 0
		for n < len(lcp) && n < len(c) && lcp[n] == c[n] {
			n++
		}
		lcp = lcp[:n]
	}
	// Whole characters only.
	for lcp != "" && !utf8.ValidString(lcp) {
		lcp = lcp[:len(lcp)-1]
	}
	return lcp, lcp != "" && lcp != typed
}
