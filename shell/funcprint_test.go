package shell

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/qsh-shell/qsh/shell/marks"
)

// TestFuncDefinitionHidesMarks checks that type prints a function as
// written, without the assignments qsh puts in front of the commands in
// its substitutions (markNoJobs).
func TestFuncDefinitionHidesMarks(t *testing.T) {
	f, err := syntax.NewParser().Parse(strings.NewReader("f() { x=$(date | tr a b); cat <(ls); }"), "")
	if err != nil {
		t.Fatal(err)
	}
	marks.File(f, func(string) bool { return true })
	body := f.Stmts[0].Cmd.(*syntax.FuncDecl).Body
	if p := funcText(t, body); !strings.Contains(p, marks.NoJobVar) {
		t.Fatalf("marks.File marked nothing: %q", p)
	}
	got := funcDefinition("f", body)
	want := "f () \n{ \n    x=$(date | tr a b);\n    cat <(ls)\n}"
	if got != want {
		t.Errorf("funcDefinition = %q, want %q", got, want)
	}
}

func funcText(t *testing.T, body *syntax.Stmt) string {
	t.Helper()
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, body); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
