package main

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestNoAssistantLinked keeps the assistant out of the shell's binary: its
// packages and their dependencies cost every start-up (see package wire).
// Nothing under assistant/ may be linked, by prefix, so a new package there
// is covered without a line here.
func TestNoAssistantLinked(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "github.com/qsh-shell/qsh/cmd/qsh").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	forbidden := []string{
		"github.com/PuerkitoBio/goquery",
		"golang.org/x/net/html",
		"github.com/modelcontextprotocol/go-sdk/mcp",
		"github.com/google/jsonschema-go/jsonschema",
		"encoding/gob",
		"net/http",
		"net", // the sockets qsh has are plain files (socket pairs)
	}
	deps := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		deps[p] = true
		if strings.HasPrefix(p, module+"assistant/") {
			t.Errorf("cmd/qsh links %s", p)
		}
	}
	if !deps[module+"shell"] {
		t.Fatalf("go list -deps does not list the shell package:\n%s", out)
	}
	for _, p := range forbidden {
		if deps[p] {
			t.Errorf("cmd/qsh links %s", p)
		}
	}
}

// module is qsh's module path, the prefix of its packages.
const module = "github.com/qsh-shell/qsh/"

// TestImportRules checks the house's one-way imports by folder: the policy
// both programs share imports neither side, the shell's side never the
// assistant's, the assistant's never the shell's but guarded (its runs'
// test kit), and the classifier nothing of qsh's but the secrets and
// internal helpers.
func TestImportRules(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	rules := []struct {
		from   string   // packages under this prefix
		may    []string // may import, of qsh's, only these prefixes
		reason string
	}{
		{"policy/", []string{"policy/", "internal/"}, "the shared policy imports neither program's side"},
		{"policy/danger", []string{"policy/danger", "policy/secret", "internal/"}, "the classifier imports no other qsh package"},
		{"shell/", []string{"shell/", "policy/", "internal/", "config", "keys", "wire"}, "the shell's side never imports the assistant's"},
		{"assistant/", []string{"assistant/", "policy/", "internal/", "config", "keys", "wire", "shell/guarded"}, "the assistant's side imports the shell only for guarded runs"},
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], module)
		for _, r := range rules {
			if !strings.HasPrefix(pkg+"/", r.from) && !strings.HasPrefix(pkg, r.from) {
				continue
			}
			for _, imp := range f[1:] {
				dep, ok := strings.CutPrefix(imp, module)
				if !ok {
					continue
				}
				if !slices.ContainsFunc(r.may, func(p string) bool { return dep == strings.TrimSuffix(p, "/") || strings.HasPrefix(dep, p) }) {
					t.Errorf("%s imports %s: %s", pkg, dep, r.reason)
				}
			}
		}
	}
}

// TestNoInterpreterLinked checks that qsh evaluates bash itself (package
// shell/eval): mvdan/sh's interpreter and its expander, which qsh could
// only patch from outside, are in neither program.
func TestNoInterpreterLinked(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"github.com/qsh-shell/qsh/cmd/qsh", "github.com/qsh-shell/qsh/cmd/qsh-assistant"} {
		out, err := exec.Command("go", "list", "-deps", cmd).Output()
		if err != nil {
			t.Fatalf("go list: %v", err)
		}
		for _, p := range strings.Fields(string(out)) {
			if p == "mvdan.cc/sh/v3/interp" || p == "mvdan.cc/sh/v3/expand" {
				t.Errorf("%s links %s", cmd, p)
			}
		}
	}
}

// TestEarlyInitFirst checks that package early is initialised before the
// packages whose initialisers cost start-up time (see its doc): an import
// added to it, or a package sorting before it, would delay the inner
// shell's start.
func TestEarlyInitFirst(t *testing.T) {
	cmd := exec.Command(qshBinary(t), "-c", "true")
	cmd.Env = append(cmd.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("qsh -c true: %v\n%s", err, out)
	}
	var order []string // "init PKG @…"
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "init" {
			order = append(order, f[1])
		}
	}
	at := func(pkg string) int {
		for i, p := range order {
			if p == pkg {
				return i
			}
		}
		t.Fatalf("no init of %s in\n%s", pkg, out)
		return -1
	}
	early := at("github.com/qsh-shell/qsh/cmd/qsh/early")
	for _, later := range []string{"unicode", "regexp", "github.com/fatih/color", "mvdan.cc/sh/v3/fileutil",
		"github.com/qsh-shell/qsh/shell/eval", "github.com/qsh-shell/qsh/shell"} {
		if at(later) < early {
			t.Errorf("%s is initialised before package early", later)
		}
	}
}

// TestArchitectureListsEveryPackage keeps docs/ARCHITECTURE.md's package
// map true: every package `go list` finds has a line there, and every line
// names a package that exists.
func TestArchitectureListsEveryPackage(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var listed []string
	for _, p := range strings.Fields(string(out)) {
		listed = append(listed, strings.TrimPrefix(p, module))
	}
	doc, err := os.ReadFile("../../docs/ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	// The map's lines are indented four spaces: the package (or several,
	// comma-separated), then two spaces or more and what it holds.
	entry := regexp.MustCompile(`(?m)^ {4}([a-z][\w/.-]*(?:, [a-z][\w/.-]*)*)(?: {2,}|$)`)
	var mapped []string
	for _, m := range entry.FindAllStringSubmatch(string(doc), -1) {
		for _, p := range strings.Split(m[1], ", ") {
			mapped = append(mapped, strings.TrimSuffix(p, "/"))
		}
	}
	for _, p := range listed {
		if !slices.Contains(mapped, p) {
			t.Errorf("package %s has no line in docs/ARCHITECTURE.md's map", p)
		}
	}
	for _, p := range mapped {
		if !slices.Contains(listed, p) {
			t.Errorf("docs/ARCHITECTURE.md maps %s, which go list does not know", p)
		}
	}
}

// TestReadmeIsAGuide keeps README.md a user's guide (issue 17): short, with
// nothing that points outside the repository, and the one test command.
// Mechanisms go to docs/ARCHITECTURE.md, the assistant's details to
// docs/ASSISTANT.md, bash's differences to docs/COMPATIBILITY.md.
func TestReadmeIsAGuide(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	const budget = 1900
	if n := len(strings.Fields(readme)); n > budget {
		t.Errorf("README.md has %d words, more than %d: move details to docs/ and link them", n, budget)
	}
	if strings.Contains(readme, "](../") || strings.Contains(readme, "../shared") {
		t.Errorf("README.md points outside the repository")
	}
	if !strings.Contains(readme, "./test.sh") {
		t.Errorf("README.md lacks the test command, ./test.sh")
	}
}
