package completions

import (
	"path/filepath"
	"strings"
	"testing"
)

// FuzzComplete checks that no line and cursor make Complete panic, and that
// every candidate keeps the contract: it starts with the bytes it replaces.
func FuzzComplete(f *testing.F) {
	for _, s := range []string{"", "gi", "git checkout m", `cat "my f`, `echo ${HO`, "a | b && $(c `d", `x\`, "cat 2>&1 ~/", "FOO=~/a", "#", "'", "$((1+", "))))", "``"} {
		f.Add(s, len(s))
	}
	root := tree(f, "d/a b", "d/.h", "d/sub/x", "bin/go*", "d/.git/HEAD", "d/.git/refs/heads/main")
	env := Env{
		Dir: filepath.Join(root, "d"), Home: filepath.Join(root, "d"), Path: filepath.Join(root, "bin"),
		Builtins: []string{"cd", "echo"}, Vars: []string{"HOME", "H"}, Commands: &Commands{},
	}
	f.Fuzz(func(t *testing.T, line string, cursor int) {
		cands, replace := Complete(line, cursor, env)
		c := max(0, min(cursor, len(line)))
		if replace < 0 || replace > c {
			t.Fatalf("replace %d outside [0, %d]", replace, c)
		}
		typed := line[c-replace : c]
		for _, cand := range cands {
			if !strings.HasPrefix(cand, typed) {
				t.Fatalf("candidate %q does not start with the replaced %q", cand, typed)
			}
		}
		rs := []rune(line)
		Readline{Env: func() Env { return env }}.Do(rs, cursor%(len(rs)+1))
	})
}
