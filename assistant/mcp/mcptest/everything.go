// Package mcptest locates the MCP reference server the end-to-end tests run.
package mcptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
)

// Install is how test.sh installs the reference server; QSH_TEST_NPM_PREFIX
// overrides the prefix.
const Install = `npm install --no-audit --no-fund --prefix "${QSH_TEST_NPM_PREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/qsh-test/npm}" @modelcontextprotocol/server-everything@2026.8.31`

// Everything returns the command line of @modelcontextprotocol/server-everything
// over stdio. Without node or the package it is [needs.Missing]: test.sh installs
// them.
func Everything(t testing.TB) (node string, args []string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		needs.Missing(t, "node is not installed; the end-to-end MCP test needs node and: %s", Install)
	}
	prefix := os.Getenv("QSH_TEST_NPM_PREFIX")
	if prefix == "" {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			cache = filepath.Join(os.Getenv("HOME"), ".cache")
		}
		prefix = filepath.Join(cache, "qsh-test", "npm")
	}
	index := filepath.Join(prefix, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(index); err != nil {
		needs.Missing(t, "@modelcontextprotocol/server-everything is not installed at %s; install it with: %s", prefix, Install)
	}
	return node, []string{index, "stdio"}
}
