package shell

// recall is Up and Down through the history, as the line editor offers
// it. It holds the shell's entries as they are, strings, where readline
// would keep three copies of each as runes (≈600 bytes an entry: 6 MB
// for 10,000), so readline gets the entries only while Ctrl-R searches.
//
// Like readline's own, a recalled line can be edited, and the edit is kept
// while the user moves on through the history, until the line is entered.
type recall struct {
	entries []string
	// Per line being read:
	at    int            // the entry shown; len(entries) is the new line
	edits map[int]string // lines edited, by position; the new line too
}

// add appends an entry; the new line, and its edit, stay after the last.
func (r *recall) add(e string) {
	n := len(r.entries)
	if s, ok := r.edits[n]; ok {
		delete(r.edits, n)
		r.edits[n+1] = s
	}
	if r.at == n {
		r.at++
	}
	r.entries = append(r.entries, e)
}

func (r *recall) clear() {
	r.entries = nil
	r.reset()
}

// reset starts a new line: the next Up shows the last entry.
func (r *recall) reset() {
	r.at = len(r.entries)
	clear(r.edits)
}

// move shows the entry dir steps away (-1 older, +1 newer) from the one
// shown, whose text is now line; ok is false at either end.
func (r *recall) move(line string, dir int) (string, bool) {
	next := r.at + dir
	if next < 0 || next > len(r.entries) || r.at > len(r.entries) {
		return "", false
	}
	return r.goTo(line, next), true
}

// goTo shows entry i (len(entries): the new line) instead of the one
// shown, whose text is now line, and returns its text, as edited.
func (r *recall) goTo(line string, i int) string {
	if r.edits == nil {
		r.edits = map[int]string{}
	}
	if r.at == len(r.entries) || line != r.entries[r.at] {
		r.edits[r.at] = line
	} else {
		delete(r.edits, r.at)
	}
	r.at = i
	if e, ok := r.edits[i]; ok {
		return e
	}
	if i == len(r.entries) {
		return ""
	}
	return r.entries[i]
}

// found shows the last entry equal to line, which a Ctrl-R search put on
// screen, so that Up goes on from there.
func (r *recall) found(line string) {
	for i := len(r.entries) - 1; i >= 0; i-- {
		if r.entries[i] == line {
			r.at = i
			return
		}
	}
}
