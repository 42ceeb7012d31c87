package completions

import "unicode/utf8"

// Readline adapts [Complete] to github.com/ergochat/readline's
// AutoCompleter interface without importing readline: assign it to
// Config.AutoComplete. Env is called on each Tab for the shell's current
// state.
type Readline struct {
	Env func() Env
	// Programmable, when set, is asked first: bash's programmable
	// completion, with candidates in Complete's shape; ok false leaves
	// the line to Complete.
	Programmable func(line string, cursor int) (cands []string, replace int, ok bool)
}

// Do implements readline's AutoCompleter: it returns what each candidate
// adds after the cursor and how many runes before the cursor the candidates
// replace (they start with those runes).
func (r Readline) Do(line []rune, pos int) (newLine [][]rune, length int) {
	pos = max(0, min(pos, len(line)))
	before := string(line[:pos])
	whole := before + string(line[pos:])
	if r.Programmable != nil {
		if cands, replace, ok := r.Programmable(whole, len(before)); ok {
			return suffixes(cands, before[len(before)-replace:])
		}
	}
	var env Env
	if r.Env != nil {
		env = r.Env()
	}
	cands, replace := Complete(whole, len(before), env)
	return suffixes(cands, before[len(before)-replace:])
}

// suffixes are what the candidates add to typed, and typed's length in
// runes: readline's shape.
func suffixes(cands []string, typed string) (newLine [][]rune, length int) {
	for _, c := range cands {
		newLine = append(newLine, []rune(c[len(typed):]))
	}
	return newLine, utf8.RuneCountInString(typed)
}
