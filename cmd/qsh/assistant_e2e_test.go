package main

// End-to-end tests of the assistant through the real qsh binary on a
// pseudo-terminal, with the fake provider servers of assistant/ai/aitest.

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// env points qsh at srv, with a fresh HOME, and a TMPDIR beside it: the
// sandbox grants no temp dir that holds the home directory, as /tmp does
// here.
func aiEnv(t *testing.T, srv *aitest.Server, extra ...string) []string {
	home := t.TempDir()
	return append([]string{"HOME=" + home, "TMPDIR=" + t.TempDir(), "XDG_STATE_HOME=" + home + "/state", "XDG_CONFIG_HOME=" + home + "/config",
		"PS1=" + ps1, "QSH_AI_PROVIDER=openai", "QSH_AI_BASE_URL=" + srv.URL, "OPENAI_API_KEY=sk-e2e-test-key-000"}, extra...)
}

func startAI(t *testing.T, bin string, environ []string) *shelltest.Term {
	tm := shelltest.Start(t, bin, shelltest.Env(environ...), shelltest.Dir(t.TempDir()), wide)
	tm.WaitFor(ps1)
	return tm
}

func TestAssistantAnswerStreams(t *testing.T) {
	t.Parallel()
	bin := qshBinary(t)
	srv := aitest.NewOpenAI(t, aitest.Say("Hello from the model.\n```sh\nls -la\n```\n", 7))
	tm := startAI(t, bin, aiEnv(t, srv))
	tm.Mark()
	tm.Line("? say hello")
	out := tm.WaitFor(ps1)
	if !strings.Contains(out, "Hello from the model.") || !strings.Contains(out, "ls -la") {
		t.Errorf("screen:\n%s", out)
	}
	body := string(srv.Requests()[0].Raw)
	if !strings.Contains(body, "say hello") || strings.Contains(body, "sk-e2e-test-key") {
		t.Errorf("request: %s", body)
	}
}

func TestAssistantPlainWhenPiped(t *testing.T) {
	t.Parallel()
	bin := qshBinary(t)
	srv := aitest.NewOpenAI(t, aitest.Say("plain ```code``` here\n```sh\nmake\n```\n", 5))
	cmd := exec.Command(bin, "-c", "? explain")
	cmd.Env = append(aiEnv(t, srv), "PATH="+os.Getenv("PATH"), "TERM=xterm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "plain ```code``` here\n```sh\nmake\n```\n" {
		t.Errorf("piped output %q", out)
	}
}

func TestAssistantToolThenFollowUp(t *testing.T) {
	t.Parallel()
	bin := qshBinary(t)
	srv := aitest.NewOpenAI(t,
		aitest.Use("execute_command", `{"command": "echo tool-output-42"}`, 6),
		aitest.Say("The command printed tool-output-42.", 4),
		aitest.Say("You asked me to run echo.", 3))
	tm := startAI(t, bin, aiEnv(t, srv))
	tm.Mark()
	tm.Line("? run echo for me")
	out := tm.WaitFor(ps1)
	if !strings.Contains(out, "execute_command") || !strings.Contains(out, "The command printed tool-output-42.") {
		t.Fatalf("screen:\n%s", out)
	}
	if reqs := srv.Requests(); len(reqs) < 2 || !strings.Contains(string(reqs[1].Raw), "tool-output-42") {
		t.Fatalf("the tool result did not reach the model")
	}
	tm.Mark()
	tm.Line("? what did I ask?")
	out = tm.WaitFor(ps1)
	if !strings.Contains(out, "You asked me to run echo.") {
		t.Errorf("screen:\n%s", out)
	}
	if last := string(srv.Requests()[2].Raw); !strings.Contains(last, "The command printed tool-output-42.") {
		t.Errorf("the follow-up lacks the first answer")
	}
}

func TestAssistantCtrlC(t *testing.T) {
	t.Parallel()
	bin := qshBinary(t)
	srv := aitest.NewOpenAI(t, aitest.Reply{Text: "I am thinking very hard", Hang: true}, aitest.Say("Back again.", 2))
	tm := startAI(t, bin, aiEnv(t, srv))
	tm.Mark()
	tm.Line("? think")
	tm.WaitFor("thinking very hard")
	tm.Type(shelltest.CtrlC)
	if out := tm.WaitFor(ps1); strings.Contains(out, "exited") {
		// The assistant gets the terminal's SIGINT too and must live.
		t.Errorf("Ctrl-C ended the assistant:\n%s", out)
	}
	tm.Mark()
	tm.Line("? again")
	out := tm.WaitFor(ps1)
	if !strings.Contains(out, "Back again.") {
		t.Errorf("screen after Ctrl-C:\n%s", out)
	}
}

func TestAssistantErrors(t *testing.T) {
	t.Parallel()
	bin := qshBinary(t)
	tests := []struct {
		reply aitest.Reply
		want  string
	}{
		{aitest.Fail(401, "invalid_api_key", "Incorrect API key"), "openai: 401 unauthorized — check OPENAI_API_KEY"},
		{aitest.Fail(404, "model_not_found", "no such model"), "openai: unknown model"},
		{aitest.Reply{Text: "one two three", Chunks: 3, CutAfter: 2}, "openai: the answer was cut off"},
	}
	for _, tc := range tests {
		srv := aitest.NewOpenAI(t, tc.reply)
		cmd := exec.Command(bin, "-c", "? hi")
		cmd.Env = append(aiEnv(t, srv), "PATH="+os.Getenv("PATH"))
		out, _ := cmd.CombinedOutput()
		if !strings.Contains(string(out), tc.want) || strings.Count(strings.TrimSpace(string(out)), "\n") > 1 {
			t.Errorf("output %q, want one line with %q", out, tc.want)
		}
	}
}

func TestAssistantFenced(t *testing.T) {
	t.Parallel()
	bin := qshBinary(t)
	srv := aitest.NewOpenAI(t,
		aitest.Say("Checking.\n```tool\n{\"name\": \"execute_command\", \"args\": {\"command\": \"echo fenced-77\"}, \"reason\": \"look\"}\n```\n", 11),
		aitest.Say("It printed fenced-77.", 2))
	tm := startAI(t, bin, aiEnv(t, srv, "QSH_AI_TOOL_PROTOCOL=fenced"))
	tm.Mark()
	tm.Line("? try fenced")
	out := tm.WaitFor(ps1)
	if strings.Contains(out, "```tool") || !strings.Contains(out, "It printed fenced-77.") {
		t.Errorf("screen:\n%s", out)
	}
	if reqs := srv.Requests(); len(reqs) < 2 || !strings.Contains(string(reqs[1].Raw), "fenced-77") {
		t.Errorf("the fenced call's result did not reach the model")
	}
}
