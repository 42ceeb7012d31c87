// Package shell is qsh's interactive and non-interactive front end: the line
// reader, one [mvdan.cc/sh/v3/interp.Runner] for the session, history, rc
// files, signals and the dispatch of `?` lines to an [AskFunc].
package shell
