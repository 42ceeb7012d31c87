package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// TestRCUpToSyntaxError: a syntax error in ~/.qshrc costs what comes
// after it, as in bash, never the lines before (the PATH and the keys
// people export there): they run, then the error is said as file:line
// with the token.
func TestRCUpToSyntaxError(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	bin := filepath.Join(home, "bin")
	os.Mkdir(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "mytool"), []byte("#!/bin/sh\necho tool-ran\n"), 0o755)
	tm := startRC(t, home, home, `export PATH="$HOME/bin:$PATH" PS1='R> '
if true; then
  export EARLY=set
fi
case x in x) echo rc-ran ;; esac; foo )
export LATE=set
`)
	want := filepath.Join(home, ".qshrc") + ": line 5: syntax error near unexpected token `)'"
	out := tm.WaitFor("R> ")
	if !strings.Contains(out, want) || strings.Contains(out, "\nrc-ran") {
		t.Errorf("start-up:\n%s\nwant %q", shelltest.Tail(out), want)
	}
	tm.Line(`mytool; echo "[$EARLY|$LATE]"`)
	tm.WaitFor("tool-ran")
	tm.WaitFor("[set|]")
	tm.WaitFor("R> ")
	tm.Type(shelltest.CtrlD)
	tm.WaitExit()
}

// TestBadSettings: each bad setting is said once a session, by the
// interactive shell (behind the capture proxy: two processes), never by
// the -c strings run in it; a mistyped safety setting (QSH_AI_SANDBOX,
// QSH_AI_CONTEXT) does not fall back to a looser default: each question
// is refused with one line, and nothing reaches the model.
func TestBadSettings(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Say("Hello.", 1))
	env := aiEnv(t, srv, "QSH_HISTSIZE=many", "QSH_CAPTURE=maybe", "QSH_AI_SANDBOX=readonyl", "QSH_AI_CONTEXT=of")
	tm := shelltest.Start(t, qshBinary(t), shelltest.Env(env...), shelltest.Dir(t.TempDir()))
	start := tm.WaitFor(ps1)
	if strings.Count(start, "QSH_HISTSIZE=") != 1 || strings.Count(start, "QSH_CAPTURE=") != 1 ||
		strings.Contains(start, "QSH_AI_") {
		t.Errorf("start-up said:\n%s", shelltest.Tail(start))
	}
	if out := enter(tm, `qsh -c 'echo nested-$((1+1))'`); !strings.Contains(out, "nested-2") || strings.Contains(out, "QSH_") {
		t.Errorf("a -c string said:\n%s", shelltest.Tail(out))
	}
	out := enter(tm, "? hello")
	if !strings.Contains(out, `qsh: ?: QSH_AI_CONTEXT="of": expected on or off; the assistant will not start until it is fixed`) {
		t.Errorf("with QSH_AI_CONTEXT mistyped:\n%s", shelltest.Tail(out))
	}
	enter(tm, "unset QSH_AI_CONTEXT")
	out = enter(tm, "? hello")
	if !strings.Contains(out, `qsh: ?: QSH_AI_SANDBOX="readonyl": expected workspace, readonly or off`) ||
		!strings.Contains(out, "; the assistant will not start until it is fixed") ||
		strings.Count(out, "QSH_AI_SANDBOX") != 1 {
		t.Errorf("with QSH_AI_SANDBOX mistyped:\n%s", shelltest.Tail(out))
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("the model got %d requests", n)
	}
	exit(t, tm)
}
