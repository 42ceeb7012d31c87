package shell

import (
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/internal/testtime"
)

func TestQuestion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		text string
		ok   bool
	}{
		{"? why is this failing", "why is this failing", true},
		{"?why", "why", true},
		{"?", "", true},
		{"   ?  spaced  ", "spaced", true},
		{"\t? tab", "tab", true},
		{"??", "?", true},
		{`\?cmd`, "", false},
		{"./?cmd", "", false},
		{"echo ?", "", false},
		{"ls ?x", "", false},
		{"", "", false},
		{"'?' quoted", "", false},
	}
	for _, tt := range tests {
		text, ok := question(tt.line)
		if text != tt.text || ok != tt.ok {
			t.Errorf("question(%q) = %q, %v; want %q, %v", tt.line, text, ok, tt.text, tt.ok)
		}
	}
}

func TestIncomplete(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src  string
		want bool
	}{
		{"echo hi\n", false},
		{"echo 'unclosed\n", true},
		{"echo \"unclosed\n", true},
		{"echo $(\n", true},
		{"if true; then\n", true},
		{"if true; then echo; fi\n", false},
		{"for i in 1 2; do\n", true},
		{"for i in 1 2; do\necho $i\n", true},
		{"for i in 1 2; do\necho $i\ndone\n", false},
		{"while :; do\n", true},
		{"case x in\n", true},
		{"f() {\n", true},
		{"(\n", true},
		{"ls |\n", true},
		{"true &&\n", true},
		{"false ||\n", true},
		{"echo a \\\n", true},
		{"echo a \\\\\n", false},
		{"echo a \\\nb\n", false},
		{"# comment \\\n", false},
		{"echo x # comment \\\n", false},
		{"cat <<EOF\n", true},
		{"cat <<EOF\nbody\n", true},
		{"cat <<EOF\nbody\nEOF\n", false},
		{"echo )\n", false}, // a syntax error, not more input
		{"fi\n", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := incomplete(tt.src); got != tt.want {
			t.Errorf("incomplete(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
}

func TestHasQuestion(t *testing.T) {
	t.Parallel()
	if !hasQuestion("echo a\n  ? b\necho c") || hasQuestion("echo ?\necho '?'") {
		t.Fatal("hasQuestion")
	}
}

// FuzzSplit checks that the line split never panics and agrees with its
// definition: a question is a line whose first non-blank is `?`.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{"? why", "echo 'a", "if true; then", "ls |", "cat <<EOF\nx", "echo \\", "\\?x", "./?x", "$(", "${", "`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		text, ok := question(line)
		want := strings.HasPrefix(strings.TrimLeft(line, " \t"), "?")
		if ok != want {
			t.Fatalf("question(%q) ok=%v", line, ok)
		}
		if ok && text != strings.TrimSpace(text) {
			t.Fatalf("question(%q) text %q not trimmed", line, text)
		}
		done := make(chan bool)
		go func() {
			incomplete(line)
			incomplete(line + "\n")
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(testtime.Scaled(10 * time.Second)):
			t.Fatalf("incomplete(%q) hangs", line)
		}
	})
}
