// Package keys reads single key presses from a terminal in raw mode. It is
// shared by the shell and the assistant, which both ask the user for one key
// and must not import each other.
package keys
