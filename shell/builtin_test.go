package shell

import (
	"strings"
	"syscall"
	"testing"
)

func TestParseUmask(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		old  int
		want int
		err  bool
	}{
		{"022", 0, 0o022, false},
		{"0077", 0, 0o077, false},
		{"7", 0, 0o007, false},
		{"1000", 0, 0, true},
		{"09", 0, 0, true},
		{"u=rwx,g=rx,o=", 0o022, 0o027, false},
		{"g-w", 0o002, 0o022, false},
		{"o+r", 0o077, 0o073, false},
		{"a=", 0o022, 0o777, false},
		{"=rx", 0o022, 0o222, false},
		{"go-rwx", 0o022, 0o077, false},
		{"u=q", 0, 0, true},
		{"z=r", 0, 0, true},
		{"rwx", 0, 0, true},
	}
	for _, tt := range tests {
		got, err := parseUmask(tt.in, tt.old)
		if (err != nil) != tt.err || (!tt.err && got != tt.want) {
			t.Errorf("parseUmask(%q, %o) = %o, %v; want %o, err %v", tt.in, tt.old, got, err, tt.want, tt.err)
		}
	}
	if got := symbolicMode(0o750); got != "u=rwx,g=rx,o=" {
		t.Errorf("symbolicMode(0750) = %q", got)
	}
}

func TestSignalNum(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want syscall.Signal
		ok   bool
	}{
		{"TERM", syscall.SIGTERM, true},
		{"sigint", syscall.SIGINT, true},
		{"SIGKILL", syscall.SIGKILL, true},
		{"9", syscall.SIGKILL, true},
		{"0", 0, true},
		{"NOPE", 0, false},
		{"999", 0, false},
	}
	for _, tt := range tests {
		got, ok := signalNum(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("signalNum(%q) = %v, %v", tt.in, got, ok)
		}
	}
}

func TestTypeAndCommandV(t *testing.T) {
	s, _, out := newTestShell(t, []string{
		"alias ll='ls -l'",
		"f() { :; }",
		"command -v ll f cd if nosuch-cmd; echo st=$?",
		"command -V ll f",
		"type ll f",
		"type -t ll f cd if",
		"type -a true",
		"unalias ll",
		"command -v ll; echo st=$?",
		"umask() { echo my-umask; }",
		"umask",
	})
	s.REPL(t.Context())
	o := out.String()
	for _, want := range []string{
		// bash 5.2 fails only when it finds none of the names.
		"alias ll='ls -l'\nf\ncd\nif\nst=0\n",
		"ll is aliased to `ls -l'\nf is a function\n",
		"alias\nfunction\nbuiltin\nkeyword\n",
		"true is a shell builtin\ntrue is /",
		"\nst=1\n",
		"my-umask\n",
	} {
		if !strings.Contains(o, want) {
			t.Errorf("output lacks %q:\n%s", want, o)
		}
	}
}
