// Package completions turns a line and a cursor position into completion
// candidates: commands, paths, variables and git words.
package completions
