package shell

import (
	"fmt"

	"github.com/qsh-shell/qsh/shell/histexpand"
)

// expandHistory is bash's history expansion of a line read at the prompt
// (set -H, on in an interactive shell): `sudo !!`, `!$`, `^old^new`. It
// returns the line to run and whether to run it. An expanded line is
// shown first, as bash shows it; with the :p modifier it is shown and
// kept in the history, not run; with shopt histverify it is put back on
// the prompt to edit. An error is said in one line and the line dropped
// (with histreedit, put back on the prompt as typed).
func (s *Shell) expandHistory(line string) (string, bool) {
	if !s.interactive || !s.optNow("histexpand") {
		return line, true
	}
	s.joinHistory(true)
	chars, ok := s.r.Get("histchars")
	if !ok {
		chars = "!^#"
	}
	out, printOnly, err := histexpand.Expand(line, s.hist.entries, histexpand.Options{
		Chars:   chars,
		Extglob: s.optNow("extglob"),
		State:   &s.histState,
	})
	switch {
	case err != nil:
		fmt.Fprintf(s.stderr, "qsh: %v\n", err)
		if s.optNow("histreedit") && s.lines != nil {
			s.handed = line
		}
		return "", false
	case out == line:
		return line, true
	case printOnly:
		fmt.Fprintln(s.stdout, out)
		s.remember(out)
		return "", false
	case s.optNow("histverify") && s.lines != nil:
		s.handed = out
		return "", false
	}
	fmt.Fprintln(s.stderr, out)
	return out, true
}
