package main

import (
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// TestConfirmFitsTheTerminal: the confirmation line is broken between
// words to the terminal's width (which would otherwise wrap it inside
// one), its lines after the first indented, and printed once, the key
// after it; on narrower terminals too.
func TestConfirmFitsTheTerminal(t *testing.T) {
	t.Parallel()
	for _, cols := range []uint16{150, 60} {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"Makefile": makefile, "alpha.txt": "x", "beta.txt": "y"})
		command := "make -s hello && rm -f alpha.txt beta.txt && echo finished-the-cleanup-for-good"
		srv := aitest.NewOpenAI(t, execCall(command), aitest.Say("Done.", 1))
		tm := shelltest.Start(t, qshBinary(t), shelltest.Env(aiEnv(t, srv)...), shelltest.Dir(dir), shelltest.Size(40, cols))
		tm.WaitFor(ps1)
		tm.Mark()
		tm.Line("? clean up")
		tm.WaitFor("run? [y/n")
		tm.Type("y")
		tm.WaitFor("Done.")
		tm.WaitFor(ps1)
		out := tm.Output()
		start := strings.LastIndex(out, "⚠ ")
		end := strings.Index(out[start:], "] y\n")
		if start < 0 || end < 0 {
			t.Fatalf("%d columns: no confirmation:\n%s", cols, shelltest.Tail(out))
		}
		lines := strings.Split(out[start:start+end+3], "\n")
		for i, line := range lines {
			if n := len([]rune(line)); n > int(cols) {
				t.Errorf("%d columns: line %d has %d:\n%s", cols, i, n, line)
			}
			if i > 0 && !strings.HasPrefix(line, "  ") {
				t.Errorf("%d columns: line %d is not indented: %q", cols, i, line)
			}
		}
		// Each word whole: the command, the reasons, the effect.
		joined := strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
		for _, want := range []string{command, "deletes a file in the workspace", "→ deletes 2 files", "run? [y/n/a/A/e] y"} {
			if !strings.Contains(joined, want) {
				t.Errorf("%d columns: %q is not shown whole:\n%s", cols, want, strings.Join(lines, "\n"))
			}
		}
		if n := strings.Count(out, "⚠ dev"); n != 1 {
			t.Errorf("%d columns: the confirmation is shown %d times:\n%s", cols, n, shelltest.Tail(out))
		}
		exit(t, tm)
	}
}

// TestBlockedReasonWhole: a blocked command is refused without asking,
// and the line that says so gives its reason whole, broken between
// words to the terminal, never cut (it was "deletes the h…").
func TestBlockedReasonWhole(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, execCall("rm -rf ~"), aitest.Say("I will not.", 1))
	tm := shelltest.Start(t, qshBinary(t), shelltest.Env(aiEnv(t, srv)...), shelltest.Dir(t.TempDir()), shelltest.Size(40, 50))
	tm.WaitFor(ps1)
	tm.Line("? clean my home")
	out := tm.WaitFor("I will not.")
	i := strings.Index(out, "✗ ")
	if i < 0 {
		t.Fatalf("no result line:\n%s", shelltest.Tail(out))
	}
	result := strings.Join(strings.Fields(out[i:]), " ")
	if !strings.Contains(result, "✗ blocked: `rm -r` on `~`: deletes the home directory ·") {
		t.Errorf("the result line:\n%s", out[i:])
	}
	tm.WaitFor(ps1)
	exit(t, tm)
}
