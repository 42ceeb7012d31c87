package danger

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// seeds adds the labelled table and some odd forms to a fuzz corpus.
func seeds(f *testing.F) {
	for _, l := range readTable(f) {
		f.Add(l.cmd)
	}
	for _, s := range []string{"", "(", "$(", "'", "a=(1 2); ${a[@]}", "${!x*}", "$((1/0))", "<<<", "f(){ f; }; f", "cat <<EOF\n$(x)\nEOF\n"} {
		f.Add(s)
	}
}

// FuzzClassify: never panics, and printing a command with syntax.Printer
// then classifying it again gives the same class.
func FuzzClassify(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, cmd string) {
		v := Classify(cmd, testWS)
		if v.Class < Safe || v.Class > Blocked || len(v.Reasons) == 0 {
			t.Fatalf("Classify(%q) = %v %q: want a class and reasons", cmd, v.Class, v.Reasons)
		}
		if printerMangles(cmd) || tooDeep(cmd) {
			// tooDeep counts brackets in comments too, which the
			// printer drops.
			return
		}
		file, err := syntax.NewParser().Parse(strings.NewReader(cmd), "")
		if err != nil {
			return
		}
		var sb strings.Builder
		if err := syntax.NewPrinter().Print(&sb, file); err != nil {
			return
		}
		if v2 := Classify(sb.String(), testWS); v2.Class != v.Class {
			t.Fatalf("Classify(%q) = %v but its printed form %q is %v %q", cmd, v.Class, sb.String(), v2.Class, v2.Reasons)
		}
	})
}

// printerMangles reports control characters that syntax.Printer (v3.14)
// does not print back as they were: a form feed inside a word comes out as
// a newline, a vertical tab as a space, which splits the word; a $ before
// a backquote comes out as $$() (a new word). That is the printer's
// doing, not the classifier's, so such inputs are skipped.
func printerMangles(s string) bool {
	return strings.ContainsAny(s, "\f\v\r") || strings.Contains(s, "$`")
}

// wrappings are ways of running the same command that must never make a
// blocked command look milder.
func wrappings(cmd string) []string {
	q, err := syntax.Quote(cmd, syntax.LangBash)
	if err != nil {
		return nil
	}
	out := []string{
		"bash -c " + q,
		"sh -c " + q,
		"eval " + q,
		"echo \"$(" + cmd + "\n)\"",
		"f() {\n" + cmd + "\n}\nf",
		"(\n" + cmd + "\n)",
		"{\n" + cmd + "\n}",
		"true && {\n" + cmd + "\n}",
	}
	if file, err := syntax.NewParser().Parse(strings.NewReader(cmd), ""); err == nil && len(file.Stmts) == 1 {
		if c, ok := file.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(c.Assigns) == 0 && len(c.Args) > 0 && !file.Stmts[0].Background {
			out = append(out, "sudo "+cmd, "timeout 5 "+cmd, "env "+cmd)
		}
	}
	return out
}

// FuzzWrapBlocked: a blocked command stays blocked inside bash -c, eval,
// $(…), sudo, a function or a subshell.
func FuzzWrapBlocked(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, cmd string) {
		if Classify(cmd, testWS).Class != Blocked {
			return
		}
		for _, w := range wrappings(cmd) {
			if _, err := syntax.NewParser().Parse(strings.NewReader(w), ""); err != nil {
				continue // the shell would not run it either
			}
			if v := Classify(w, testWS); v.Class != Blocked {
				t.Errorf("%q is blocked but %q is %v %q", cmd, w, v.Class, v.Reasons)
			}
		}
	})
}

// TestWrapBlocked runs the wrapping property over every blocked command in
// the table, so it holds without fuzzing too.
func TestWrapBlocked(t *testing.T) {
	for _, l := range readTable(t) {
		if l.class != Blocked {
			continue
		}
		for _, w := range wrappings(l.cmd) {
			if _, err := syntax.NewParser().Parse(strings.NewReader(w), ""); err != nil {
				continue
			}
			if v := Classify(w, testWS); v.Class != Blocked {
				t.Errorf("%q is blocked but %q is %v %q", l.cmd, w, v.Class, v.Reasons)
			}
		}
	}
}

// TestPrintedSameClass runs the printing property over the table.
func TestPrintedSameClass(t *testing.T) {
	for _, l := range readTable(t) {
		file, err := syntax.NewParser().Parse(strings.NewReader(l.cmd), "")
		if err != nil {
			continue
		}
		var sb strings.Builder
		syntax.NewPrinter().Print(&sb, file)
		if a, b := Classify(l.cmd, testWS), Classify(sb.String(), testWS); a.Class != b.Class {
			t.Errorf("%q is %v but printed %q is %v %q", l.cmd, a.Class, sb.String(), b.Class, b.Reasons)
		}
	}
}
