package sandbox

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
)

func TestConfig(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/sandbox.json"
	if c, err := LoadConfig(path); err != nil || len(c.Allow) != 0 {
		t.Errorf("a missing file: %+v %v", c, err)
	}
	writeFile(t, path, `{"allow": ["example.com", "*.corp.example"], "deny": ["gist.github.com"],
		"hosts": {"registry.corp.example": "10.1.2.3"},
		"projects": {"/home/al/app": {"allow": ["api.example.com"], "deny": ["x.example"]}}}`)
	c, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	allow, deny := c.For("/home/al/app/sub")
	if strings.Join(allow, " ") != "example.com *.corp.example api.example.com" || strings.Join(deny, " ") != "gist.github.com x.example" {
		t.Errorf("For(app): %q %q", allow, deny)
	}
	allow, deny = c.For("/home/al/other")
	if strings.Join(allow, " ") != "example.com *.corp.example" || strings.Join(deny, " ") != "gist.github.com" {
		t.Errorf("For(other): %q %q", allow, deny)
	}
	for _, bad := range []string{`{"allow": "example.com"}`, `{"allow": ["https://example.com/"]}`, `{"alow": []}`,
		`{"hosts": {"x.example": "not an address"}}`, `{`} {
		writeFile(t, path, bad)
		if _, err := LoadConfig(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v", bad, err)
		}
	}
	var d Domains
	if err := d.UnmarshalText([]byte("a.example, *.b.example 10.0.0.1")); err != nil || d.String() != "a.example,*.b.example,10.0.0.1" {
		t.Errorf("Domains: %q %v", d, err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSockets(t *testing.T) {
	dir := t.TempDir()
	agent := filepath.Join(dir, "agent.sock")
	l, err := net.Listen("unix", agent)
	if err != nil {
		needs.Missing(t, "%v", err)
	}
	defer l.Close()
	env := map[string]string{"SSH_AUTH_SOCK": agent, "DOCKER_HOST": "unix://" + filepath.Join(dir, "missing.sock"),
		"DBUS_SESSION_BUS_ADDRESS": "unix:abstract=/tmp/dbus-x,guid=1"}
	got := Sockets([]string{"ssh-agent", "docker", "dbus", "tmux"}, func(k string) string { return env[k] })
	if len(got) != 1 || got[0] != (Socket{Var: "SSH_AUTH_SOCK", Value: agent, Path: agent}) {
		t.Errorf("Sockets: %+v", got)
	}
	writeFile(t, filepath.Join(dir, "sandbox.json"), `{"sockets": ["ssh-agent", "pulseaudio"]}`)
	if _, err := LoadConfig(filepath.Join(dir, "sandbox.json")); err == nil || !strings.Contains(err.Error(), `"pulseaudio" is not one of`) {
		t.Errorf("an unknown socket: %v", err)
	}
}
