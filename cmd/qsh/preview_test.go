package main

import (
	"context"
	"maps"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/shell"
)

// environ is a session's variables as package shell snapshots them.
type environ map[string]expand.Variable

func (e environ) Get(name string) expand.Variable { return e[name] }

func (e environ) Each(f func(name string, vr expand.Variable) bool) {
	for name, vr := range maps.All(e) {
		if !f(name, vr) {
			return
		}
	}
}

// TestPreview checks the confirmation line's preview from what the shell
// hands over: the session's variables (strings, arrays, references),
// aliases and functions, words expanded by the evaluator's dry copy.
func TestPreview(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"build/a.o": "aaaa", "dist/x.js": "xx", "dir0/f": "0", "dir2/f": "22"})
	str := func(s string) expand.Variable { return expand.Variable{Set: true, Kind: expand.String, Str: s} }
	q := shell.Question{
		Dir: dir,
		Vars: environ{
			"B":    str("build"),
			"DIRS": {Set: true, Kind: expand.Indexed, List: []string{"build", "dist"}},
			"REF":  {Set: true, Kind: expand.NameRef, Str: "B"},
			"GONE": {Kind: expand.String},
		},
		Aliases:   map[string]string{"cleanb": "rm -r build"},
		Functions: map[string]*syntax.Stmt{"deploy": {}},
	}
	for _, tc := range []struct{ cmd, want string }{
		{"rm -r $B", "deletes 1 file, 4 B in build/"},
		{`rm -r "${DIRS[@]}"`, "deletes 2 files, 6 B in build/, dist/"},
		{"rm -r $REF", "deletes 1 file, 4 B in build/"},
		{"rm -r dist$GONE", "deletes 1 file, 2 B in dist/"},
		{"X=$(echo dist); rm -r $X", ""},
		{"cleanb", "runs your alias cleanb (rm -r build); deletes 1 file, 4 B in build/"},
		{"deploy prod", "runs your function deploy"},
		{"(B=dist); rm -r $B", "deletes 1 file, 4 B in build/"},
		// Arithmetic the evaluator reads from its own source text is not
		// guessed at (it would take dir$((1+1)) for dir0).
		{"rm -r dir$((1+1))", ""},
		{"n=1; ((n++)); rm -r dir$n", ""},
		{"n=2; rm -r dir$((n))", "deletes 1 file, 2 B in dir2/"},
	} {
		if got := preview(context.Background(), tc.cmd, q); got != tc.want {
			t.Errorf("%s\n got %q\nwant %q", tc.cmd, got, tc.want)
		}
	}
}
