package shell

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestFuncDefinitionHidesMarks checks that type prints a function as
// written, without the assignments qsh puts in front of the commands in
// its substitutions (markNoJobs).
func TestFuncDefinitionHidesMarks(t *testing.T) {
	f, err := syntax.NewParser().Parse(strings.NewReader("f() { x=$(date | tr a b); cat <(ls); }"), "")
	if err != nil {
		t.Fatal(err)
	}
	body := f.Stmts[0].Cmd.(*syntax.FuncDecl).Body
	if !markNoJobs(body) {
		t.Fatal("markNoJobs marked nothing")
	}
	got := funcDefinition("f", body)
	want := "f () \n{ \n    x=$(date | tr a b);\n    cat <(ls)\n}"
	if got != want {
		t.Errorf("funcDefinition = %q, want %q", got, want)
	}
}
