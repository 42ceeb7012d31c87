// Package conversation saves the assistant's conversations as JSON Lines
// files, one a conversation, so that one can be continued in another
// session ([Read]) or written out as Markdown ([Markdown]).
//
// A file starts with a [Header] line; each message follows on a line of its
// own, appended with a single write as it comes, so that a crash loses at
// most the message being written — a last line cut short is dropped when
// the file is read. Any other line that does not parse makes the file
// damaged: [Read] says so, and the callers skip it.
package conversation
