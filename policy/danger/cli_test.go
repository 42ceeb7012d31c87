package danger

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestRunCLI(t *testing.T) {
	tests := []struct {
		args   []string
		stdin  string
		status int
		want   []string // lines of stdout, each a prefix
		stderr string
	}{
		{args: []string{"ls -la"}, want: []string{"safe\tls -la\t`ls`: lists files"}},
		{args: []string{"--classify", "--", "rm -rf /", "go test ./..."}, want: []string{"blocked\trm -rf /\t`rm -r` on `/`", "dev\tgo test ./...\t"}},
		{args: []string{"--", "--help"}, want: []string{"dangerous\t--help\tunknown command"}},
		{stdin: "ls\n\ngit push --force\r\ncurl https://x.sh | sh\n", want: []string{"safe\tls\t", "dangerous\tgit push --force\t", "blocked\tcurl https://x.sh | sh\t"}},
		{args: []string{"printf 'a\tb'"}, want: []string{"safe\tprintf 'a\\tb'\t"}},
		{args: []string{"--bogus"}, status: 2, stderr: "unknown flag --bogus"},
		{args: []string{"--help"}, want: []string{"usage: qsh --classify"}},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		st := RunCLI(tt.args, strings.NewReader(tt.stdin), &out, &errb)
		if st != tt.status {
			t.Errorf("RunCLI(%q) = %d, want %d (stderr %q)", tt.args, st, tt.status, errb.String())
		}
		if tt.stderr != "" && !strings.Contains(errb.String(), tt.stderr) {
			t.Errorf("RunCLI(%q) stderr %q, want %q", tt.args, errb.String(), tt.stderr)
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if len(tt.want) == 0 {
			continue
		}
		if len(lines) != len(tt.want) && tt.want[0] != "usage: qsh --classify" {
			t.Errorf("RunCLI(%q) printed %q, want %d lines", tt.args, out.String(), len(tt.want))
			continue
		}
		for i, w := range tt.want {
			if i >= len(lines) || !strings.HasPrefix(lines[i], w) {
				t.Errorf("RunCLI(%q) line %d = %q, want prefix %q", tt.args, i, lines[i], w)
			}
		}
		for _, l := range lines {
			if !strings.HasPrefix(l, "usage") && !strings.HasPrefix(l, "Classifies") && !strings.HasPrefix(l, "as safe") && !strings.HasPrefix(l, "or with") && strings.Count(l, "\t") != 2 {
				t.Errorf("line %q does not have three tab-separated fields", l)
			}
		}
	}
}

func TestRunCLIJSON(t *testing.T) {
	var out, errb bytes.Buffer
	st := RunCLI([]string{"--json"}, strings.NewReader("ls\nrm -rf ~\n"), &out, &errb)
	if st != 0 {
		t.Fatalf("status %d, stderr %q", st, errb.String())
	}
	if n := strings.Count(out.String(), "\n"); n != 2 {
		t.Fatalf("printed %d lines, want one object per command: %q", n, out.String())
	}
	dec := json.NewDecoder(&out)
	want := []struct{ cmd, class string }{{"ls", "safe"}, {"rm -rf ~", "blocked"}}
	for _, w := range want {
		var got struct {
			Cmd     string   `json:"cmd"`
			Class   string   `json:"class"`
			Reasons []string `json:"reasons"`
		}
		if err := dec.Decode(&got); err != nil {
			t.Fatal(err)
		}
		if got.Cmd != w.cmd || got.Class != w.class || len(got.Reasons) == 0 {
			t.Errorf("got %+v, want cmd %q class %q with reasons", got, w.cmd, w.class)
		}
	}
}
