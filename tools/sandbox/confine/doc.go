// Package confine is the start of a confined program: qsh, started with
// [Arg] by package sandbox, applies the Landlock ruleset it inherited to
// itself, then executes the program in its place. Everything the program
// starts inherits the confinement.
//
// It runs for every program the assistant runs, from the first package
// initialiser of qsh (cmd/qsh/early), before the rest of qsh initialises:
// it imports only the runtime and syscall, and costs two system calls and
// an exec.
package confine
