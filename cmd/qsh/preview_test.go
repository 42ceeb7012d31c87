package main

import (
	"context"
	"testing"

	"github.com/qsh-shell/qsh/shell"
	"github.com/qsh-shell/qsh/shell/eval"
)

// TestPreview checks the confirmation line's preview from what the shell
// hands over: a dry copy of the session (strings, arrays, references,
// functions) and its aliases, words expanded by the evaluator.
func TestPreview(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"build/a.o": "aaaa", "dist/x.js": "xx", "dir0/f": "0", "dir2/f": "22"})
	r, err := eval.New(eval.Dir(dir), eval.Env(nil))
	if err != nil {
		t.Fatal(err)
	}
	r.RunString(context.Background(), "B=build; DIRS=(build dist); declare -n REF=B; declare GONE; deploy() { :; }", "setup")
	q := shell.Question{
		Dir:     dir,
		Dry:     r.Dry,
		Aliases: map[string]string{"cleanb": "rm -r build"},
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
