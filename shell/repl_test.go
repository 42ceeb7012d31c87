package shell

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// scripted is a [LineReader] that replays lines; "^C" stands for Ctrl-C.
type scripted struct {
	lines   []string
	prompts []string
	history []string
	prefill string // the next line starts with it: the scripted line is typed after
}

func (r *scripted) ReadLine(prompt string) (string, error) {
	r.prompts = append(r.prompts, prompt)
	if len(r.lines) == 0 {
		return "", io.EOF // a Ctrl-D each time
	}
	line := r.lines[0]
	r.lines = r.lines[1:]
	if line == "^C" {
		return "", ErrInterrupt
	}
	line, r.prefill = r.prefill+line, ""
	return line, nil
}

func (r *scripted) Prefill(line string) { r.prefill = line }
func (r *scripted) AddHistory(e string) { r.history = append(r.history, e) }
func (r *scripted) ClearHistory()       { r.history = nil }
func (r *scripted) Close() error        { return nil }

// newTestShell makes an interactive shell on buffers with a scripted
// reader, in a temporary HOME.
func newTestShell(t *testing.T, lines []string, opts ...Option) (*Shell, *scripted, *bytes.Buffer) {
	t.Helper()
	home := t.TempDir()
	t.Chdir(home) // the shell moves the process's cwd; restore it after
	var out bytes.Buffer
	r := &scripted{lines: lines}
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_STATE_HOME=" + filepath.Join(home, "state"), "PS1=$ "}
	opts = append([]Option{Stdio(nil, &out, &out), Environ(env), Interactive(true), Reader(r)}, opts...)
	s, err := New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s, r, &out
}

func TestREPLScripted(t *testing.T) {
	var asked []Question
	ask := func(ctx context.Context, q Question) error {
		asked = append(asked, q)
		io.WriteString(q.Stdout, "answer\n")
		return nil
	}
	s, r, out := newTestShell(t, []string{
		"x=1",
		"echo x=$x",
		"for i in a b; do",
		"echo i=$i",
		"done",
		"alias hi='echo aliased'",
		"hi",
		"^C",
		"echo status=$?",
		"false",
		"? why did it fail",
		"exit 4",
		"echo not reached",
	}, Ask(ask))
	st := s.REPL(context.Background())
	if st != 4 {
		t.Errorf("exit status %d, want 4", st)
	}
	for _, want := range []string{"x=1\n", "i=a\ni=b\n", "aliased\n", "status=130\n", "answer\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out.String(), "not reached") {
		t.Error("ran past exit")
	}
	if !slices.Contains(r.prompts, "> ") {
		t.Errorf("no continuation prompt in %q", r.prompts)
	}
	wantHist := []string{"x=1", "echo x=$x", "for i in a b; do\necho i=$i\ndone", "alias hi='echo aliased'", "hi",
		"echo status=$?", "false", "? why did it fail", "exit 4"}
	if !slices.Equal(r.history, wantHist) {
		t.Errorf("history %q\nwant %q", r.history, wantHist)
	}
	if len(asked) != 1 {
		t.Fatalf("asked %d questions", len(asked))
	}
	q := asked[0]
	if q.Text != "why did it fail" || q.Dir != s.Dir() || q.Run == nil || !slices.Contains(q.Environ, "PS1=$ ") {
		t.Errorf("question %+v", q)
	}
	last := q.Record[len(q.Record)-1]
	if last.Line != "false" || last.Status != 1 || last.Start.IsZero() {
		t.Errorf("last record %+v", last)
	}
	// The file has the same entries.
	data, err := os.ReadFile(filepath.Join(s.Var("XDG_STATE_HOME"), "qsh", "history"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "for i in a b; do\\necho i=$i\\ndone\n") {
		t.Errorf("history file:\n%s", data)
	}
}

func TestREPLStatePersists(t *testing.T) {
	dir := t.TempDir()
	s, _, out := newTestShell(t, []string{
		"f() { echo in-f $1; }",
		"cd " + dir,
		"set -u",
		"f arg",
		"echo $PWD",
		"echo $nosuchvar",
		"echo still",
	})
	s.REPL(context.Background())
	o := out.String()
	for _, want := range []string{"in-f arg\n", dir + "\n", "still\n"} {
		if !strings.Contains(o, want) {
			t.Errorf("output lacks %q:\n%s", want, o)
		}
	}
	if !strings.Contains(o, "nosuchvar") {
		t.Errorf("set -u did not persist:\n%s", o)
	}
	if cwd, _ := os.Getwd(); cwd != dir {
		t.Errorf("process cwd %q, want %q", cwd, dir)
	}
}

func TestREPLNoProvider(t *testing.T) {
	s, _, out := newTestShell(t, []string{"?", "  ? x"})
	s.REPL(context.Background())
	if n := strings.Count(out.String(), NoProvider); n != 2 {
		t.Fatalf("%d setup lines:\n%s", n, out)
	}
}

func TestREPLSyntaxError(t *testing.T) {
	s, _, out := newTestShell(t, []string{"echo )", "echo after"})
	s.REPL(context.Background())
	if !strings.Contains(out.String(), "after\n") || !strings.Contains(out.String(), "syntax error near unexpected token") {
		t.Fatalf("output:\n%s", out)
	}
}

func TestREPLHugeLine(t *testing.T) {
	big := "echo " + strings.Repeat("x", 1<<20)
	s, _, out := newTestShell(t, []string{big, "echo small"})
	s.REPL(context.Background())
	if out.Len() < 1<<20 || !strings.HasSuffix(out.String(), "small\n") {
		t.Fatalf("output of %d bytes, ends %q", out.Len(), out.String()[max(0, out.Len()-20):])
	}
}

func TestREPLErrTrapAndErrexit(t *testing.T) {
	s, _, out := newTestShell(t, []string{
		"trap 'echo err-trap' ERR",
		"false",
		"?",
		"set -e",
		"echo )",
		"echo still-alive",
	})
	s.REPL(context.Background())
	if n := strings.Count(out.String(), "err-trap"); n != 1 {
		t.Errorf("ERR trap ran %d times:\n%s", n, out)
	}
	if !strings.Contains(out.String(), "still-alive") {
		t.Errorf("set -e ended the shell on qsh's own status:\n%s", out)
	}
}

// TestQuestionsAreNotCommands checks that `?` lines stay out of the record
// a question gets: a bare ? explains the last command, not the last
// question, and an answer is never sent back as a command's output.
func TestQuestionsAreNotCommands(t *testing.T) {
	var asked []Question
	ask := func(ctx context.Context, q Question) error {
		asked = append(asked, q)
		io.WriteString(q.Stdout, "an answer\n")
		return nil
	}
	s, _, _ := newTestShell(t, []string{"false", "? why", "echo two", "  ?again", "?"}, Ask(ask))
	s.REPL(context.Background())
	if len(asked) != 3 {
		t.Fatalf("asked %d questions", len(asked))
	}
	var lines []string
	for _, c := range asked[2].Record {
		lines = append(lines, c.Line)
	}
	if !slices.Equal(lines, []string{"false", "echo two"}) {
		t.Errorf("the record of the third question holds %q", lines)
	}
}

// TestHandedLine checks that a command the assistant hands over (the "e"
// answer) starts the next prompt line, and that the line as the user
// finished it runs and goes into the history as theirs.
func TestHandedLine(t *testing.T) {
	ask := func(ctx context.Context, q Question) error {
		if q.Edit == nil {
			t.Error("no Edit in an interactive shell")
			return nil
		}
		if v, _ := q.Dry().Get("x"); v != "1" {
			t.Errorf("the session's copy has x=%q", v)
		}
		q.Edit("echo handed")
		return nil
	}
	s, r, out := newTestShell(t, []string{"x=1", "? do it", " and-typed", "echo next"}, Ask(ask))
	s.REPL(context.Background())
	if !strings.Contains(out.String(), "handed and-typed\nnext\n") {
		t.Errorf("output:\n%s", out)
	}
	if want := []string{"x=1", "? do it", "echo handed and-typed", "echo next"}; !slices.Equal(r.history, want) {
		t.Errorf("history %q, want %q", r.history, want)
	}
}
