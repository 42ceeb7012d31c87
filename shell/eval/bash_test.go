package eval

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/internal/needs"
)

// The evaluator is tested against bash itself: each case runs as
// `bash -c CODE` and in-process, from a fresh temporary directory, and the
// two must print the same (stdout and stderr) and exit the same. Error
// messages match too: the runner is told its name is bash.

// bashCase is a script and, when bash is absent, what it must print.
type bashCase struct {
	name string
	code string
}

// runInProcess runs code in a new runner as `bash -c` would.
func runInProcess(t *testing.T, code, dir string) (stdout, stderr string, status int) {
	t.Helper()
	var out, errb bytes.Buffer
	r, err := New(
		Stdio(strings.NewReader(""), &out, &errb),
		Params("bash"),
		ShellName("bash"),
		CommandString(),
		Dir(dir),
		Env(testEnv(dir)),
		ProcessLimits(false), // the test's process: see runInHelper
	)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	r.RunString(ctx, code, "bash")
	r.RunExitTrap()
	r.sess.bgWG.Wait()
	_, status = r.Exited()
	if ex, st := r.Exited(); !ex {
		status = r.Status()
	} else {
		status = st
	}
	return out.String(), errb.String(), status
}

func testEnv(dir string) []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "LC_ALL=C.UTF-8", "TMPDIR=" + dir}
}

// runBash runs code with bash, as runInProcess does.
func runBash(t *testing.T, code, dir string) (stdout, stderr string, status int) {
	t.Helper()
	return runCommand(t, exec.Command("bash", "-c", code), code, dir, testEnv(dir))
}

// checkAgainstBash runs each case in both and compares.
func checkAgainstBash(t *testing.T, cases []bashCase) {
	t.Helper()
	checkAgainstBashIn(t, cases, runInProcess)
}

// checkAgainstBashIn runs each case in bash and with run, and compares.
func checkAgainstBashIn(t *testing.T, cases []bashCase, run func(t *testing.T, code, dir string) (string, string, int)) {
	t.Helper()
	needs.Tool(t, "bash")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dirB, dirQ := t.TempDir(), t.TempDir()
			wantOut, wantErr, wantSt := runBash(t, c.code, dirB)
			gotOut, gotErr, gotSt := run(t, c.code, dirQ)
			wantErr = strings.ReplaceAll(wantErr, dirB, "$DIR")
			gotErr = strings.ReplaceAll(gotErr, dirQ, "$DIR")
			wantOut = strings.ReplaceAll(wantOut, dirB, "$DIR")
			gotOut = strings.ReplaceAll(gotOut, dirQ, "$DIR")
			if gotOut != wantOut || gotErr != wantErr || gotSt != wantSt {
				t.Errorf("%s\n--- bash: status %d\n%s%s--- qsh: status %d\n%s%s", c.code,
					wantSt, clip(wantOut), clip(wantErr), gotSt, clip(gotOut), clip(gotErr))
			}
		})
	}
}

func clip(s string) string {
	if len(s) > 2000 {
		s = s[:1000] + "\n…\n" + s[len(s)-1000:]
	}
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "⏎\n"
	}
	return s
}

// The lines of issue 21: each crashed, hung or computed the wrong answer
// under interp.
func TestIssueLinesAgainstBash(t *testing.T) {
	checkAgainstBash(t, []bashCase{
		{"array-incr", `a=(1 2 3); ((a[1]++)); echo "${a[@]}"`},
		{"let-elem", `a=(1 2 3); let a[1]++; echo "${a[@]}"`},
		{"assoc-count", `declare -A c; for w in a b a; do ((c[$w]++)); done; declare -p c`},
		{"assoc-pairs", `declare -A m=(k v k2 v2); declare -p m`},
		{"shift-neg", `set -- a b; shift -1; echo $?`},
		{"local-unset", `f(){ local x; echo "[$x]"; }; x=outer; f`},
		{"int-append", `declare -i n=5; n+=5; echo $n`},
		{"arith-recursive", `x='1+1'; echo $((x*2))`},
		{"assoc-append", `declare -A m; m[k]+=1; declare -p m`},
		{"nameref-elem", `declare -n r=a; a=(1 2); r[1]=9; declare -p a`},
		{"hex-eq", `[[ 0x10 -eq 16 ]]; echo $?`},
		{"div-zero", `echo $((1/0)); echo next $?`},
		{"pipestatus", `true | false | true; echo "${PIPESTATUS[@]}"`},
		{"funcname", `f(){ echo "${FUNCNAME[@]}"; g; }; g(){ echo "${FUNCNAME[@]}"; }; f`},
		{"exec-fd", `exec 3>f; echo hi >&3; exec 3>&-; cat f`},
		{"exec-var-fd", `exec {fd}>f; [ "$fd" -ge 10 ] && echo ok; echo x >&$fd; exec {fd}>&-; cat f`},
		{"umask-subshell", `umask 022; (umask 000); umask`},
		{"brace-big", `a=({1..20000}); echo ${#a[@]}`},
		{"not-and", `[[ ! a && b ]]; echo $?; [[ ! "" && b ]]; echo $?`},
		{"scalar-keys", `x=v; echo "${!x[@]}"`},
		{"assoc-len", `declare -A m=([a]=1 [b]=2); echo ${#m[@]}`},
		{"set-u-default", `set -u; echo "${@:-.}"`},
		{"catfile", `echo content > f; echo "$(< f)"`},
		{"subshell-return", `f() ( return 3 ); f; echo $?`},
		{"inherit-errexit", `set -e; x=$(false; echo still); echo "[$x]"`},
		{"array-keys-scalar", `a=x; echo "${#a[@]}"`},
	})
}
