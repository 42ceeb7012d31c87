// Package prompt renders the prompt string from plain data, touching no
// terminal and no interpreter.
package prompt
