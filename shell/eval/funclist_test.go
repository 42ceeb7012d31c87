package eval

import "testing"

// TestFuncDefInList: a function definition is the first command of an
// && or || list, as bash's grammar has it, though mvdan/sh's parser takes
// the list for the body (bash-completion's `_completion_loader() {…} &&
// complete -D -F _completion_loader`).
func TestFuncDefInList(t *testing.T) {
	for _, code := range []string{
		`f() { echo in-f; } && echo yes; f`,
		`g() { :; } || echo no; g; echo st=$?`,
		`h() { echo h; } && i() { echo i; } && echo both; h; i`,
		`j() ( echo sub ) && j`,
		`k() { echo k; } >/dev/null && k; echo after`,
		`! l() { :; } && echo not-reached || echo negated`,
	} {
		dir := t.TempDir()
		wo, we, ws := runBash(t, code, dir)
		go_, ge, gs := runInProcess(t, code, dir)
		if go_ != wo || ge != we || gs != ws {
			t.Errorf("%s\nbash: %q %q %d\nqsh:  %q %q %d", code, wo, we, ws, go_, ge, gs)
		}
	}
}
