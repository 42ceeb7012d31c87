package mcp

import (
	"fmt"
	"unicode/utf8"
)

// truncate keeps the head and the tail of s within max bytes, like command
// output: the start says what happened, the end how it finished.
func truncate(s string, max int) (string, bool) {
	if max <= 0 || len(s) <= max {
		return s, false
	}
	note := fmt.Sprintf("\n… [%d bytes omitted] …\n", len(s)-max)
	keep := max - len(note)
	if keep < 2 {
		keep = 2
	}
	head := s[:keep/2]
	tail := s[len(s)-(keep-keep/2):]
	// Do not cut a character in two.
	for i := 0; i < utf8.UTFMax-1 && len(head) > 0; i++ {
		if r, size := utf8.DecodeLastRuneInString(head); r != utf8.RuneError || size > 1 {
			break
		}
		head = head[:len(head)-1]
	}
	for i := 0; i < utf8.UTFMax-1 && len(tail) > 0 && !utf8.RuneStart(tail[0]); i++ {
		tail = tail[1:]
	}
	return head + note + tail, true
}
