package marks

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// FuzzSource: a sourced file's text, marked in place with job control,
// still parses and keeps its lines, with the check Source asks Apply for
// (none when it marks functions alone).
func FuzzSource(f *testing.F) {
	for _, src := range []string{
		"sleep 1 & echo $!",
		"f() { vim $(find . | fzf); }",
		"f() { while read -r l; do echo $l; done <f | less; }",
		"f() { echo ${!:-$(date)}; x=$(date); }",
		"function g { a=1 b | c & }\ncat <<EOF\n$(x)\nEOF",
		"f() { ! x $(y) | time z; }; case $a in b) f & ;; esac",
	} {
		f.Add(src)
	}
	programs := func(name string) bool { return name != "echo" }
	f.Fuzz(func(t *testing.T, src string) {
		file, err := syntax.NewParser().Parse(strings.NewReader(src), "")
		if err != nil || !MayNeed(src, programs) {
			return
		}
		edits, check := Source(file, src, programs)
		out, changed := Apply(src, "", edits, check)
		if !changed {
			return
		}
		if _, err := syntax.NewParser().Parse(strings.NewReader(out), ""); err != nil {
			t.Errorf("%q marked is %q, which does not parse: %v", src, out, err)
		}
		if strings.Count(out, "\n") != strings.Count(src, "\n") {
			t.Errorf("%q marked is %q: lines moved", src, out)
		}
	})
}
