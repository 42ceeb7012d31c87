// Package completions turns a line and a cursor position into completion
// candidates: commands, paths, variables and git words. It touches no
// terminal and no interpreter: the caller hands it plain data in an [Env].
//
// # Contract
//
// [Complete](line, cursor, env) looks only at line[:cursor] (cursor is a byte
// offset; it is clamped into range). It returns candidates and replace, a
// byte count: each candidate is the full text that should stand in place of
// the last replace bytes before the cursor, and every candidate starts with
// exactly those bytes, so a candidate only ever appends to what was typed.
// That is the shape github.com/ergochat/readline v0.1.3 needs: its
// AutoCompleter.Do returns suffixes to insert at the cursor and the number of
// runes (not bytes) they share with the line, which it uses to list the
// candidates in full. [Readline] does that conversion; the caller only builds
// it:
//
//	rl.Config.AutoComplete = completions.Readline{Env: func() completions.Env { … }}
//
// readline then inserts a single candidate at once, inserts the common prefix
// of several on the first Tab, and lists them on the next.
//
// A finished word ends in a space (and a closing quote when one was open); a
// directory ends in "/" so Tab can go on into it (see [Env] for readline's
// variables that change that). Names are quoted with backslashes, or for
// the open quote the cursor is in.
//
// qsh's own Tab asks [Readline.Candidates] instead, which gives each
// candidate as a [Match]: with the name a listing shows and the file it
// names, so that [List] can lay the listing out as readline does, with
// the type characters and colours its variables ask for.
package completions
