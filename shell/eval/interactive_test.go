package eval

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Error messages of an interactive shell carry no line, but for syntax
// errors in a sourced file, as bash 5.2's (measured with `bash --norc -i`
// reading these lines).
func TestInteractiveMessages(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bad.sh"), []byte("nosuchcmd\necho )\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "lib2.sh"), []byte("h() { nosuch2; }\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "src.sh"), []byte("cd /nonexistent\n"), 0o644)
	lines := []string{
		"f() { cd /nonexistent; }", "f", ". ./src.sh", ". ./bad.sh", ". ./lib2.sh", "h", "nosuch3",
		"x=(1); echo ${x[-5]}", "echo ${y?unset}", "echo )",
	}
	want := strings.Join([]string{
		"bash: cd: /nonexistent: No such file or directory",
		"bash: cd: /nonexistent: No such file or directory",
		"bash: nosuchcmd: command not found",
		"bash: ./bad.sh: line 2: syntax error near unexpected token `)'",
		"bash: ./bad.sh: line 2: `echo )'",
		"bash: nosuch2: command not found",
		"bash: nosuch3: command not found",
		"bash: x: bad array subscript",
		"bash: y: unset",
		"bash: syntax error near unexpected token `)'",
	}, "\n") + "\n"
	var out, errb bytes.Buffer
	r, err := New(Stdio(strings.NewReader(""), &out, &errb), Params("bash"), ShellName("bash"), Interactive(true),
		Dir(dir), Env(testEnv(dir)), ProcessLimits(false))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for _, l := range lines {
		r.RunString(ctx, l, "bash")
	}
	if got := errb.String(); got != want {
		t.Errorf("interactive messages:\n--- bash\n%s--- qsh\n%s", want, got)
	}
}
