package eval

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/internal/needs"
)

// The differential case files of cmd/qsh (testdata/bash/*.sh), which test
// the qsh binary against bash, run here in-process through the evaluator,
// each case as `bash -c CASE` would run it. A file holds cases begun by a
// line `### name`; lines before the first are comments (the format of
// cmd/qsh's parseDiffCases).
//
// Files left out, because what they test lives in package shell, which
// adds its builtins to the evaluator's table, not in eval:
//   - history.sh: history (the list, -s -d -c -a -n -r -w, HISTFILE)
//   - complete.sh: complete and compgen (bash's programmable completion)
//   - prompt-transform.sh: prompt escapes (${x@P}, PS4), package shell's
//
// Stdout, stderr and the status must all match bash's: the runner is told
// its name is bash, so its messages read as bash's do.
//
// Each case runs in a child: the test binary itself, started again as a
// helper (TestMain) that runs the case in-process through a Runner, as qsh
// runs a `qsh -c` string. The evaluator lives in its shell's process, so
// what a case does to the process — kill -TERM $$, trap's signal
// dispositions, umask, ulimit — must not reach the test process or the
// cases beside it.
var bashFilesSkipped = map[string]string{
	"history.sh":          "history is package shell's builtin",
	"bind.sh":             "bind is package shell's builtin",
	"complete.sh":         "complete and compgen are package shell's builtins",
	"prompt-transform.sh": "prompt escapes are decoded by package shell",
}

// Cases of other files that need the interactive shell's builtins.
var bashCasesSkipped = map[string]string{}

// Cases where the evaluator still differs from bash, to be fixed: each is
// skipped with a note, so that the others guard what passes.
var bashCasesKnown = map[string]bool{}

func TestBashFilesAgainstBash(t *testing.T) {
	needs.Tool(t, "bash")
	files, err := filepath.Glob(filepath.Join("..", "..", "cmd", "qsh", "testdata", "bash", "*.sh"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no case files in cmd/qsh/testdata/bash: %v", err)
	}
	for _, file := range files {
		base := filepath.Base(file)
		if why, ok := bashFilesSkipped[base]; ok {
			t.Logf("%s left out: %s", base, why)
			continue
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		cases := parseCaseFile(string(src))
		if len(cases) == 0 {
			t.Fatalf("%s: no cases", file)
		}
		t.Run(strings.TrimSuffix(base, ".sh"), func(t *testing.T) {
			var run []bashCase
			for _, c := range cases {
				if _, ok := bashCasesSkipped[base+":"+c.name]; ok {
					continue
				}
				if bashCasesKnown[base+":"+c.name] && os.Getenv("QSH_EVAL_ALL") == "" {
					t.Logf("%s: known to differ from bash (QSH_EVAL_ALL=1 runs it)", c.name)
					continue
				}
				run = append(run, c)
			}
			checkAgainstBashIn(t, run, runInHelper)
		})
	}
}

// parseCaseFile splits a file of `### name` cases.
func parseCaseFile(src string) []bashCase {
	var cases []bashCase
	for _, line := range strings.SplitAfter(src, "\n") {
		if name, ok := strings.CutPrefix(line, "### "); ok {
			cases = append(cases, bashCase{name: strings.TrimSpace(name)})
			continue
		}
		if len(cases) > 0 {
			cases[len(cases)-1].code += line
		}
	}
	return cases
}

// helperEnv names the variable that makes the test binary a helper running
// one case: its value is the case's code.
const helperEnv = "QSH_EVAL_HELPER_CODE"

// helperScriptEnv makes the helper run a script file, as `bash FILE
// ARGS…`: its value is the file, the arguments follow in the helper's
// command line after "--".
const helperScriptEnv = "QSH_EVAL_HELPER_SCRIPT"

func TestMain(m *testing.M) {
	if code, ok := os.LookupEnv(helperEnv); ok {
		os.Exit(helperMain(code))
	}
	if path, ok := os.LookupEnv(helperScriptEnv); ok {
		args := os.Args[1:]
		for i, a := range args {
			if a == "--" {
				args = args[i+1:]
				break
			}
		}
		os.Exit(helperScript(path, args))
	}
	os.Exit(m.Run())
}

// helperScript runs the script at path with args, as bash runs a file.
func helperScript(path string, args []string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return 126
	}
	dir, err := os.Getwd()
	if err != nil {
		return 125
	}
	r, err := New(Stdio(os.Stdin, os.Stdout, os.Stderr), Params(path, args...), ShellName("bash"),
		Script(path), Dir(dir), Env(testEnv(dir)))
	if err != nil {
		return 125
	}
	r.RunString(context.Background(), string(data), path)
	r.RunExitTrap()
	r.sess.bgWG.Wait()
	return r.Status()
}

// runScriptBoth runs the script at path with args in bash and in a
// helper, and compares.
func runScriptBoth(t *testing.T, path string, args ...string) {
	t.Helper()
	dirB, dirQ := t.TempDir(), t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	wantOut, wantErr, wantSt := runCommand(t, exec.Command("bash", append([]string{path}, args...)...), path, dirB, testEnv(dirB))
	gotOut, gotErr, gotSt := runCommand(t, exec.Command(self, append([]string{"-test.run=^$", "--"}, args...)...), path, dirQ,
		append(testEnv(dirQ), helperScriptEnv+"="+path))
	norm := func(s, dir string) string { return strings.ReplaceAll(s, dir, "$DIR") }
	if norm(gotOut, dirQ) != norm(wantOut, dirB) || norm(gotErr, dirQ) != norm(wantErr, dirB) || gotSt != wantSt {
		t.Errorf("bash %s %q\n--- bash: status %d\n%s%s--- qsh: status %d\n%s%s", path, args,
			wantSt, clip(wantOut), clip(wantErr), gotSt, clip(gotOut), clip(gotErr))
	}
}

// helperMain runs code as `bash -c code` would, in this process.
func helperMain(code string) int {
	dir, err := os.Getwd()
	if err != nil {
		return 125
	}
	r, err := New(
		Stdio(os.Stdin, os.Stdout, os.Stderr),
		Params("bash"),
		ShellName("bash"),
		CommandString(),
		Dir(dir),
		Env(testEnv(dir)),
	)
	if err != nil {
		return 125
	}
	r.RunString(context.Background(), code, "bash")
	r.RunExitTrap()
	r.sess.bgWG.Wait()
	return r.Status()
}

// runInHelper runs code in a helper process (see TestMain).
func runInHelper(t *testing.T, code, dir string) (stdout, stderr string, status int) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return runCommand(t, exec.Command(self), code, dir, append(testEnv(dir), helperEnv+"="+code))
}

// runCommand runs cmd in dir with env and empty stdin; a child killed by a
// signal has bash's status for it, 128 plus its number.
func runCommand(t *testing.T, cmd *exec.Cmd, code, dir string, env []string) (stdout, stderr string, status int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = strings.NewReader("")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop := context.AfterFunc(ctx, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	stop()
	if ctx.Err() != nil {
		t.Fatalf("did not finish in 30s:\n%s", code)
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		status = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			status = 128 + int(ws.Signal())
		}
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), errb.String(), status
}
