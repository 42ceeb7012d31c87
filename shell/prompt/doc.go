// Package prompt renders the prompt string from plain data, touching no
// terminal and no interpreter.
//
// [Render] draws qsh's default prompt and [GitBranch] reads the current
// branch straight from the repository's HEAD file. A user's PS1 is expanded
// as bash does: [Decode] is the first half (bash's backslash escapes, their
// text quoted), the shell does the second ($VAR, $(…)), [Visible] keeps what
// the line editor can draw and [Titles] what it cannot (a terminal title).
//
// Colour escapes are plain SGR sequences (ESC [ … m) with no \001/\002
// markers: github.com/ergochat/readline v0.1.3 measures the prompt's width
// after stripping exactly those sequences (runes.ColorFilter), so SGR costs
// no columns, while any other non-printing text would be counted as printed.
package prompt
