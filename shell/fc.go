package shell

import (
	"fmt"
	"strconv"
	"strings"
)

// fcBuiltin is `fc -l` (and -n, -r): the history listing fzf's Ctrl-R
// reads (`fc -lnr -2147483648`). Editing and re-running entries is not
// done: qsh has Up and Ctrl-R for that, and says so.
func (s *Shell) fcBuiltin(b builtinIO, args []string) int {
	list, numbers, reverse := false, true, false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && !isDigits(args[0][1:]) {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 'l':
				list = true
			case 'n':
				numbers = false
			case 'r':
				reverse = true
			case 'e', 's':
				return b.fail(2, "-%c: not supported; use history, Up and Ctrl-R", c)
			default:
				return b.fail(2, "-%c: invalid option\nfc: usage: fc [-e ename] [-lnr] [first] [last] or fc -s [pat=rep] [command]", c)
			}
		}
	}
	if !list {
		return b.fail(2, "editing history entries is not supported; use fc -l, Up and Ctrl-R")
	}
	s.joinHistory(true)
	entries := s.hist.entries
	// The line running is the last entry, and fc does not list itself;
	// a key's command (bind -x) runs before its line is an entry, and a
	// non-interactive shell records no lines.
	last := len(entries)
	if s.interactive && !s.inKeyCommand && last > 0 {
		last--
	}
	entries = entries[:last]
	if len(entries) == 0 {
		return 0
	}
	first, end := len(entries)-16, len(entries)
	if len(args) > 0 {
		i, ok := fcEntry(entries, args[0])
		if !ok {
			return b.fail(1, "history specification out of range")
		}
		first, end = i, len(entries)
	}
	if len(args) > 1 {
		i, ok := fcEntry(entries, args[1])
		if !ok {
			return b.fail(1, "history specification out of range")
		}
		end = i + 1
	}
	first = max(0, min(first, len(entries)-1))
	end = max(0, min(end, len(entries)))
	if first >= end { // fc -l 5 2 lists 2…5, newest first
		first, end = max(0, end-1), first+1
		reverse = !reverse
	}
	for k := range end - first {
		i := first + k
		if reverse {
			i = end - 1 - k
		}
		if numbers {
			fmt.Fprintf(b.out, "%d\t %s\n", i+1, entries[i])
		} else {
			fmt.Fprintf(b.out, "\t %s\n", entries[i])
		}
	}
	return 0
}

// fcEntry is the index of the entry an fc argument names: a number
// (negative: back from the end, clamped to the first), or the newest
// entry that starts with the text.
func fcEntry(entries []string, arg string) (int, bool) {
	if n, err := strconv.Atoi(arg); err == nil {
		switch {
		case n < 0:
			return max(0, len(entries)+n), true
		case n == 0:
			return len(entries) - 1, true
		default:
			return min(n, len(entries)) - 1, true
		}
	}
	for i := len(entries) - 1; i >= 0; i-- {
		if strings.HasPrefix(entries[i], arg) {
			return i, true
		}
	}
	return 0, false
}
