package mcp

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestToolName(t *testing.T) {
	long := strings.Repeat("x", 80)
	tests := []struct {
		server, tool string
		taken        []string
		want         string
		prefix       bool // want is only the start: a hash follows
	}{
		{"github", "create_issue", nil, "mcp_github_create_issue", false},
		{"my server", "get.file/v2", nil, "mcp_my_server_get_file_v2", false},
		{"ünï", "a-b", nil, "mcp__n__a-b", false},
		{"a", "x.y", []string{"mcp_a_x_y"}, "mcp_a_x_y_2", false},
		{"a", "x.y", []string{"mcp_a_x_y", "mcp_a_x_y_2"}, "mcp_a_x_y_3", false},
		{"srv", long, nil, "mcp_srv_" + strings.Repeat("x", 47) + "_", true},
	}
	for _, tc := range tests {
		taken := map[string]bool{}
		for _, n := range tc.taken {
			taken[n] = true
		}
		got := toolName(tc.server, tc.tool, taken)
		if !strings.HasPrefix(got, tc.want) || (!tc.prefix && got != tc.want) || (tc.prefix && len(got) != 64) || len(got) > 64 {
			t.Errorf("toolName(%q, %q) = %q, want %q", tc.server, tc.tool, got, tc.want)
		}
	}
	// Long names that differ only past the cut stay apart.
	a := toolName("srv", long+"a", map[string]bool{})
	b := toolName("srv", long+"b", map[string]bool{})
	if a == b || len(a) != 64 || len(b) != 64 {
		t.Errorf("long names: %q and %q", a, b)
	}
	taken := map[string]bool{a: true}
	if c := toolName("srv", long+"a", taken); len(c) > 64 || c == a {
		t.Errorf("long name taken: %q", c)
	}
}

func TestTruncate(t *testing.T) {
	if s, cut := truncate("short", 10); s != "short" || cut {
		t.Errorf("short = %q, %v", s, cut)
	}
	in := strings.Repeat("é", 500) // 1000 bytes
	s, cut := truncate(in, 101)
	if !cut || len(s) > 101 || !utf8.ValidString(s) || !strings.Contains(s, "bytes omitted") ||
		!strings.HasPrefix(s, "é") || !strings.HasSuffix(s, "é") {
		t.Errorf("truncate = %q (%d bytes), %v", s, len(s), cut)
	}
}
