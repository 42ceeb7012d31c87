package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/assistant/ai/aitest"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// TestUserCommandsSeeKeys: the user's own commands get the environment
// bash would give them, API keys included: a -c string, a script, a qsh
// started from a qsh.
func TestUserCommandsSeeKeys(t *testing.T) {
	t.Parallel()
	bin := qshBinary(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "s.sh")
	os.WriteFile(script, []byte("printenv OPENAI_API_KEY\n"), 0o644)
	for _, args := range [][]string{
		{"-c", "printenv OPENAI_API_KEY"},
		{script},
		{"-c", `qsh -c 'printenv OPENAI_API_KEY'`},
	} {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "OPENAI_API_KEY=sk-user-key-123", "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil || string(out) != "sk-user-key-123\n" {
			t.Errorf("qsh %q: %q (%v)", args, out, err)
		}
	}
}

// TestAssistantCommandsWithoutSecrets: the commands the assistant runs
// in the user's shell never see a secret, exported or a shell variable,
// while the user's own commands at the same prompt do.
func TestAssistantCommandsWithoutSecrets(t *testing.T) {
	t.Parallel()
	probe := `echo "[${OPENAI_API_KEY-unset}|${GITHUB_TOKEN-unset}|${db_password-unset}|$HOME_OK]"; printenv GITHUB_TOKEN`
	srv := aitest.NewOpenAI(t, execCall(probe), aitest.Say("Done.", 1))
	env := aiEnv(t, srv, "GITHUB_TOKEN=ghp_sessiontoken1234567890", "HOME_OK=visible")
	tm := startIn(t, t.TempDir(), env)
	enter(tm, "db_password=hunter2hunter2")
	tm.Line("? what do you see")
	tm.WaitFor("run? [y/n")
	tm.Type("y")
	tm.WaitFor("Done.")
	tm.WaitFor(ps1)
	got := wantResults(t, srv, "[unset|unset|unset|visible]")
	if strings.Contains(got[0], "ghp_") || strings.Contains(got[0], "sk-e2e") || strings.Contains(got[0], "hunter2") {
		t.Errorf("a secret reached the model:\n%s", got[0])
	}
	out := enter(tm, `echo "[$GITHUB_TOKEN|$db_password|${OPENAI_API_KEY:0:6}]"`)
	if !strings.Contains(out, "[ghp_sessiontoken1234567890|hunter2hunter2|sk-e2e]") {
		t.Errorf("the user's own command:\n%s", shelltest.Tail(out))
	}
	exit(t, tm)
}
