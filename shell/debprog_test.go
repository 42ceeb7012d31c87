package shell

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
)

// A program's ${x@P} and PS4 decode bash's prompt escapes, as bash's do
// outside a terminal: git-effort (git-extras) counts its jobs with
// ${nJobs@P} of "\j", and printed an arithmetic error under qsh.
func TestProgramPromptEscapesAgainstBash(t *testing.T) {
	needs.Tool(t, "bash")
	for _, code := range []string{
		`sleep 1 & x='\j \u \w \W \$ \s \v \V [\[x\]] \101 \\ \q'; echo "${x@P}"; kill $!`,
		`PS4='+\j\$ '; set -x; : hi`,
		`PROMPT_DIRTRIM=1; mkdir -p a/b; cd a/b; x='\w'; echo "${x@P}"`,
	} {
		t.Run(code, func(t *testing.T) {
			dir := t.TempDir()
			env := []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), "LC_ALL=C.UTF-8"}
			cmd := exec.Command("bash", "-c", code, "bash")
			cmd.Dir, cmd.Env = dir, env
			var wantOut, wantErr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &wantOut, &wantErr
			wantSt := 0
			if err := cmd.Run(); err != nil {
				wantSt = cmd.ProcessState.ExitCode()
			}
			t.Chdir(dir)
			var out, errOut bytes.Buffer
			st := Program{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut,
				Name: "bash", Environ: env, Command: &code}.Run(context.Background())
			if out.String() != wantOut.String() || errOut.String() != wantErr.String() || st != wantSt {
				t.Errorf("bash: %d %q %q\nqsh:  %d %q %q", wantSt, wantOut.String(), wantErr.String(),
					st, out.String(), errOut.String())
			}
		})
	}
}
