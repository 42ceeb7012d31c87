package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Question reports whether line is for the assistant: its first non-blank
// character is `?`. It returns the question text with the `?` and the
// surrounding blanks removed. `\?x` and `./?x` are commands, not questions.
func question(line string) (text string, ok bool) {
	t := strings.TrimLeft(line, " \t")
	if !strings.HasPrefix(t, "?") {
		return "", false
	}
	return strings.TrimSpace(t[1:]), true
}

// incomplete reports whether src needs more lines before it can run: an
// unclosed quote, a compound command without its end, a trailing pipe or
// `&&`, a trailing backslash, an unfinished here-document.
func incomplete(src string) bool {
	f, err := syntax.NewParser(syntax.KeepComments(true)).Parse(strings.NewReader(src), "")
	if err != nil {
		return syntax.IsIncomplete(err)
	}
	// The parser takes a backslash-newline at the very end as a line
	// continuation into nothing; a shell reads the next line instead, unless
	// the backslash is part of a comment.
	body := strings.TrimSuffix(src, "\n")
	n := len(body) - len(strings.TrimRight(body, "\\"))
	if n%2 == 0 {
		return false
	}
	inComment := false
	syntax.Walk(f, func(node syntax.Node) bool {
		if c, ok := node.(*syntax.Comment); ok && int(c.End().Offset()) >= len(body) {
			inComment = true
		}
		return true
	})
	return !inComment
}

// hasQuestion reports whether any line of src is a question line, which
// makes a `-c` string run line by line instead of as one program.
func hasQuestion(src string) bool {
	for line := range strings.SplitSeq(src, "\n") {
		if _, ok := question(line); ok {
			return true
		}
	}
	return false
}
