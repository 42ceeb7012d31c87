package shell

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSourceErrorsSayWhere: an error in a sourced file (an rc file, a
// profile, and files they source) names the file and line; a `return` in
// a nested file still ends only that file; outside files, errors start
// with "qsh: ".
func TestSourceErrorsSayWhere(t *testing.T) {
	home := t.TempDir()
	t.Chdir(home)
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(home, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".qshrc", "echo rc\nnosuchcmd-qsh-1\n. \"$HOME/inner.sh\"\nf() { nosuchcmd-qsh-3; }\numask 99x\necho rc-end\n")
	write("inner.sh", "echo inner\n\n./missing-prog\nreturn\necho not-reached\n")
	var out bytes.Buffer
	s, err := New(Stdio(nil, &out, &out), Environ([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}), Interactive(true))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s.RC(ctx)
	s.RunString(ctx, "f; nosuchcmd-qsh-4 < /dev/null")
	want := []string{
		"rc",
		filepath.Join(home, ".qshrc") + ":2: nosuchcmd-qsh-1: command not found",
		"inner",
		filepath.Join(home, "inner.sh") + ":3: ./missing-prog: no such file or directory",
		filepath.Join(home, ".qshrc") + ":5: umask: 99x: octal number out of range",
		"rc-end",
		"qsh: nosuchcmd-qsh-3: command not found",
		"qsh: nosuchcmd-qsh-4: command not found",
	}
	if got := strings.Split(strings.TrimSpace(out.String()), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestSourceLastPid: $! in a sourced file (an rc file, or one run with
// `.`) is a process ID, as in a script, and the marks that make it so
// leave the file's line numbers alone.
func TestSourceLastPid(t *testing.T) {
	home := t.TempDir()
	t.Chdir(home)
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(home, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".qshrc", "sleep 0.1 & echo \"rc=$!\"\n. ./inner.sh\n")
	write("inner.sh", "sleep 5 & p=$!\nkill -0 \"$p\" && echo alive\nkill $p; wait $p; echo st=$?\nnosuchcmd-qsh-5\n")
	// A file, not a bytes.Buffer: the programs' output is copied into a
	// buffer by goroutines of their own, which race with the shell's.
	out, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	s, err := New(Stdio(nil, out, out), Environ([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}), Interactive(true))
	if err != nil {
		t.Fatal(err)
	}
	s.RC(context.Background())
	b, _ := os.ReadFile(out.Name())
	got := string(b)
	for _, re := range []string{
		`(?m)^rc=[1-9][0-9]*$`,
		`(?m)^alive$`,
		`(?m)^st=143$`,
		`(?m)^\./inner\.sh:4: nosuchcmd-qsh-5: command not found$`,
	} {
		if !regexp.MustCompile(re).MatchString(got) {
			t.Errorf("no %s in:\n%s", re, got)
		}
	}
}

// TestSourceUpToSyntaxError: a sourced file with a syntax error runs as
// bash runs it, command by command: what comes before the error runs,
// then the error is said as `file:line: …`, with the token bash names,
// and the file ends with status 2.
func TestSourceUpToSyntaxError(t *testing.T) {
	for _, tc := range []struct {
		name, src, out, err string
	}{
		{"token", "echo a\necho b )\necho c\n", "a\n", "F:2: syntax error near unexpected token `)'"},
		{"first line", "fi\necho c\n", "", "F:1: syntax error near unexpected token `fi'"},
		{"heredoc and continuation", "echo a\ncat <<EOF\nhd\nEOF\necho b \\\n  c\nf() {\n  echo in\n  foo )\n}\necho late\n",
			"a\nhd\nb c\n", "F:9: syntax error near unexpected token `)'"},
		{"unclosed quote", "echo a\necho \"b\n", "a\n", "F:2: reached EOF without closing quote `\"`"},
		{"unclosed if", "echo a\nif true; then\necho b\n", "a\n", "F:2: `if` statement must end with `fi`"},
		{"marked text", "echo a\nsleep 0 & wait $! && echo w\necho b )\n", "a\nw\n", "F:3: syntax error near unexpected token `)'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			if err := os.WriteFile(filepath.Join(dir, "F"), []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errs bytes.Buffer
			s, err := New(Stdio(nil, &out, &errs), Environ([]string{"HOME=" + dir, "PATH=" + os.Getenv("PATH")}))
			if err != nil {
				t.Fatal(err)
			}
			s.RunString(context.Background(), `. F; echo "st=$?"`)
			if got, want := out.String(), tc.out+"st=2\n"; got != want {
				t.Errorf("output %q, want %q", got, want)
			}
			if got := strings.TrimSpace(errs.String()); got != tc.err {
				t.Errorf("error %q, want %q", got, tc.err)
			}
		})
	}
}
