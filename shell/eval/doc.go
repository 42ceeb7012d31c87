// Package eval is qsh's bash evaluator: it runs the syntax trees that
// [syntax.Parser] builds, with bash's semantics as bash's manual and bash
// itself define them — expansion, variables and their scopes, arithmetic,
// commands, redirections, subshells, traps, job control and the builtins.
//
// A [Runner] holds one shell's state. Subshells are copies of it that share
// nothing they could change, so that what a subshell does never leaks out,
// as with bash's fork. What the interactive shell adds (the line editor,
// history, key bindings, the assistant) lives outside, in package shell,
// and reaches in through [Option]s and [Builtin]s.
package eval
