// Package shell is qsh's interactive and non-interactive front end: the line
// reader, one [mvdan.cc/sh/v3/interp.Runner] for the session, history, rc
// files, signals and the dispatch of `?` lines to an [AskFunc].
//
// [New] makes a session; [Shell.RunString] runs a `-c` string,
// [Shell.RunScript] a script, [Shell.REPL] the interactive loop, after
// [Shell.Login] and [Shell.RC] have read the start-up files. [Shell.Run]
// runs a command in a subshell of the session for the assistant's tools.
// Package [github.com/qsh-shell/qsh/shell/shelltest] drives the built
// binary through a pseudo-terminal for end-to-end tests.
package shell
