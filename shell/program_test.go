package shell

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestProgram(t *testing.T) {
	home := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(home, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	write(".profile", "echo profile; PROFILED=yes\n")
	script := write("script.sh", "echo \"script $0 $1\"\nexit 4\n")
	binary := write("binary", "\x7fELF\x00\x01\nrest\n")
	write("env.sh", "echo env file\n")
	str := func(s string) *string { return &s }
	tests := []struct {
		name   string
		p      Program
		env    []string
		stdin  string
		out    string
		errOut string
		status int
	}{
		{name: "command", p: Program{Command: str(`echo "$0 $1"; exit 3`), Name: "n", Params: []string{"a"}},
			out: "n a\n", status: 3},
		{name: "bash semantics", p: Program{Command: str(`a=(1 2 3); ((a[1]++)); f(){ local x; echo "[$x] ${a[1]}"; }; x=o; f`)},
			out: "[] 3\n"},
		{name: "syntax error after a command", p: Program{Command: str("echo before\nif")},
			out: "before\n", status: 2},
		{name: "script", p: Program{Script: script, Name: script, Params: []string{"x"}},
			out: "script " + script + " x\n", status: 4},
		{name: "missing script", p: Program{Script: filepath.Join(home, "nope"), Name: "nope"},
			errOut: "No such file or directory", status: 127},
		{name: "directory script", p: Program{Script: home, Name: home},
			errOut: "Is a directory", status: 126},
		{name: "binary", p: Program{Script: binary, Name: binary},
			errOut: "cannot execute binary file", status: 126},
		{name: "stdin", p: Program{Name: "qsh"}, stdin: "echo one\nfalse\n",
			out: "one\n", status: 1},
		{name: "login", p: Program{Command: str(`echo "$PROFILED"`), Login: true},
			out: "profile\nyes\n"},
		{name: "not login", p: Program{Command: str(`echo "[$PROFILED]"`)},
			out: "[]\n"},
		{name: "BASH_ENV", p: Program{Command: str(`echo main`)}, env: []string{"BASH_ENV=$HOME/env.sh"},
			out: "env file\nmain\n"},
		{name: "set flags", p: Program{Command: str(`false; echo not reached`), Set: []string{"-e"}},
			status: 1},
		{name: "shopt flags", p: Program{Command: str(`shopt -q extglob && echo on`), Shopt: []string{"-s", "extglob"}},
			out: "on\n"},
		{name: "exit trap", p: Program{Command: str(`trap 'echo bye' EXIT; exit 5`)},
			out: "bye\n", status: 5},
		// A job of shell code is a goroutine: the exit waits for it, as
		// bash's forked job outlives bash.
		{name: "background group", p: Program{Command: str(`{ sleep 0.1; echo late; } &`)},
			out: "late\n"},
		{name: "background list", p: Program{Command: str(`sleep 0.1 && echo late &`)},
			out: "late\n"},
		{name: "noexec flag", p: Program{Command: str(`echo hi`), Set: []string{"-n"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			p := tt.p
			p.Stdin = strings.NewReader(tt.stdin)
			p.Stdout, p.Stderr = &out, &errOut
			if p.Name == "" {
				p.Name = "qsh"
			}
			p.Environ = append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}, tt.env...)
			st := p.Run(context.Background())
			if out.String() != tt.out || st != tt.status || !strings.Contains(errOut.String(), tt.errOut) {
				t.Errorf("got status %d, stdout %q, stderr %q; want %d, %q, stderr with %q",
					st, out.String(), errOut.String(), tt.status, tt.out, tt.errOut)
			}
		})
	}
}

func TestOneshotName(t *testing.T) {
	tests := []struct {
		src  string
		name string
		ok   bool
	}{
		{"ls -l", "ls", true},
		{"FOO=1 env", "env", true},
		{"ls; ls", "", false},
		{"ls &", "", false},
		{"! ls", "", false},
		{"ls >f", "", false},
		{"$x", "", false},
		{"ls | wc", "", false},
		{"if", "", false},
		{"cat <(echo a)", "", false},
		{"diff x >(wc -l)", "", false},
		{"cat $(echo f)", "cat", true},
	}
	for _, tt := range tests {
		name, ok := oneshotName(tt.src)
		if name != tt.name || ok != tt.ok {
			t.Errorf("oneshotName(%q) = %q, %v; want %q, %v", tt.src, name, ok, tt.name, tt.ok)
		}
	}
}
