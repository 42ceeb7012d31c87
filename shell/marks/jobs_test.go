package marks

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

func TestMarkBackground(t *testing.T) {
	res := func(text string) string { return "declare -g __qsh_job=$(__qsh_job '" + text + "' 2>/dev/null)" }
	const unset = "declare -g __qsh_job=$(__qsh_job 2>/dev/null)"
	tests := []struct{ src, want string }{
		{"echo hi", ""},
		{"sleep 30 &", res("sleep 30") + "\nsleep 30 &\n" + unset},
		{"for i in 1 2; do sleep $i & done", "for i in 1 2; do\n\t" + res("sleep $i") + "\n\tsleep $i &\n\t" + unset + "\ndone"},
		{"a | b &", res("a | b") + "\na | b &\n" + unset},
		{"{ a; b; } &", res("{ a; b; }") + "\n{\n\ta\n\tb\n} &\n" + unset},
		// In a subshell, no job: bash's subshell has no job control.
		{"(autojump --add x >/dev/null &)", "(__qsh_nojob=1 autojump --add x >/dev/null &)"},
		{"(a & b) &", res("(a & b)") + "\n(\n\t__qsh_nojob=1 a &\n\tb\n) &\n" + unset},
	}
	for _, tt := range tests {
		f, err := syntax.NewParser().Parse(strings.NewReader(tt.src), "")
		if err != nil {
			t.Fatal(err)
		}
		marked := markBackground(f)
		if marked != (tt.want != "") {
			t.Errorf("%q: marked %v", tt.src, marked)
		}
		if !marked {
			continue
		}
		var b strings.Builder
		syntax.NewPrinter().Print(&b, f)
		if got := strings.TrimSpace(b.String()); got != tt.want {
			t.Errorf("%q marked:\n%s\nwant:\n%s", tt.src, got, tt.want)
		}
	}
}

func TestMarkNoJobs(t *testing.T) {
	tests := []struct{ src, want string }{
		{"echo hi", ""},
		{"vim $(find . | fzf)", "vim $(__qsh_nojob=1 find . | __qsh_nojob=1 fzf)"},
		{"diff <(a) >(x=1 b)", "diff <(__qsh_nojob=1 a) >(__qsh_nojob=1 x=1 b)"},
		{"echo `a`", "echo $(__qsh_nojob=1 a)"},
		{"a $(b $(c); x=1)", "a $(\n\t__qsh_nojob=1 b $(__qsh_nojob=1 c)\n\tx=1\n)"},
		{"x=$(for f in *; do cat $f; done)", "x=$(for f in *; do __qsh_nojob=1 cat $f; done)"},
		// A background statement in a substitution is not a job.
		{"x=$(sleep 1 &)", "x=$(__qsh_nojob=1 sleep 1 &)"},
	}
	for _, tt := range tests {
		f, err := syntax.NewParser().Parse(strings.NewReader(tt.src), "")
		if err != nil {
			t.Fatal(err)
		}
		marked := markNoJobs(f)
		markBackground(f)
		if marked != (tt.want != "") {
			t.Errorf("%q: marked %v", tt.src, marked)
		}
		if !marked {
			continue
		}
		// Marking twice changes nothing.
		markNoJobs(f)
		var b strings.Builder
		syntax.NewPrinter().Print(&b, f)
		if got := strings.TrimSpace(b.String()); got != tt.want {
			t.Errorf("%q marked:\n%s\nwant:\n%s", tt.src, got, tt.want)
		}
	}
}

func TestMixedPipelines(t *testing.T) {
	// As the shell says: history is its builtin, myfunc a function.
	programs := func(name string) bool {
		return !interp.IsBuiltin(name) && name != "history" && name != "myfunc"
	}
	const m = "__qsh_mixed=1 "
	tests := []struct{ src, want string }{
		{"ls | less", "ls | less"},
		{"a | b | c", "a | b | c"},
		{"vim", "vim"},
		{"while :; do echo y; done | less", "while " + m + ":; do " + m + "echo y; done | " + m + "less"},
		{"history | less", m + "history | " + m + "less"},
		{"myfunc | less", m + "myfunc | " + m + "less"},
		{"seq 9 | while read x; do :; done", m + "seq 9 | while " + m + "read x; do " + m + ":; done"},
		{"a | b | echo", m + "a | " + m + "b | " + m + "echo"},
		{"$pager | less", m + "$pager | " + m + "less"},
		{"ls; (a | b) | c", "ls\n(" + m + "a | " + m + "b) | " + m + "c"},
		{"ls; a | b; echo x | c", "ls\na | b\n" + m + "echo x | " + m + "c"},
	}
	for _, tt := range tests {
		f, err := syntax.NewParser().Parse(strings.NewReader(tt.src), "")
		if err != nil {
			t.Fatal(err)
		}
		markMixed(f, programs)
		markMixed(f, programs) // once only
		var b strings.Builder
		syntax.NewPrinter().Print(&b, f)
		if got := strings.TrimSpace(b.String()); got != tt.want {
			t.Errorf("%q marked:\n%s\nwant:\n%s", tt.src, got, tt.want)
		}
	}
}

// TestMarkNoJobsStatus: the mark keeps $? for the substitution, and sets
// the variable there only.
func TestMarkNoJobsStatus(t *testing.T) {
	f, err := syntax.NewParser().Parse(strings.NewReader(`set -e; f() { echo ${__qsh_nojob+set}; }; false || echo $(echo $?; f) ${__qsh_nojob-unset}`), "")
	if err != nil {
		t.Fatal(err)
	}
	markNoJobs(f)
	var out bytes.Buffer
	r, err := interp.New(interp.StdIO(nil, &out, io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	r.Run(context.Background(), f)
	if out.String() != "1 set unset\n" {
		t.Fatalf("got %q", out.String())
	}
}

// TestSourceInside: a function's mark that falls inside another edit
// (here $!'s, which replaces the whole ${!…}) is left out, and the rest
// of the text is marked still.
func TestSourceInside(t *testing.T) {
	src := "f() { echo ${!:-$(date)}; x=$(date); }\n"
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "f.sh")
	if err != nil {
		t.Fatal(err)
	}
	edits, check := Source(f, src, func(string) bool { return true })
	out, ok := Apply(src, "f.sh", edits, check)
	if !ok || !strings.Contains(out, "x=$(__qsh_nojob=1 date)") || strings.Contains(out, "${!") {
		t.Fatalf("marked %v:\n%s", ok, out)
	}
}
