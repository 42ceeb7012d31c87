package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/ai/aitest"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// Lines that make the interpreter panic (mvdan.cc/sh's, see
// docs/COMPATIBILITY.md): each must cost one line and status 2, never the
// session.
var panicking = []string{
	"a=(1 2 3); ((a[1]++))",
	"set -- a b; shift -1",
	"declare -A m=(k v k2 v2)",
	"let a[1]++",
	"declare -A c; for w in a b a; do ((c[$w]++)); done",
}

func TestPanicCostsTheLine(t *testing.T) {
	t.Parallel()
	tm := startShell(t, "")
	enter(tm, "x=kept")
	for _, line := range panicking {
		out := enter(tm, line+`; echo not-"reached"`)
		if !strings.Contains(out, "qsh: internal error: ") || strings.Contains(out, "not-reached") {
			t.Errorf("%s:\n%s", line, shelltest.Tail(out))
		}
		if out := enter(tm, `echo "st=$?"`); !strings.Contains(out, "st=2") {
			t.Errorf("%s: $? after it:\n%s", line, shelltest.Tail(out))
		}
	}
	// The interpreter is back in the shell's own scope: not left inside
	// the function the panic struck in, nor with its arguments.
	enter(tm, `set -- p1`)
	enter(tm, `f() { local y=inner; ((a[1]++)); }; a=(1); f arg`)
	if out := enter(tm, `echo "[$y|$1|$x]"`); !strings.Contains(out, "[|p1|kept]") {
		t.Errorf("after a panic in a function:\n%s", shelltest.Tail(out))
	}
	// What the line did before the panic stays, as after an error in bash.
	if out := enter(tm, `set -- a b; shift -1; echo "n=$#"`); !strings.Contains(out, "qsh: internal error") {
		t.Errorf("shift -1:\n%s", shelltest.Tail(out))
	}
	if out := enter(tm, `echo "n=$#"`); !strings.Contains(out, "n=2") {
		t.Errorf("set -- before the panic:\n%s", shelltest.Tail(out))
	}
	if st := exit(t, tm); st != 0 {
		t.Errorf("exit status %d", st)
	}
}

// TestPanicInHooks runs a panicking line from every place the shell hands
// code to the interpreter: ~/.qshrc, PROMPT_COMMAND, PS1, a trap, a key's
// command, a completion function.
func TestPanicInHooks(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	tm := startRC(t, home, home, `export EARLY=set PS1='R> '
a=(1 2 3); ((a[1]++))
PS1='P> '
`)
	tm.WaitFor("qsh: internal error: ")
	tm.WaitFor("R> ") // the rest of the file did not run
	tm.Line(`echo "early=$EARLY"`)
	tm.WaitFor("early=set")
	tm.WaitFor("R> ")

	tm.Line(`PROMPT_COMMAND='declare -A m=(k v k2 v2)'; PS1='P> '`)
	tm.WaitFor("qsh: internal error: ")
	tm.WaitFor("P> ")
	tm.Line(`unset PROMPT_COMMAND; PS1='$(let a[1]++)P2> '`)
	tm.WaitFor("qsh: internal error: ")
	tm.WaitFor("P2> ")
	tm.Line(`PS1='P3> '; trap 'a=(1); ((a[0]++))' USR1; kill -USR1 $$; echo after-"trap"`)
	tm.WaitFor("qsh: internal error: ")
	tm.WaitFor("P3> ")

	tm.Line(`bind -x '"\C-t": a=(1); ((a[0]++))'`)
	tm.WaitFor("P3> ")
	tm.Mark()
	tm.Type("\x14")
	tm.WaitFor("qsh: internal error: ")
	tm.Type(shelltest.Enter)
	tm.WaitFor("P3> ")

	tm.Line(`_pc() { a=(1); ((a[0]++)); }; complete -F _pc pcmd`)
	tm.WaitFor("P3> ")
	tm.Mark()
	tm.Type("pcmd ", shelltest.Tab)
	tm.WaitFor("qsh: internal error: ")
	tm.Type(shelltest.CtrlU)
	tm.Line(`echo al""ive`)
	tm.WaitFor("alive")
	tm.WaitFor("P3> ")
	tm.Type(shelltest.CtrlD)
	tm.WaitExit()
}

// TestPanicInAssistantRun has the model run a line that makes the
// interpreter panic, judged safe and run unasked in the user's shell: the
// call is in the audit log before it runs, the model is told, and the
// shell goes on.
func TestPanicInAssistantRun(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, execCall("a=(1 2 3); ((a[1]++))"), aitest.Say("It failed.", 1))
	env := aiEnv(t, srv)
	tm := startIn(t, t.TempDir(), env)
	tm.Line("? bump it")
	tm.WaitFor("It failed.")
	tm.WaitFor(ps1)
	wantResults(t, srv, "qsh: internal error: ")
	b, err := os.ReadFile(filepath.Join(lookupEnv(env, "XDG_STATE_HOME"), "qsh", "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var outcomes []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var e struct{ Tool, Outcome string }
		json.Unmarshal([]byte(line), &e)
		outcomes = append(outcomes, e.Tool+": "+e.Outcome)
	}
	if len(outcomes) != 2 || outcomes[0] != "execute_command: started" || !strings.HasPrefix(outcomes[1], "execute_command: failed: exit status 2") {
		t.Errorf("audit log: %q", outcomes)
	}
	if out := enter(tm, `echo al""ive`); !strings.Contains(out, "alive") {
		t.Errorf("after the run:\n%s", shelltest.Tail(out))
	}
	exit(t, tm)
}
