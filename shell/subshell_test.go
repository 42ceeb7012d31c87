package shell

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qsh-shell/qsh/shell/eval"
)

func TestRunGuardSeesExpandedArgs(t *testing.T) {
	s, _, _ := newTestShell(t, nil)
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	os.Mkdir(src, 0o755)
	ctx := context.Background()
	s.run(ctx, "cd "+dir, "")

	var seen [][]string
	guard := func(next eval.ExecHandler) eval.ExecHandler {
		return func(ctx context.Context, c *eval.Call) int {
			seen = append(seen, c.Args)
			if c.Args[0] == "rm" {
				return 126
			}
			return next(ctx, c)
		}
	}
	var out, errb bytes.Buffer
	st, err := s.Run(ctx, "X=rm; $X -rf ./src", &out, &errb, guard, nil)
	if err != nil || st != 126 {
		t.Fatalf("Run: status %d, err %v", st, err)
	}
	if !slices.EqualFunc(seen, [][]string{{"rm", "-rf", "./src"}}, slices.Equal) {
		t.Fatalf("guard saw %q", seen)
	}
	if _, err := os.Stat(src); err != nil {
		t.Fatalf("the guard did not stop rm: %v", err)
	}
}

func TestRunSeesSessionChangesDoNotLeak(t *testing.T) {
	s, _, _ := newTestShell(t, nil)
	dir := t.TempDir()
	ctx := context.Background()
	s.run(ctx, "cd "+dir+"; v=session; f() { echo func-$1; }", "")
	// Aliases need the interactive shell's alias expansion.
	s.run(ctx, "alias al='echo alias-ran'", "")

	var out, errb bytes.Buffer
	st, err := s.Run(ctx, "echo $v; f x; al; pwd; cd /; v=changed; g() { :; }; alias al2=x; export NEWV=1", &out, &errb, nil, nil)
	if err != nil || st != 0 {
		t.Fatalf("Run: status %d, err %v, stderr %s", st, err, errb.String())
	}
	want := "session\nfunc-x\nalias-ran\n" + dir + "\n"
	if out.String() != want {
		t.Fatalf("output %q, want %q", out.String(), want)
	}
	if s.Dir() != dir || s.Var("v") != "session" || s.Var("NEWV") != "" || s.r.Func("g") != nil {
		t.Fatalf("changes leaked: dir %q v %q NEWV %q", s.Dir(), s.Var("v"), s.Var("NEWV"))
	}
}

func TestRunStdinClosedAndCancel(t *testing.T) {
	s, _, _ := newTestShell(t, nil)
	var out, errb bytes.Buffer
	st, err := s.Run(context.Background(), "cat; echo done", &out, &errb, nil, nil)
	if err != nil || st != 0 || out.String() != "done\n" {
		t.Fatalf("cat with closed stdin: %d %v %q %q", st, err, out.String(), errb.String())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	st, err = s.Run(ctx, "sleep 20", &out, &errb, nil, nil)
	if err == nil || time.Since(start) > 15*time.Second { // against the sleep's 20 s
		t.Fatalf("cancelled sleep: status %d err %v after %v", st, err, time.Since(start))
	}
	st, err = s.Run(context.Background(), "echo (", &out, &errb, nil, nil)
	if err != nil || st != 2 || !strings.Contains(errb.String(), "syntax error") {
		t.Fatalf("syntax error: %d %v %q", st, err, errb.String())
	}
}

func TestRunOpenGuard(t *testing.T) {
	s, _, _ := newTestShell(t, nil)
	dir := t.TempDir()
	var opened []string
	open := func(next eval.OpenHandler) eval.OpenHandler {
		return func(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
			opened = append(opened, path)
			return nil, os.ErrPermission
		}
	}
	var out, errb bytes.Buffer
	st, _ := s.Run(context.Background(), "echo hi > "+filepath.Join(dir, "f"), &out, &errb, nil, open)
	if st == 0 || len(opened) != 1 {
		t.Fatalf("status %d, opened %q", st, opened)
	}
	if _, err := os.Stat(filepath.Join(dir, "f")); err == nil {
		t.Fatal("the open guard did not stop the write")
	}
}

// TestRunReadsNoShellDescriptor checks that read -u and mapfile -u in the
// assistant's subshell reach no descriptor of the shell's process: those
// are the user's terminal and qsh's own files, not the run's, whose only
// input is its closed stdin; and a descriptor read through os.NewFile is
// closed when the garbage collector finds the file.
func TestRunReadsNoShellDescriptor(t *testing.T) {
	s, _, _ := newTestShell(t, nil)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	io.WriteString(w, "SHELL-FD-LINE\nSHELL-FD-LINE\n")
	fd := strconv.Itoa(int(r.Fd()))
	for _, cmd := range []string{"read -r -u " + fd + " x; echo \"[$x]\"", "mapfile -n 1 -u " + fd + " a; echo \"[${a[*]}]\""} {
		var out, errb bytes.Buffer
		s.Run(context.Background(), cmd, &out, &errb, nil, nil)
		if strings.Contains(out.String(), "SHELL-FD") {
			t.Errorf("%s: read the shell's descriptor: %q", cmd, out.String())
		}
		if !strings.Contains(errb.String(), "invalid file descriptor") {
			t.Errorf("%s: stderr %q, want an invalid file descriptor", cmd, errb.String())
		}
	}
}
