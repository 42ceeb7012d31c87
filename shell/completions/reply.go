package completions

import (
	"path/filepath"
	"slices"
	"strings"
)

// Replies turns what a compspec generated for the line w describes into
// candidates in [Complete]'s shape: full replacements for the last replace
// bytes before the cursor (the text readline completes), as readline
// treats bash's matches. They are sorted and without duplicates unless
// opts has NoSort; with FileNames they are quoted (but for NoQuote) and a
// directory ends in "/"; another match ends in the open quote's closing
// quote and a space (none with NoSpace). dir and home resolve the matches
// that name files. A match need not begin with the typed text: as in
// bash, it then takes the text's place (see [Replacement]).
func Replies(matches []string, w Words, opts Options, dir, home string) (cands []Match, replace int) {
	typed := w.Line[w.Start:w.Point]
	if opts&NoSort == 0 {
		matches = slices.Clone(matches)
		slices.Sort(matches)
	}
	matches = slices.Compact(matches)
	for _, m := range matches {
		c := m
		files := opts&FileNames != 0
		if files && opts&NoQuote == 0 {
			c = quote(m, w.Quote, false, false)
		}
		match := Match{Name: m}
		if files {
			match.Name, match.Path = printable(m), filePath(m, dir, home)
		}
		switch {
		case files && isDir(match.Path):
			c += "/"
		default:
			if w.Quote != 0 {
				c += string(w.Quote)
			}
			if opts&NoSpace == 0 {
				c += " "
			}
		}
		match.Text = c
		cands = append(cands, match)
	}
	return cands, len(typed)
}

// printable is what readline lists of a file name: its last part, and the
// whole of a name that ends in /.
func printable(name string) string {
	i := strings.LastIndexByte(name, '/')
	if i < 0 || i == len(name)-1 {
		return name
	}
	return name[i+1:]
}

// filePath is the file a match names: ~/ is home, a relative name is in
// dir.
func filePath(m, dir, home string) string {
	switch {
	case m == "~" || strings.HasPrefix(m, "~/"):
		return filepath.Join(home, strings.TrimPrefix(m[1:], "/"))
	case filepath.IsAbs(m):
		return m
	}
	return filepath.Join(dir, m)
}

// Unquote removes the quotes and backslashes of text typed at the cursor,
// as bash does before matching it against file names: what compgen's
// actions complete.
func Unquote(text string) string {
	var b strings.Builder
	var q byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case q == 0 && (c == '\'' || c == '"'):
			q = c
		case c == q:
			q = 0
		case c == '\\' && q != '\'' && i+1 < len(text):
			i++
			if q == '"' && !strings.ContainsRune("\"\\$`", rune(text[i])) {
				b.WriteByte('\\')
			}
			b.WriteByte(text[i])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
