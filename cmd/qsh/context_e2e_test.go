package main

// End-to-end tests of what the assistant sees and remembers: the tokens a
// server reports, the context a question sends, private lines, saved
// conversations and the assistant's commands in the history.

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

func TestUsageShown(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Reply{Text: "Hi.", Chunks: 1, Usage: aitest.Usage{Input: 4321, Output: 87}})
	tm := startAI(t, qshBinary(t), aiEnv(t, srv, "QSH_AI_PRICE_IN=1", "QSH_AI_PRICE_OUT=10"))
	tm.Mark()
	tm.Line("? hi")
	if out := tm.WaitFor(ps1); !strings.Contains(out, "4,321 in · 87 out tokens · $0.0052") {
		t.Errorf("no usage line after the turn:\n%s", out)
	}
	tm.Line("? /status")
	if out := tm.WaitFor(ps1); !strings.Contains(out, "tokens    4,321 in · 87 out tokens · $0.0052 this session") {
		t.Errorf("/status:\n%s", out)
	}
}

// TestContextCommand checks that `? /context` shows the last command's
// output as the next question would send it, and asks the model nothing.
func TestContextCommand(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t)
	tm := startAI(t, qshBinary(t), aiEnv(t, srv))
	enter(tm, "echo shown-out-$((60+1)); false")
	tm.Mark()
	tm.Line("? /context")
	out := tm.WaitFor(ps1)
	for _, want := range []string{"<context>", "$ echo shown-out-$((60+1)); false", "exit 1", "| shown-out-61", "≈"} {
		if !strings.Contains(out, want) {
			t.Errorf("/context lacks %q:\n%s", want, out)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("/context made %d requests", n)
	}
}

// TestPrivateLineE2E checks that a line typed with a leading blank is in
// neither the request a question sends nor the history, and that its
// neighbours are.
func TestPrivateLineE2E(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Say("Seen.", 1))
	tm := startAI(t, qshBinary(t), aiEnv(t, srv))
	enter(tm, "echo public-out-$((40+1))")
	enter(tm, " echo private-out-$((40+2))")
	enter(tm, "? what did I run")
	body := string(srv.Requests()[0].Raw)
	if !strings.Contains(body, "public-out-41") || strings.Contains(body, "private-out") {
		t.Errorf("request: %s", body)
	}
	tm.Mark()
	out := enter(tm, "history")
	if !strings.Contains(out, "echo public-out") || strings.Contains(out, "private-out") {
		t.Errorf("history:\n%s", out)
	}
}

// TestContextOffE2E checks that QSH_AI_CONTEXT=off sends the question
// without the commands.
func TestContextOffE2E(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Say("Seen.", 1))
	tm := startAI(t, qshBinary(t), aiEnv(t, srv, "QSH_AI_CONTEXT=off"))
	enter(tm, "echo visible-out-$((40+3))")
	enter(tm, "? what did I run")
	if body := string(srv.Requests()[0].Raw); strings.Contains(body, "visible-out") || !strings.Contains(body, "what did I run") {
		t.Errorf("request: %s", body)
	}
}

// TestAssistantCommandRecalled checks that Up recalls a command the
// assistant ran, and that QSH_AI_HISTORY=off keeps it out.
func TestAssistantCommandRecalled(t *testing.T) {
	t.Parallel()
	for _, on := range []bool{true, false} {
		srv := aitest.NewOpenAI(t, execCall("echo ran-for-you-$((50+5))"), aitest.Say("Done.", 1))
		env := aiEnv(t, srv)
		if !on {
			env = append(env, "QSH_AI_HISTORY=off")
		}
		tm := startAI(t, qshBinary(t), env)
		enter(tm, "echo typed-by-me")
		tm.Mark()
		tm.Line("? run it")
		if out := tm.WaitFor(ps1); !strings.Contains(out, "ran-for-you-55") {
			t.Fatalf("the command did not run:\n%s", out)
		}
		if !on {
			if out := enter(tm, "history"); strings.Contains(out, "ran-for-you") {
				t.Errorf("QSH_AI_HISTORY=off, yet the assistant's command is in the history:\n%s", out)
			}
			continue
		}
		// The line editor draws the prompt again with the entry: wait
		// for what only running it prints.
		tm.Type(shelltest.Up, shelltest.Enter)
		tm.WaitFor("ran-for-you-55")
		tm.WaitFor(ps1)
	}
}

// TestResumeE2E checks that a conversation saved in one session is listed
// and continued in the next: the follow-up sends the earlier one.
func TestResumeE2E(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Say("The first answer.", 2), aitest.Say("Following up.", 2))
	env := aiEnv(t, srv)
	tm := startAI(t, qshBinary(t), env)
	enter(tm, "? the first question")
	exit(t, tm)

	tm = startAI(t, qshBinary(t), env)
	tm.Mark()
	tm.Line("? /resume")
	if out := tm.WaitFor(ps1); !strings.Contains(out, "  1  ") || !strings.Contains(out, "the first question") {
		t.Fatalf("/resume:\n%s", out)
	}
	tm.Line("? /resume 1")
	if out := tm.WaitFor(ps1); !strings.Contains(out, "continuing the conversation") {
		t.Fatalf("/resume 1:\n%s", out)
	}
	enter(tm, "? and a follow-up")
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	body := string(reqs[1].Raw)
	for _, want := range []string{"the first question", "The first answer.", "and a follow-up"} {
		if !strings.Contains(body, want) {
			t.Errorf("the follow-up lacks %q: %s", want, body)
		}
	}
	tm.Mark()
	tm.Line("? /export talk.md")
	if out := tm.WaitFor(ps1); !strings.Contains(out, "talk.md (4 messages)") {
		t.Errorf("/export:\n%s", out)
	}
}

// TestAssistantSeesRC checks that QSH_AI_* variables exported in ~/.qshrc
// reach the assistant, and that the key it needs still does.
func TestAssistantSeesRC(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Reply{Text: "Hi.", Chunks: 1, Usage: aitest.Usage{Input: 1000, Output: 10}})
	env := aiEnv(t, srv)
	writeFiles(t, lookupEnv(env, "HOME"), map[string]string{".qshrc": "export QSH_AI_PRICE_IN=2\n"})
	tm := startAI(t, qshBinary(t), env)
	tm.Mark()
	tm.Line("? hi")
	if out := tm.WaitFor(ps1); !strings.Contains(out, "1,000 in · 10 out tokens · $0.0020") {
		t.Errorf("the price set in ~/.qshrc is not used:\n%s", out)
	}
}

// TestPrivateQuestionLeavesNoTrace checks that a question typed with a
// leading blank goes to the model, and its follow-ups see it, but that
// nothing of its turn is written to disk: not the history, not the saved
// conversation, so neither `? /resume` nor `? /export` brings it back.
func TestPrivateQuestionLeavesNoTrace(t *testing.T) {
	t.Parallel()
	srv := aitest.NewOpenAI(t, aitest.Say("Public answer.", 1),
		execCall("echo hush-ran-$((20+2))"), aitest.Say("Hush-answer.", 1),
		aitest.Say("After answer.", 1), aitest.Say("Resumed answer.", 1))
	env := aiEnv(t, srv)
	home := lookupEnv(env, "HOME")
	tm := startAI(t, qshBinary(t), env)
	enter(tm, "? the public question")
	tm.Mark()
	tm.Line(" ? the hush-question")
	if out := tm.WaitFor(ps1); !strings.Contains(out, "hush-ran-22") || !strings.Contains(out, "Hush-answer.") {
		t.Fatalf("the private question was not answered:\n%s", out)
	}
	enter(tm, "? and after")
	reqs := srv.Requests()
	if len(reqs) != 4 || !strings.Contains(string(reqs[3].Raw), "the hush-question") {
		t.Fatalf("the follow-up does not continue the private turn (%d requests)", len(reqs))
	}
	tm.Mark()
	tm.Line("? /export " + filepath.Join(home, "talk.md"))
	if out := tm.WaitFor(ps1); !strings.Contains(out, "(4 messages)") {
		t.Errorf("/export:\n%s", out)
	}
	tm.Mark()
	if out := enter(tm, "history"); strings.Contains(out, "hush") {
		t.Errorf("history:\n%s", out)
	}
	exit(t, tm)
	// The audit log is the record of what the assistant did to the
	// machine, and keeps the calls of private questions too.
	filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "audit.jsonl" {
			return err
		}
		if b, err := os.ReadFile(p); err == nil && strings.Contains(strings.ToLower(string(b)), "hush") {
			t.Errorf("%s keeps the private turn:\n%s", p, clip(string(b)))
		}
		return nil
	})

	tm = startAI(t, qshBinary(t), env)
	enter(tm, "? /resume 1")
	enter(tm, "? resumed")
	msgs, _ := json.Marshal(srv.Requests()[4].Body["messages"])
	if s := string(msgs); strings.Contains(s, "hush") || !strings.Contains(s, "the public question") {
		t.Errorf("the resumed conversation: %s", tail(s, 1500))
	}
}
