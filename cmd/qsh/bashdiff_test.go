package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/shell/shelltest"
)

// TestBashDifferential runs every case of testdata/bash/*.sh in bash and in
// qsh, each as `SHELL -c CASE` in a fresh directory with stdin from
// /dev/null, and compares what they print on stdout and their exit status.
// The cases are written from bash's manual and checked against bash itself:
// a behaviour qsh cannot match belongs in docs/COMPATIBILITY.md, not here.
//
// A file holds cases, each begun by a line `### name`; lines before the
// first are comments.
func TestBashDifferential(t *testing.T) {
	bash := needs.Tool(t, "bash")
	files, err := filepath.Glob(filepath.Join("testdata", "bash", "*.sh"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases in testdata/bash: %v", err)
	}
	qsh := qshBinary(t)
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		cases, err := parseDiffCases(string(src))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		t.Run(strings.TrimSuffix(filepath.Base(file), ".sh"), func(t *testing.T) {
			t.Parallel()
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					// The same directory for both, emptied between, so
					// that paths print alike.
					dir := t.TempDir()
					want := runDiffCase(t, dir, bash, c.code)
					got := runDiffCase(t, dir, qsh, c.code)
					if got != want {
						t.Errorf("%s:%d: qsh differs from bash\n--- script\n%s\n--- bash\n%s\n--- qsh\n%s",
							file, c.line, clip(c.code), clip(want.String()), clip(got.String()))
					}
				})
			}
		})
	}
}

type diffCase struct {
	name, code string
	line       int
}

func parseDiffCases(src string) ([]diffCase, error) {
	var cases []diffCase
	names := map[string]bool{}
	for i, line := range strings.SplitAfter(src, "\n") {
		if name, ok := strings.CutPrefix(line, "### "); ok {
			name = strings.TrimSpace(name)
			if names[name] {
				return nil, fmt.Errorf("line %d: case %q twice", i+1, name)
			}
			names[name] = true
			cases = append(cases, diffCase{name: name, line: i + 1})
			continue
		}
		if len(cases) > 0 {
			cases[len(cases)-1].code += line
		}
	}
	if len(cases) == 0 {
		return nil, errors.New("no cases (a case begins with `### name`)")
	}
	return cases, nil
}

type diffResult struct {
	stdout string
	status int
}

func (r diffResult) String() string {
	return fmt.Sprintf("%sstatus %d", r.stdout, r.status)
}

// runDiffCase runs code with shell in dir, emptied first, with a small
// environment both shells get alike.
func runDiffCase(t *testing.T, dir, shell, code string) diffResult {
	t.Helper()
	shelltest.DefaultSignals() // both shells start as from a login, whatever ran the tests
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*shelltest.Timeout())
	defer cancel()
	cmd := exec.CommandContext(ctx, shell, "-c", code)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TMPDIR=" + dir, "LC_ALL=C.UTF-8",
		"QSH_HISTFILE=" + filepath.Join(dir, ".qsh_history"), "QSH_CAPTURE=off"}
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &bytes.Buffer{}
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s did not finish in %v", filepath.Base(shell), 2*shelltest.Timeout())
	}
	st := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		st = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return diffResult{stdout: out.String(), status: st}
}

// clip keeps a failure's report short.
func clip(s string) string {
	const max = 1500
	if len(s) > max {
		return s[:max] + fmt.Sprintf("… (%d bytes more)", len(s)-max)
	}
	return s
}
