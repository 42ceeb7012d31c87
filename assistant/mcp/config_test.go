package mcp

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseConfig(t *testing.T) {
	env := map[string]string{"TOKEN": "t0k", "HOME": "/home/al"}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		name, in string
		want     []ServerConfig
		err      string
	}{
		{name: "stdio and http", in: `{"mcpServers": {
			"github": {"command": "npx", "args": ["-y", "@x/server-github"], "env": {"GITHUB_TOKEN": "${TOKEN}"}},
			"docs": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}, "autoApprove": []}
		}}`, want: []ServerConfig{
			{Name: "docs", URL: "https://example.com/mcp", Headers: map[string]string{"Authorization": "Bearer t0k"}},
			{Name: "github", Command: "npx", Args: []string{"-y", "@x/server-github"}, Env: map[string]string{"GITHUB_TOKEN": "t0k"}},
		}},
		{name: "expansion", in: `{"mcpServers": {"a": {"command": "${HOME}/bin/srv", "args": ["${UNSET:-def}", "$HOME", "${TOKEN"]}}}`,
			want: []ServerConfig{{Name: "a", Command: "/home/al/bin/srv", Args: []string{"def", "$HOME", "${TOKEN"}}}},
		{name: "type field and disabled", in: `{"mcpServers": {"a": {"type": "stdio", "command": "x"}, "b": {"type": "http", "url": "http://localhost:1/mcp"}, "c": {"command": "y", "disabled": true}}}`,
			want: []ServerConfig{{Name: "a", Command: "x"}, {Name: "b", URL: "http://localhost:1/mcp"}}},
		{name: "empty", in: `{"mcpServers": {}}`},
		{name: "syntax", in: "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\",}\n}}", err: "line 2, column 24: invalid character '}'"},
		{name: "not an object", in: `[]`, err: "line 1, column 1: value is a JSON array, want an object"},
		{name: "no mcpServers", in: `{"servers": {}}`, err: `no "mcpServers" object`},
		{name: "args type", in: `{"mcpServers": {"a": {"command": "x", "args": "-v"}}}`, err: `server "a": args is a JSON string, want an array`},
		{name: "neither", in: `{"mcpServers": {"a": {"args": ["x"]}}}`, err: `server "a": needs "command" (a stdio server) or "url"`},
		{name: "both", in: `{"mcpServers": {"a": {"command": "x", "url": "http://h"}}}`, err: `server "a": has both "command" and "url"`},
		{name: "bad url", in: `{"mcpServers": {"a": {"url": "ftp://h"}}}`, err: `server "a": url "ftp://h" is not http:// or https://`},
		{name: "sse", in: `{"mcpServers": {"a": {"type": "sse", "url": "http://h/sse"}}}`, err: `server "a": "type": "sse"`},
		{name: "headers on stdio", in: `{"mcpServers": {"a": {"command": "x", "headers": {"A": "b"}}}}`, err: `server "a": "headers" are for HTTP servers`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseConfig([]byte(tc.in), getenv)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	getenv := func(string) string { return "" }
	if s, err := LoadConfig(filepath.Join(dir, "none.json"), getenv); s != nil || err != nil {
		t.Errorf("missing file = %v, %v; want no servers, no error", s, err)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("{\"mcpServers\": \n"), 0o644)
	if _, err := LoadConfig(bad, getenv); err == nil || !strings.HasPrefix(err.Error(), "mcp config "+bad+": line 2") ||
		strings.Contains(err.Error(), "\n") {
		t.Errorf("malformed file: err = %v; want one line naming the file and the place", err)
	}
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte(`{"mcpServers": {"a": {"command": "x"}}}`), 0o644)
	if s, err := LoadConfig(good, getenv); err != nil || len(s) != 1 || s[0].Command != "x" {
		t.Errorf("good file = %v, %v", s, err)
	}
}

func TestConfigPath(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"QSH_AI_MCP_CONFIG": "/x/m.json", "XDG_CONFIG_HOME": "/c"}, "/x/m.json"},
		{map[string]string{"XDG_CONFIG_HOME": "/c", "HOME": "/h"}, "/c/qsh/mcp.json"},
		{map[string]string{"HOME": "/h"}, "/h/.config/qsh/mcp.json"},
	}
	for _, tc := range tests {
		if got := ConfigPath(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("ConfigPath(%v) = %s, want %s", tc.env, got, tc.want)
		}
	}
}
