package completions

import "unicode/utf8"

// Readline adapts [Complete] to github.com/ergochat/readline's
// AutoCompleter interface without importing readline: assign it to
// Config.AutoComplete. Env is called on each Tab for the shell's current
// state.
type Readline struct {
	Env func() Env
}

// Do implements readline's AutoCompleter: it returns what each candidate
// adds after the cursor and how many runes before the cursor the candidates
// replace (they start with those runes).
func (r Readline) Do(line []rune, pos int) (newLine [][]rune, length int) {
	pos = max(0, min(pos, len(line)))
	before := string(line[:pos])
	var env Env
	if r.Env != nil {
		env = r.Env()
	}
	cands, replace := Complete(before+string(line[pos:]), len(before), env)
	typed := before[len(before)-replace:]
	for _, c := range cands {
		newLine = append(newLine, []rune(c[len(typed):]))
	}
	return newLine, utf8.RuneCountInString(typed)
}
