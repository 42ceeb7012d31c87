// Package histexpand is bash's history expansion (`!!`, `!$`, `!-2`,
// `!git`, `^old^new^`, word designators and modifiers, as bash's manual
// describes under HISTORY EXPANSION) and the words readline's yank-last-arg
// and yank-nth-arg take from a history line.
//
// [Expand] works on text alone: the interactive shell calls it on each line
// read, before parsing, with its history and $histchars, and prints, runs
// or re-edits what comes back. It follows bash 5.2 to the quirks, and its
// differential test checks thousands of lines against bash itself.
package histexpand
