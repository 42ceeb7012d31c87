package main

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/config"
	"github.com/qsh-shell/qsh/shell"
)

func TestParseArgs(t *testing.T) {
	t.Parallel()
	str := func(s string) *string { return &s }
	tests := []struct {
		args []string
		want options
		err  string
	}{
		{[]string{"qsh"}, options{}, ""},
		{[]string{"-qsh"}, options{login: true}, ""},
		{[]string{"/bin/-qsh"}, options{login: true}, ""},
		{[]string{"qsh", "-c", "echo hi"}, options{command: str("echo hi")}, ""},
		{[]string{"qsh", "-c", "echo $0", "name", "a"}, options{command: str("echo $0"), args: []string{"name", "a"}}, ""},
		{[]string{"qsh", "-lc", "x"}, options{command: str("x"), login: true}, ""},
		{[]string{"qsh", "-c", "--", "x", "y"}, options{command: str("x"), args: []string{"y"}}, ""},
		{[]string{"qsh", "--login", "-i"}, options{login: true, interactive: true}, ""},
		{[]string{"qsh", "script.sh", "-c", "x"}, options{args: []string{"script.sh", "-c", "x"}}, ""},
		{[]string{"qsh", "-s", "a"}, options{stdin: true, args: []string{"a"}}, ""},
		{[]string{"qsh", "--", "-file"}, options{args: []string{"-file"}}, ""},
		{[]string{"qsh", "--help"}, options{action: "help"}, ""},
		{[]string{"qsh", "--version"}, options{action: "version"}, ""},
		{[]string{"qsh", "--config"}, options{action: "config"}, ""},
		{[]string{"qsh", "--classify", "--json", "ls"}, options{action: "classify", args: []string{"--json", "ls"}}, ""},
		{[]string{"qsh", "--json", "-c", "? hi"}, options{json: true, command: str("? hi")}, ""},
		{[]string{"qsh", "-c"}, options{}, "-c: option requires an argument"},
		{[]string{"qsh", "-x"}, options{set: []string{"-x"}}, ""},
		{[]string{"qsh", "-euo", "pipefail", "+O", "nullglob", "-c", "x"},
			options{command: str("x"), set: []string{"-e", "-u", "-o", "pipefail"}, shopt: []string{"-u", "nullglob"}}, ""},
		{[]string{"qsh", "-oo", "errexit", "noglob", "s.sh"}, options{set: []string{"-o", "errexit", "-o", "noglob"}, args: []string{"s.sh"}}, ""},
		{[]string{"qsh", "--norc", "--rcfile", "f", "-i"}, options{norc: true, rcfile: "f", interactive: true}, ""},
		{[]string{"qsh", "+c", "x"}, options{command: str("x")}, ""},
		{[]string{"qsh", "--posix", "-c", "x"}, options{command: str("x"), set: []string{"-o", "posix"}}, ""},
		{[]string{"qsh", "-Z"}, options{}, "-Z: invalid option"},
		{[]string{"qsh", "-o", "nosuch"}, options{}, "nosuch: invalid option name"},
		{[]string{"qsh", "-O", "nosuch"}, options{}, "nosuch: invalid shell option name"},
		{[]string{"qsh", "-o"}, options{}, "-o: option requires an argument"},
		{[]string{"qsh", "--frob"}, options{}, "--frob: invalid option"},
	}
	for _, tt := range tests {
		got, err := parseArgs(tt.args)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("parseArgs(%q) error %v, want %q", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseArgs(%q) = %+v, %v; want %+v", tt.args, got, err, tt.want)
		}
	}
}

// TestJSONWantsC: --json is for -c strings; anywhere else it is a usage
// error, before anything runs.
func TestJSONWantsC(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	if st := run([]string{"qsh", "--json", "script.sh"}, strings.NewReader(""), &stdout, &stderr); st != 2 || !strings.Contains(stderr.String(), "--json: goes with -c") {
		t.Errorf("status %d, stderr %q", st, stderr.String())
	}
}

func TestLoadConfig(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	var cfg shell.Config
	config.Load([]string{"QSH_HISTSIZE=nope", "QSH_CAPTURE=maybe", "QSH_HISTFILE=/h", "QSH_AI_TIMEOUT=nope"}, &stderr, &cfg)
	if cfg.HistSize != 50000 || !cfg.Capture || cfg.HistFile != "/h" {
		t.Errorf("shell config %+v", cfg)
	}
	// The assistant's variables are qsh-assistant's to read and report.
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) != 2 || !strings.Contains(stderr.String(), `QSH_HISTSIZE="nope": expected an integer; using the default (50000)`) ||
		!strings.Contains(stderr.String(), `QSH_CAPTURE="maybe": expected on or off`) {
		t.Errorf("warnings:\n%s", stderr.String())
	}
}
