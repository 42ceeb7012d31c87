// Package histexpand is bash's history expansion (`!!`, `!$`, `!-2`,
// `!git`, `^old^new^`, word designators and modifiers, as bash's manual
// describes under HISTORY EXPANSION) and the words readline's yank-last-arg
// and yank-nth-arg take from a history line ([LastArg], [NthArg]).
//
// [Expand] works on text alone, as bash does before it parses a line: the
// interactive shell calls it on each line it reads (each line of a command
// that spans several, with [Options.Quote] set to the quote left open and
// the history without the command's own first line, as bash counts), then
// prints the result if it changed, runs it, or puts it back in the editor
// (histverify, and the original line on an error with histreedit). The
// same call serves `history -p` and magic-space.
//
// It follows bash 5.2 to the quirks; its differential test checks thousands
// of lines against bash itself.
package histexpand
