package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoAssistantLinked keeps the assistant out of the shell's binary: its
// packages and their dependencies cost every start-up (see package wire).
func TestNoAssistantLinked(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "github.com/qsh-shell/qsh/cmd/qsh").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	forbidden := []string{
		"github.com/qsh-shell/qsh/ai",
		"github.com/qsh-shell/qsh/tools",
		"github.com/qsh-shell/qsh/tools/mcp",
		"github.com/PuerkitoBio/goquery",
		"golang.org/x/net/html",
		"github.com/modelcontextprotocol/go-sdk/mcp",
		"github.com/google/jsonschema-go/jsonschema",
		"encoding/gob",
		"net/http",
	}
	deps := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		deps[p] = true
	}
	if !deps["github.com/qsh-shell/qsh/shell"] {
		t.Fatalf("go list -deps does not list the shell package:\n%s", out)
	}
	for _, p := range forbidden {
		if deps[p] {
			t.Errorf("cmd/qsh links %s", p)
		}
	}
}
