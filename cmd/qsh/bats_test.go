package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/internal/needs"
	"github.com/qsh-shell/qsh/internal/testtime"
)

// batsInstall is how test.sh installs bats-core; QSH_TEST_NPM_PREFIX
// overrides the prefix.
const batsInstall = `npm install --no-audit --no-fund --prefix "${QSH_TEST_NPM_PREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/qsh-test/npm}" bats@1.13.0 bats-support@0.3.0 bats-assert@2.2.4`

// TestBatsSuite runs bats-core, a large bash program (traps on DEBUG, ERR
// and EXIT, BASH_SOURCE and FUNCNAME, process substitution, exec'd
// descriptors), on testdata/bats twice: under bash, and with qsh standing
// in for bash (bats's scripts start with `#!/usr/bin/env bash`, so a bash
// that is qsh first on PATH is enough). What bats prints must be the same,
// failing tests' traces included: several tests there fail on purpose.
// testdata/bats/assert uses bats-assert and bats-support, which most
// projects' suites load, from the same npm prefix.
func TestBatsSuite(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		needs.Missing(t, "bash is not installed: the bats test compares qsh with it")
	}
	modules := filepath.Join(npmPrefix(), "node_modules")
	bats := filepath.Join(modules, "bats", "bin", "bats")
	if _, err := os.Stat(bats); err != nil {
		needs.Missing(t, "bats-core is not installed at %s; install it with: %s", bats, batsInstall)
	}
	shim := t.TempDir()
	if err := os.Symlink(qshBinary(t), filepath.Join(shim, "bash")); err != nil {
		t.Fatal(err)
	}
	runs := []struct {
		name string
		args []string
		libs bool // needs bats-assert and bats-support
	}{
		{"tap", []string{"--formatter", "tap", "."}, false},
		{"filter", []string{"--formatter", "tap", "--filter", "^kept", "."}, false},
		{"count", []string{"--count", "."}, false},
		{"trace", []string{"--formatter", "tap", "--trace", "05_load.bats", "06_failures.bats", "08_shell.bats"}, false},
		{"tap13", []string{"--formatter", "tap13", "--print-output-on-failure", "01_run.bats", "02_status.bats"}, false},
		{"junit", []string{"--formatter", "junit", "04_skip.bats", "06_failures.bats"}, false},
		{"suite", []string{"--formatter", "tap", "suite"}, false},
		{"tags", []string{"--formatter", "tap", "--filter-tags", "fast", "suite"}, false},
		{"assert", []string{"--formatter", "tap", "assert"}, true},
	}
	for _, run := range runs {
		t.Run(run.name, func(t *testing.T) {
			t.Parallel()
			if run.libs {
				for _, lib := range []string{"bats-support", "bats-assert"} {
					if _, err := os.Stat(filepath.Join(modules, lib, "load.bash")); err != nil {
						needs.Missing(t, "%s is not installed in %s; install it with: %s", lib, modules, batsInstall)
					}
				}
			}
			want := runBats(t, bats, modules, "", run.args)
			got := runBats(t, bats, modules, shim, run.args)
			if got != want {
				t.Errorf("bats %s: qsh as bash differs from bash (%s)\n%s",
					strings.Join(run.args, " "), tapCounts(want, got), lineDiff(want, got, 40))
			}
		})
	}
}

func npmPrefix() string {
	prefix := os.Getenv("QSH_TEST_NPM_PREFIX")
	if prefix == "" {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			cache = filepath.Join(os.Getenv("HOME"), ".cache")
		}
		prefix = filepath.Join(cache, "qsh-test", "npm")
	}
	return prefix
}

// What varies between two runs of the same suite: bats's temporary
// directories and the times the junit formatter reports.
var batsVarying = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`bats-run-[A-Za-z0-9]+`), "bats-run-X"},
	{regexp.MustCompile(`(time|timestamp|hostname)="[^"]*"`), `$1=""`},
	{regexp.MustCompile(`duration_ms: [0-9]+`), "duration_ms: N"},
}

// runBats runs bats with args in testdata/bats, with shim first on PATH
// when it is not empty and libs as BATS_LIB_PATH, and returns what it
// printed, normalised.
func runBats(t *testing.T, bats, libs, shim string, args []string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "bats"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	// Generous: the suite takes seconds; a limit only stops a hang.
	ctx, cancel := context.WithTimeout(context.Background(), testtime.Scaled(5*time.Minute))
	defer cancel()
	cmd := exec.CommandContext(ctx, bats, args...)
	cmd.Dir = dir
	path := os.Getenv("PATH")
	if shim != "" {
		path = shim + string(os.PathListSeparator) + path
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "BATS_") && !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "TMPDIR=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "PATH="+path, "TMPDIR="+tmp, "NO_COLOR=1", "BATS_LIB_PATH="+libs)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	cmd.Stdin = nil
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("bats %s did not finish within %v (QSH_TEST_TIMEOUT_SCALE scales it); output:\n%s",
			strings.Join(args, " "), testtime.Scaled(5*time.Minute), clip(out.String()))
	}
	s := out.String()
	if err != nil {
		s += fmt.Sprintf("[bats: %v]\n", exitText(err))
	}
	s = strings.ReplaceAll(s, tmp, "$TMPDIR")
	for _, v := range batsVarying {
		s = v.re.ReplaceAllString(s, v.with)
	}
	return s
}

func exitText(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return fmt.Sprintf("exit status %d", ee.ExitCode())
	}
	return err.Error()
}

// tapCounts sums up both outputs' TAP results in a line.
func tapCounts(want, got string) string {
	count := func(s string) (ok, notOK int) {
		for _, l := range strings.Split(s, "\n") {
			switch {
			case strings.HasPrefix(l, "ok "):
				ok++
			case strings.HasPrefix(l, "not ok "):
				notOK++
			}
		}
		return
	}
	bo, bn := count(want)
	qo, qn := count(got)
	return fmt.Sprintf("bash: %d ok, %d not ok; qsh: %d ok, %d not ok", bo, bn, qo, qn)
}

// lineDiff is a line diff of two outputs (- bash, + qsh), each change
// with a line of context, cut after limit lines: enough to see what
// differs without the whole suite's output.
func lineDiff(want, got string, limit int) string {
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	// lcs[i][j] is the longest common subsequence of a[i:] and b[j:]; the
	// outputs are a few hundred lines, so the table is small.
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		mark byte
		text string
	}
	var all []line
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			all = append(all, line{' ', a[i]})
			i++
			j++
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			all = append(all, line{'+', b[j]})
			j++
		default:
			all = append(all, line{'-', a[i]})
			i++
		}
	}
	var sb strings.Builder
	shown, last := 0, -1
	for k, l := range all {
		near := l.mark != ' ' || k > 0 && all[k-1].mark != ' ' || k+1 < len(all) && all[k+1].mark != ' '
		if !near {
			continue
		}
		if shown == limit {
			sb.WriteString("…\n")
			break
		}
		if last >= 0 && k > last+1 {
			sb.WriteString("@@\n")
		}
		fmt.Fprintf(&sb, "%c %s\n", l.mark, l.text)
		shown++
		last = k
	}
	return sb.String()
}
