// Package shell is qsh's front end on its evaluator (package eval): the
// interactive shell — the line editor, history, key bindings, programmable
// completion, the prompt and bash's hooks, job control on the terminal,
// rc files, signals — and the dispatch of `?` lines to an [AskFunc].
//
// [New] makes a session; [Shell.REPL] runs the interactive loop after
// [Shell.Login] and [Shell.RC] have read the start-up files;
// [Shell.RunString] runs a `-c` string with `?` lines. [Program] runs
// every other non-interactive qsh. [Shell.Run] runs a command in a
// subshell of the session for the assistant's tools. Package
// [github.com/qsh-shell/qsh/shell/shelltest] drives the built binary
// through a pseudo-terminal for end-to-end tests.
package shell
